package driver

import (
	"context"
	"log/slog"
	"path/filepath"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arbiter/board"
	"arbiter/hardware/dgt/sim"
	"arbiter/rules/chess"
)

// emulated is a driver reading an emulated board on a pseudo-terminal:
// what it delivers and logs goes to rec.
type emulated struct {
	emu  *sim.Board
	line *sim.Line
	link string
	d    *Driver
	rec  *live
	id   string // the board's id once it has told it
	stop func() // stops the driver (again: nothing)
}

// runEmulated plugs emu in and runs a driver with cfg on its port (Paths,
// Now, Handler and Raw are set here; Scan is 20 ms unless set), until the
// board has told its id.
func runEmulated(t *testing.T, emu *sim.Board, serial string, cfg Config) *emulated {
	t.Helper()
	e := &emulated{emu: emu, link: filepath.Join(t.TempDir(), "dgt0"), rec: &live{chunks: map[string][]board.Record{}}, id: IDPrefix + serial}
	var err error
	e.line, err = sim.Attach(e.link, emu)
	require.NoError(t, err)
	t.Cleanup(func() { e.line.Close() })
	epoch := time.Now()
	cfg.Paths, cfg.Handler, cfg.Raw = []string{e.link}, e.rec.handle, e.rec.raw
	cfg.Now = func() time.Duration { return time.Since(epoch) }
	if cfg.Scan == 0 {
		cfg.Scan = 20 * time.Millisecond
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	e.d, err = New(cfg)
	require.NoError(t, err)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); _ = e.d.Run(ctx) }()
	var once sync.Once
	e.stop = func() { once.Do(func() { cancel(); <-done }) }
	t.Cleanup(e.stop)
	require.Eventually(t, func() bool { return e.d.Owns(e.id) }, 10*time.Second, 10*time.Millisecond, "the board tells its id")
	return e
}

// A daemon that stops takes every event the driver read, whose bytes are
// in the raw log: Run returns only once the handler has had them all,
// those queued behind a handler that is slow to take its event included.
func TestRunHandsOverEveryEventBeforeItReturns(t *testing.T) {
	emu := sim.NewBoard(sim.Config{Serial: "30005", Seed: 5})
	emu.SetUp(chess.Start().View())
	link := filepath.Join(t.TempDir(), "dgt0")
	line, err := sim.Attach(link, emu)
	require.NoError(t, err)
	t.Cleanup(func() { line.Close() })
	release := make(chan struct{})
	var (
		mu   sync.Mutex
		took []board.EventKind
	)
	epoch := time.Now()
	d, err := New(Config{Paths: []string{link}, Scan: 20 * time.Millisecond, Now: func() time.Duration { return time.Since(epoch) },
		Logger: slog.New(slog.DiscardHandler),
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
	// The handler holds the first event; the board's next ones queue.
	queue := func() []board.EventKind {
		d.mu.Lock()
		defer d.mu.Unlock()
		var kinds []board.EventKind
		for _, l := range d.ports {
			l.qmu.Lock()
			for _, e := range l.queue {
				kinds = append(kinds, e.Kind)
			}
			l.qmu.Unlock()
		}
		return kinds
	}
	queued := func() int { return len(queue()) }
	require.Eventually(t, func() bool { return d.Owns(IDPrefix + "30005") }, 10*time.Second, 10*time.Millisecond)
	emu.LiftSquare(12) // e2
	// The lift itself waits (not only a snapshot queued behind the hello
	// before the lift was read).
	require.Eventually(t, func() bool { return slices.Contains(queue(), board.EventSquare) }, 10*time.Second, 10*time.Millisecond, "events wait for the handler")
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
	assert.Equal(t, board.EventHello, took[0])
	assert.Contains(t, took, board.EventSquare, "the lift, queued behind the hello")
}
