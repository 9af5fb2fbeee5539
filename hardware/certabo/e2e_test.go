package certabo_test

import (
	"context"
	"log/slog"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arbiter/board"
	"arbiter/hardware/certabo"
	"arbiter/hardware/certabo/sim"
	"arbiter/hardware/eboard"
	"arbiter/hardware/eboard/emu"
	"arbiter/internal/eboardtest"
	"arbiter/rules"
	"arbiter/rules/chess"
)

// A Certabo board on a pseudo-terminal, read by the driver: a set never
// seen is calibrated from its start position (spare queens on d3 and d6),
// which the driver hands on to be kept; then a game is read, each move's
// squares on the LEDs, an alert's squares blinking over them. Its raw log,
// replayed through the registered replayer with the setting the driver
// began with, recreates every event the driver delivered.
func TestDriverReadsCalibratesAndLights(t *testing.T) {
	t.Parallel()
	b := sim.NewBoard(sim.Config{Period: 40 * time.Millisecond, Seed: 5, AckLEDs: true,
		Faults: sim.Faults{Junk: 0.05, Misread: 0.01, Drop: 0.02, Cut: 0.02}})
	line, err := emu.Attach(filepath.Join(t.TempDir(), "certabo0"), b)
	require.NoError(t, err)
	t.Cleanup(func() { line.Close() })
	h := eboardtest.NewRecorder()
	var mu sync.Mutex
	var settings [][]byte
	session := certabo.Config{LinkTimeout: 500 * time.Millisecond, Blink: 100 * time.Millisecond, Refresh: 300 * time.Millisecond}
	begun := session.ReplaySetting()
	epoch := time.Now()
	drv, err := certabo.New(certabo.DriverConfig{Session: session,
		Calibrated: func(s []byte) { mu.Lock(); settings = append(settings, s); mu.Unlock() },
		Config: eboard.Config{Paths: []string{line.Path()}, Scan: 20 * time.Millisecond, Now: func() time.Duration { return time.Since(epoch) },
			Handler: h.Handle, Raw: h.Raw, Logger: slog.New(slog.DiscardHandler)}})
	require.NoError(t, err)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		_ = drv.Run(ctx)
	}()
	stop := sync.OnceFunc(func() { cancel(); <-done })
	t.Cleanup(stop)

	id := certabo.IDPrefix + eboard.PortName(line.Path())
	require.Eventually(t, func() bool { return drv.Owns(id) }, 5*time.Second, 10*time.Millisecond)
	b.SetUpCalibration()
	require.Eventually(t, func() bool { mu.Lock(); defer mu.Unlock(); return len(settings) > 0 }, 5*time.Second, 10*time.Millisecond,
		"the calibration is handed on")
	mu.Lock()
	kept, err := certabo.ParseSetting(settings[0])
	mu.Unlock()
	require.NoError(t, err)
	assert.Equal(t, 34, kept.Calibration.Len(), "the set and its spare queens")

	var pos rules.Position = chess.Start()
	b.SetUp(pos.View())
	require.NoError(t, h.Wait(pos.View(), 5*time.Second))
	pl := &emu.Player{Board: b, Rng: rand.New(rand.NewPCG(5, 6)), Carry: true, Slide: 0.3, PushOff: 0.3}
	for _, san := range []string{"e4", "d5", "exd5", "Qxd5", "Nc3", "Qa5"} {
		_, next, err := rules.PlayText(pos, san)
		require.NoError(t, err)
		pl.Move(pos.View(), next.View())
		require.NoError(t, h.Wait(next.View(), 5*time.Second), san)
		pos = next
	}
	d8, a5, c3 := rules.Square(59), rules.Square(32), rules.Square(18)
	require.NoError(t, drv.Show(id, &board.AckMove{Ply: 6, From: d8, To: a5, Text: "Qa5"}))
	require.Eventually(t, func() bool { return b.Lit(d8) && b.Lit(a5) && !b.Lit(c3) }, 2*time.Second, 5*time.Millisecond, "the last move lit")
	require.NoError(t, drv.Show(id, &board.Lights{Mode: board.LightBlink, Color: board.ColorBad, Squares: []uint16{uint16(c3)}}))
	seen := map[bool]bool{}
	require.Eventually(t, func() bool { seen[b.Lit(c3)] = true; return seen[true] && seen[false] && !b.Lit(a5) },
		2*time.Second, 5*time.Millisecond, "c3 blinks, alone")
	require.NoError(t, drv.Show(id, &board.Lights{}))
	require.Eventually(t, func() bool { return b.Lit(a5) && !b.Lit(c3) }, 2*time.Second, 5*time.Millisecond, "the last move again")
	stop()

	events, records := h.Taken()
	require.True(t, records[0].Sent && len(records[0].Data) == 0, "the log begins with the port opened")
	replayed, _, err := eboardtest.Replay(certabo.Protocol, board.ReplayConfig{Port: line.Path(), Setting: begun}, records)
	require.NoError(t, err)
	t.Logf("%d records, %d events; board %+v", len(records), len(events), b.Counters())
	require.Equal(t, len(events), len(replayed), "as many events")
	for i := range events {
		require.Equal(t, events[i], replayed[i], "event %d of %d", i, len(events))
	}
}

