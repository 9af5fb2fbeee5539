package eboard

import (
	"context"
	"io"
	"log/slog"
	"net"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arbiter/board"
	"arbiter/rules"
)

// echoSession is a session of the tests: its board says hello when the
// port opens, and every byte read is a square event.
type echoSession struct{ w Wire }

func (s *echoSession) Start(now time.Duration) {
	s.w.Emit(board.Event{Kind: board.EventHello, Host: now, Info: &board.Info{ID: "ECHO-1", Width: 8, Height: 8, Cells: 64}})
}

func (s *echoSession) Feed(p []byte, now time.Duration) {
	for _, b := range p {
		s.w.Emit(board.Event{Kind: board.EventSquare, Host: now, Square: rules.Square(b)})
	}
}

func (s *echoSession) Tick(time.Duration)                      {}
func (s *echoSession) Deadline() time.Duration                 { return time.Hour }
func (s *echoSession) Disconnected(time.Duration)              {}
func (s *echoSession) Show(board.Message, time.Duration) error { return nil }
func (s *echoSession) Resync(time.Duration) error              { return nil }
func (s *echoSession) Assume(board.Info, time.Duration) error  { return nil }

// A daemon that stops takes every event the driver read, whose bytes are
// in the raw log: Run returns only once the handler has had them all,
// those queued behind a handler that is slow to take its event included.
func TestRunHandsOverEveryEventBeforeItReturns(t *testing.T) {
	host, dev := net.Pipe()
	t.Cleanup(func() { host.Close(); dev.Close() })
	release := make(chan struct{})
	var (
		mu   sync.Mutex
		took []board.EventKind
	)
	epoch := time.Now()
	d, err := NewDriver(Protocol{Name: "echo", NewSession: func(_ string, w Wire) Session { return &echoSession{w: w} }},
		Config{Paths: []string{"echo0"}, Now: func() time.Duration { return time.Since(epoch) }, Logger: slog.New(slog.DiscardHandler),
			Open: func(string) (io.ReadWriteCloser, error) { return host, nil },
			Handler: func(e board.Event) {
				<-release // a handler busy elsewhere
				mu.Lock()
				took = append(took, e.Kind)
				mu.Unlock()
			}})
	require.NoError(t, err)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); _ = d.Run(ctx) }()
	// The handler holds the hello; the board's squares queue.
	require.Eventually(t, func() bool { return d.Owns("ECHO-1") }, 10*time.Second, 10*time.Millisecond)
	_, err = dev.Write([]byte{12, 28})
	require.NoError(t, err)
	queued := func() int {
		d.mu.Lock()
		defer d.mu.Unlock()
		n := 0
		for _, l := range d.ports {
			l.qmu.Lock()
			n += len(l.queue)
			l.qmu.Unlock()
		}
		return n
	}
	require.Eventually(t, func() bool { return queued() == 2 }, 10*time.Second, 10*time.Millisecond, "events wait for the handler")
	cancel()
	select {
	case <-done:
		t.Fatal("Run returned while events waited for the handler")
	case <-time.After(100 * time.Millisecond):
	}
	close(release)
	<-done
	assert.Zero(t, queued(), "every event was handed over")
	mu.Lock()
	defer mu.Unlock()
	assert.Equal(t, []board.EventKind{board.EventHello, board.EventSquare, board.EventSquare}, took)
}
