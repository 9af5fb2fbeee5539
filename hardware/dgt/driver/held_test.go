package driver_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arbiter/board"
	"arbiter/hardware/dgt"
	"arbiter/hardware/dgt/driver"
	"arbiter/hardware/dgt/sim"
	"arbiter/hardware/serialport"
	"arbiter/hardware/serialport/serialtest"
	"arbiter/rules/chess"
)

// events keeps the events a driver hands the daemon.
type events struct {
	mu  sync.Mutex
	all []board.Event
}

func (e *events) handle(ev board.Event) {
	e.mu.Lock()
	e.all = append(e.all, ev)
	e.mu.Unlock()
}

func (e *events) kind(k board.EventKind) []board.Event {
	e.mu.Lock()
	defer e.mu.Unlock()
	var out []board.Event
	for _, ev := range e.all {
		if ev.Kind == k {
			out = append(out, ev)
		}
	}
	return out
}

// A DGT port that another process holds (its lock file names a live
// process) is left alone: the driver reports it once to the daemon, as an
// error event naming the port and the holder, and takes the port when the
// holder is gone (its lock then stale). So does the bus driver for a line.
func TestHeldPortIsLeftAloneAndReported(t *testing.T) {
	for _, bus := range []bool{false, true} {
		t.Run(fmt.Sprintf("bus %t", bus), func(t *testing.T) {
			t.Parallel() // each on its own pseudo-terminal; they mostly wait
			emu := sim.NewBoard(sim.Config{Serial: "30010", PingSpread: 50 * time.Millisecond})
			emu.SetUp(chess.Start().View())
			link := filepath.Join(t.TempDir(), "dgt0")
			line, err := sim.Attach(link, emu)
			require.NoError(t, err)
			t.Cleanup(func() { line.Close() })
			locks := t.TempDir()
			other := serialtest.Hold(t, link, locks)
			open := func(p string) (io.ReadWriteCloser, error) {
				port, err := serialport.Open(p, serialport.Config{LockDirs: []string{locks}})
				if err != nil {
					return nil, err
				}
				return port, nil
			}
			rec := &events{}
			epoch := time.Now()
			now := func() time.Duration { return time.Since(epoch) }
			ctx, cancel := context.WithCancel(context.Background())
			done := make(chan struct{})
			if bus {
				d, err := driver.NewBus(driver.BusConfig{Lines: []driver.Line{{Path: link}}, Scan: 20 * time.Millisecond, Poll: 30 * time.Millisecond,
					Bus: dgt.BusConfig{PingWindow: 100 * time.Millisecond}, Now: now, Handler: rec.handle, Open: open})
				require.NoError(t, err)
				go func() { defer close(done); _ = d.Run(ctx) }()
			} else {
				d, err := driver.New(driver.Config{Paths: []string{link}, Scan: 20 * time.Millisecond, Now: now, Handler: rec.handle, Open: open})
				require.NoError(t, err)
				go func() { defer close(done); _ = d.Run(ctx) }()
			}
			defer func() { cancel(); <-done }()

			require.Eventually(t, func() bool { return len(rec.kind(board.EventError)) > 0 }, 10*time.Second, 10*time.Millisecond, "the held port is reported")
			time.Sleep(200 * time.Millisecond) // ten scans more
			errs := rec.kind(board.EventError)
			require.Len(t, errs, 1, "reported once, not at every scan")
			e := errs[0]
			assert.Equal(t, link, e.Port)
			var he *serialport.HeldError
			require.True(t, errors.As(e.Err, &he), "%v", e.Err)
			assert.Equal(t, other.Process.Pid, he.PID)
			assert.Contains(t, e.Err.Error(), fmt.Sprintf("held by process %d (sleep)", other.Process.Pid))
			assert.Empty(t, rec.kind(board.EventHello), "the port is left alone")
			assert.Zero(t, emu.Counters().Dumps+emu.Counters().BusReplies, "nothing was sent to the board")

			// The holder ends; its lock is stale, and the port is the
			// driver's.
			require.NoError(t, other.Process.Kill())
			_ = other.Wait()
			require.Eventually(t, func() bool { return len(rec.kind(board.EventHello)) > 0 }, 10*time.Second, 10*time.Millisecond, "the board is read once the holder is gone")
		})
	}
}
