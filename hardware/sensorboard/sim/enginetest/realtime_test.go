package enginetest

import (
	"context"
	"log/slog"
	"math/rand/v2"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arbiter/board"
	sb "arbiter/hardware/sensorboard"
	"arbiter/hardware/sensorboard/sim"
	"arbiter/rules"
)

// A board on a pseudo-terminal plays a short game in real time, as
// `arbiter simulate` and the demo run one; the driver sees its clock
// presses with board times mapped onto the host's clock.
func TestRealTimePresses(t *testing.T) {
	g, err := rules.New("chess", nil)
	require.NoError(t, err)
	dir := t.TempDir()
	link := filepath.Join(dir, "demo")
	var mu sync.Mutex
	var presses []board.Event
	d, err := sb.New(sb.Config{
		Ports:  []sb.PortSpec{{Path: link}},
		Scan:   20 * time.Millisecond,
		Logger: slog.New(slog.DiscardHandler),
		Handler: func(e board.Event) {
			if e.Kind == board.EventButton && e.Button == board.ButtonClock && e.Pressed {
				mu.Lock()
				presses = append(presses, e)
				mu.Unlock()
			}
		},
	})
	require.NoError(t, err)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	go func() { _ = d.Run(ctx) }()

	clock := sim.NewReal()
	b, err := sim.NewBoard(sim.Config{ID: "DEMO", Geometry: g.Geometry(), Graph: sim.GraphName(g), Caps: board.CapHeight,
		Seed: 3, Heartbeat: 50 * time.Millisecond}, clock)
	require.NoError(t, err)
	start := g.Start()
	b.Load(start.View()) // set up before it is plugged in
	p, err := sim.Attach(b, link)
	require.NoError(t, err)
	defer p.Close()
	run := sim.NewRunner(b, clock)
	run.Plug = p
	run.Human = sim.Human{
		Think: [2]time.Duration{20 * time.Millisecond, 40 * time.Millisecond},
		Hand:  [2]time.Duration{10 * time.Millisecond, 20 * time.Millisecond},
		Press: [2]time.Duration{10 * time.Millisecond, 20 * time.Millisecond},
	}
	turns, err := sim.RandomGame(start, 8, rand.New(rand.NewPCG(3, 0xD3A0)))
	require.NoError(t, err)
	require.Len(t, turns, 8)
	require.NoError(t, run.Play(ctx, turns))

	count := func() int {
		mu.Lock()
		defer mu.Unlock()
		return len(presses)
	}
	require.Eventually(t, func() bool { return count() == 8 }, 10*time.Second, 10*time.Millisecond, "every press reaches the driver")
	mu.Lock()
	defer mu.Unlock()
	for i, e := range presses {
		assert.Equal(t, board.Side(i%2), e.Side, "press %d by the mover", i)
		assert.LessOrEqual(t, e.At, e.Host, "an event is not received before it happens")
		assert.Less(t, e.Host-e.At, time.Second, "mapped time close to the receive time (a loaded machine delays reads)")
	}
}
