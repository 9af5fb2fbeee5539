package sensorboard

import (
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestFanoutBackpressureIsPerBoard(t *testing.T) {
	var mu sync.Mutex
	got := map[string][]uint16{}
	release := make(chan struct{})
	var wg sync.WaitGroup
	f := &Fanout{Size: 1, OnBoard: func(board string, events <-chan Event) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for e := range events {
				if board == "slow" {
					<-release
				}
				mu.Lock()
				got[board] = append(got[board], e.Seq)
				mu.Unlock()
			}
		}()
	}}
	slowDone := make(chan struct{})
	go func() {
		defer close(slowDone)
		for i := range 5 {
			f.Handle(Event{Board: "slow", Seq: uint16(i)})
		}
	}()
	for i := range 100 {
		f.Handle(Event{Board: "fast", Seq: uint16(i)})
	}
	require.Eventually(t, func() bool {
		mu.Lock()
		defer mu.Unlock()
		return len(got["fast"]) == 100
	}, 5*time.Second, time.Millisecond, "the fast board is not held up by the slow one")
	select {
	case <-slowDone:
		t.Fatal("the slow board's producer should be blocked")
	default:
	}
	close(release)
	<-slowDone
	f.Close()
	wg.Wait()
	assert.Equal(t, []uint16{0, 1, 2, 3, 4}, got["slow"], "in order")
	for i, s := range got["fast"] {
		assert.Equal(t, uint16(i), s)
	}
}
