package millennium_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arbiter/board"
	"arbiter/hardware/eboard"
	"arbiter/hardware/eboard/emu"
	"arbiter/hardware/millennium"
	"arbiter/hardware/millennium/sim"
	"arbiter/hardware/serialport"
	"arbiter/hardware/serialport/serialtest"
	"arbiter/internal/eboardtest"
)

// kind returns the events of kind k the recorder took.
func kind(r *eboardtest.Recorder, k board.EventKind) []board.Event {
	evs, _ := r.Taken()
	var out []board.Event
	for _, e := range evs {
		if e.Kind == k {
			out = append(out, e)
		}
	}
	return out
}

// A ChessLink port that another process holds (its lock file names a
// live process) is left alone: the e-board driver reports it once to the
// daemon, as an error event naming the port (and no board) whose error
// names the holder, and takes the port once the holder is gone, as the
// DGT driver does (issue 30 §4: the daemon makes it the port's alert).
func TestHeldPortIsLeftAloneAndReported(t *testing.T) {
	t.Parallel()
	b := sim.NewBoard(sim.Config{Model: sim.Exclusive, Seed: 1})
	line, err := emu.Attach(filepath.Join(t.TempDir(), "mil0"), b)
	require.NoError(t, err)
	t.Cleanup(func() { line.Close() })
	locks := t.TempDir()
	other := serialtest.Hold(t, line.Path(), locks)

	host := eboardtest.NewRecorder()
	epoch := time.Now()
	drv, err := millennium.New(millennium.DriverConfig{Config: eboard.Config{
		Paths: []string{line.Path()}, Scan: 20 * time.Millisecond, Now: func() time.Duration { return time.Since(epoch) },
		Handler: host.Handle, Raw: host.Raw, Logger: slog.New(slog.DiscardHandler),
		Open: func(p string) (io.ReadWriteCloser, error) {
			port, err := serialport.Open(p, serialport.Config{LockDirs: []string{locks}})
			if err != nil {
				return nil, err
			}
			return port, nil
		}}})
	require.NoError(t, err)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); _ = drv.Run(ctx) }()
	defer func() { cancel(); <-done }()

	require.Eventually(t, func() bool { return len(kind(host, board.EventError)) > 0 }, 10*time.Second, 10*time.Millisecond, "the held port is reported")
	time.Sleep(200 * time.Millisecond) // ten scans more
	errs := kind(host, board.EventError)
	require.Len(t, errs, 1, "reported once, not at every scan")
	e := errs[0]
	assert.Equal(t, line.Path(), e.Port)
	assert.Empty(t, e.Board, "the port's trouble, no board's")
	var he *serialport.HeldError
	require.True(t, errors.As(e.Err, &he), "%v", e.Err)
	assert.Equal(t, other.Process.Pid, he.PID)
	assert.Contains(t, e.Err.Error(), fmt.Sprintf("held by process %d (sleep)", other.Process.Pid))
	assert.Empty(t, kind(host, board.EventHello), "the port is left alone")

	// The holder ends; its lock is stale, and the port is the driver's.
	require.NoError(t, other.Process.Kill())
	_ = other.Wait()
	require.Eventually(t, func() bool { return len(kind(host, board.EventHello)) > 0 }, 30*time.Second, 10*time.Millisecond, "the board is read once the holder is gone")
}