// A probe finds a Certabo board on a port by the frames it streams.
func TestProbe(t *testing.T) {
	t.Parallel()
	b := sim.NewBoard(sim.Config{Period: 50 * time.Millisecond})
	line, err := emu.Attach(filepath.Join(t.TempDir(), "certabo0"), b)
	require.NoError(t, err)
	defer line.Close()
	info, err := certabo.Probe(context.Background(), line.Path(), 2*time.Second)
	require.NoError(t, err)
	assert.Equal(t, certabo.IDPrefix+"certabo0", info.ID)
	assert.Equal(t, certabo.Caps, info.Caps)
}

// The chips learnt are kept in the calibration file: a daemon started
// again reads the same set's pieces at once, without a calibration; a
// damaged file is refused with its name.
func TestCalibrationFile(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	file := filepath.Join(dir, "certabo.json")
	run := func(b *sim.Board, learn bool) {
		line, err := emu.Attach(filepath.Join(t.TempDir(), "certabo0"), b)
		require.NoError(t, err)
		defer line.Close()
		h := eboardtest.NewRecorder()
		learnt := make(chan struct{}, 8)
		epoch := time.Now()
		drv, err := certabo.New(certabo.DriverConfig{CalibrationFile: file, Calibrated: func([]byte) { learnt <- struct{}{} },
			Config: eboard.Config{Paths: []string{line.Path()}, Scan: 20 * time.Millisecond, Now: func() time.Duration { return time.Since(epoch) },
				Handler: h.Handle, Logger: slog.New(slog.DiscardHandler)}})
		require.NoError(t, err)
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan struct{})
		go func() { defer close(done); _ = drv.Run(ctx) }()
		defer func() { cancel(); <-done }()
		if learn {
			b.SetUpCalibration()
			select {
			case <-learnt:
			case <-time.After(5 * time.Second):
				t.Fatal("not calibrated")
			}
		}
		start := chess.Start().View()
		b.SetUp(start)
		require.NoError(t, h.Wait(start, 5*time.Second), "the pieces known (learn %t)", learn)
		if !learn {
			assert.Empty(t, learnt, "nothing new to learn")
		}
	}
	run(sim.NewBoard(sim.Config{Period: 40 * time.Millisecond, Chip: 7}), true)
	kept, err := certabo.LoadCalibration(file)
	require.NoError(t, err)
	assert.Equal(t, 34, kept.Len())
	run(sim.NewBoard(sim.Config{Period: 40 * time.Millisecond, Chip: 7, Seed: 2}), false)

	require.NoError(t, os.WriteFile(file, []byte(`{"0300515181": "X"}`), 0o600))
	_, err = certabo.New(certabo.DriverConfig{CalibrationFile: file, Config: eboard.Config{Now: func() time.Duration { return 0 }}})
	require.ErrorContains(t, err, file)
	require.ErrorContains(t, err, `"X" is no chess piece`)
}
