package driver

import (
	"context"
	"log/slog"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"arbiter/board"
	"arbiter/hardware/dgt/sim"
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
