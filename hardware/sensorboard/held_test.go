package sensorboard_test

import (
	"errors"
	"os"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arbiter/board"
	sb "arbiter/hardware/sensorboard"
	"arbiter/hardware/sensorboard/sim"
	"arbiter/hardware/serialport"
	"arbiter/hardware/serialport/serialtest"
	"arbiter/rules"
)

// A port that another program holds (its lock file, in one of the
// folders serialport looks in, names a live process) is left alone: the
// driver reports it once to the daemon, as an error event naming the port
// and the holder, probes nothing, and takes the port once the holder is
// gone.
func TestHeldPortIsLeftAloneAndReported(t *testing.T) {
	dir := t.TempDir()
	g := rules.NewRect(4, 4)
	_, p := newBoard(t, dir, "H1", g, board.CapHeight, sim.Faults{}, &sim.Virtual{}, rules.NewView(g))
	other := serialtest.Hold(t, p.Device(), os.TempDir())

	_, err := sb.Probe(t.Context(), p.Path(), 0, time.Second)
	require.ErrorIs(t, err, serialport.ErrHeld, "a probe leaves a held port alone")

	r := startDriver(t, dir, sb.Config{Backoff: 20 * time.Millisecond})
	waitFor(t, "the held port reported", func() bool { return r.col.count("", board.EventError) > 0 })
	time.Sleep(200 * time.Millisecond) // many backoffs more
	events, _ := r.col.snapshot("")
	require.Len(t, events, 1, "reported once")
	e := events[0]
	assert.Equal(t, board.EventError, e.Kind)
	assert.Equal(t, p.Path(), e.Port)
	var he *serialport.HeldError
	require.True(t, errors.As(e.Err, &he), "%v", e.Err)
	assert.Equal(t, other.Process.Pid, he.PID)
	assert.Equal(t, "sleep", he.Program)
	assert.Zero(t, r.col.count("H1", board.EventHello), "the port is left alone")

	require.NoError(t, other.Process.Kill())
	_ = other.Wait()
	waitFor(t, "the board once the holder is gone", func() bool { return r.col.count("H1", board.EventHello) > 0 })
}
