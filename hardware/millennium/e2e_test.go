package millennium_test

import (
	"context"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"path/filepath"
	"sync"
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
	"arbiter/internal/eboardtest"
	"arbiter/rules"
	"arbiter/rules/chess"
)

// rig is an emulated board on a pseudo-terminal read by a driver.
type rig struct {
	board *sim.Board
	line  *emu.Line
	drv   *eboard.Driver
	host  *eboardtest.Recorder
	stop  func()
}

func newRig(t *testing.T, bc sim.Config, sc millennium.Config) *rig {
	t.Helper()
	r := &rig{board: sim.NewBoard(bc), host: eboardtest.NewRecorder()}
	var err error
	r.line, err = emu.Attach(filepath.Join(t.TempDir(), "mil0"), r.board)
	require.NoError(t, err)
	epoch := time.Now()
	r.drv, err = millennium.New(millennium.DriverConfig{Session: sc, Config: eboard.Config{
		Paths: []string{r.line.Path()}, Scan: 20 * time.Millisecond, Now: func() time.Duration { return time.Since(epoch) },
		Handler: r.host.Handle, Raw: r.host.Raw, Logger: slog.New(slog.DiscardHandler)}})
	require.NoError(t, err)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		_ = r.drv.Run(ctx)
	}()
	var once sync.Once
	r.stop = func() { once.Do(func() { cancel(); <-done }) }
	t.Cleanup(func() {
		r.stop()
		r.line.Close()
	})
	return r
}

// A fresh board (no id in its memory, report mode 7 and a 100 ms scan
// left by another program) is named, set to report every scan at the
// configured scan time, and then read: its set-up whole, each move as
// square events; the LEDs show the last move and an alert's squares.
func TestDriverReadsAndLightsABoard(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		cfg  sim.Config
	}{
		{"exclusive", sim.Config{Model: sim.Exclusive, Seed: 1}},
		{"performance rotated, no write echoes", sim.Config{Model: sim.Performance, Rotated: true, Seed: 2, Faults: sim.Faults{NoWriteAck: true}}},
		{"eONE reading from h1, wrong parity", sim.Config{Model: sim.EONE, Reversed: true, Seed: 3, Faults: sim.Faults{WrongParity: true}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			// Report mode 7 and a 100 ms scan, as python-mchess leaves them.
			tc.cfg.Registers = map[byte]byte{millennium.RegAutoReport: 7, millennium.RegScanTime: 0x30}
			r := newRig(t, tc.cfg, millennium.Config{ScanTime: 15})
			var pos rules.Position = chess.Start()
			r.board.SetUp(pos.View())
			require.NoError(t, r.host.Wait(pos.View(), 5*time.Second))
			info := r.host.Hello()
			require.NotNil(t, info)
			reg := r.board.Registers()
			assert.Equal(t, fmt.Sprintf("MIL-%02X%02X%02X%02X", reg[0x10], reg[0x11], reg[0x12], reg[0x13]), info.ID, "the id kept in the board")
			assert.Equal(t, byte(15), reg[millennium.RegScanTime])
			assert.Equal(t, byte(0), reg[millennium.RegAutoReport])
			assert.Equal(t, millennium.Caps, info.Caps)
			assert.True(t, r.drv.Owns(info.ID))

			pl := &emu.Player{Board: r.board, Rng: rand.New(rand.NewPCG(1, 2)), Slide: 0.5}
			for _, san := range []string{"e4", "e5", "Nf3", "Nc6", "Bb5", "a6", "O-O"} {
				_, next, err := rules.PlayText(pos, san)
				require.NoError(t, err)
				pl.Move(pos.View(), next.View())
				require.NoError(t, r.host.Wait(next.View(), 5*time.Second), san)
				pos = next
			}
			// The last move on the LEDs, then an alert's squares over it,
			// then the last move again.
			g1, e1 := rules.Square(6), rules.Square(4)
			require.NoError(t, r.drv.Show(info.ID, &board.AckMove{Ply: 7, From: e1, To: g1, Text: "O-O"}))
			require.Eventually(t, func() bool { return r.board.Lit(e1) == 0xff && r.board.Lit(g1) == 0xff }, 2*time.Second, 5*time.Millisecond)
			assert.Zero(t, r.board.Lit(rules.Square(36)), "e5 dark")
			e5 := rules.Square(36)
			require.NoError(t, r.drv.Show(info.ID, &board.Lights{Mode: board.LightBlink, Color: board.ColorBad, Squares: []uint16{uint16(e5)}}))
			require.Eventually(t, func() bool { return r.board.Lit(e5) == 0xcc }, 2*time.Second, 5*time.Millisecond)
			assert.Zero(t, r.board.Lit(g1), "the alert alone")
			require.NoError(t, r.drv.Show(info.ID, &board.Lights{}))
			require.Eventually(t, func() bool { return r.board.Lit(g1) == 0xff && r.board.Lit(e5) == 0 }, 2*time.Second, 5*time.Millisecond)
			require.NoError(t, r.drv.Show(info.ID, &board.AckMove{From: rules.NoSquare, To: rules.NoSquare, Text: "start"}))
			require.Eventually(t, r.board.LEDsDark, 2*time.Second, 5*time.Millisecond)
		})
	}
}

// A game on an emulated board through the driver, with a person's noise,
// lost, duplicated and damaged reports, LEDs shown, and the board knocked
// off its cable and plugged in again: the raw log the driver wrote,
// replayed through the registered replayer (as arbiter replay reads it),
// recreates every event the driver delivered, instant for instant.
func TestRawLogReplaysTheLiveEvents(t *testing.T) {
	t.Parallel()
	sc := millennium.Config{ScanTime: 15, LinkTimeout: 500 * time.Millisecond}
	r := newRig(t, sim.Config{Rotated: true, Seed: 9, Faults: sim.Faults{Drop: 0.05, Duplicate: 0.05, Corrupt: 0.03}}, sc)
	var pos rules.Position = chess.Start()
	r.board.SetUp(pos.View())
	require.NoError(t, r.host.Wait(pos.View(), 5*time.Second))
	id := r.host.Hello().ID
	rng := rand.New(rand.NewPCG(9, 10))
	pl := &emu.Player{Board: r.board, Rng: rng, Slide: 0.4, PushOff: 0.3, LiftBack: 0.2}
	var history []rules.Position
	for ply := 0; ply < 20 && !pos.Outcome(history).Over(); ply++ {
		legal := pos.Legal()
		next, err := pos.Play(legal[rng.IntN(len(legal))])
		require.NoError(t, err)
		if ply == 10 {
			r.line.Unplug()
			time.Sleep(700 * time.Millisecond) // the link is lost
		}
		pl.Move(pos.View(), next.View())
		if ply == 10 {
			require.NoError(t, r.line.Replug())
		}
		require.NoError(t, r.host.Wait(next.View(), 5*time.Second), "ply %d", ply+1)
		require.NoError(t, r.drv.Show(id, &board.AckMove{Ply: uint16(ply + 1), From: rules.Square(12), To: rules.Square(28)}))
		history, pos = append(history, pos), next
	}
	r.stop()

	live, records := r.host.Taken()
	require.True(t, records[0].Sent && len(records[0].Data) == 0, "the log begins with the port opened")
	replayed, rep, err := eboardtest.Replay(millennium.Protocol, board.ReplayConfig{Port: r.line.Path(), Setting: sc.ReplaySetting()}, records)
	require.NoError(t, err)
	require.True(t, rep.Handshake(records[0]))
	kinds := map[board.EventKind]int{}
	for _, e := range live {
		kinds[e.Kind]++
	}
	t.Logf("%d records, %d events %v; board %+v", len(records), len(live), kinds, r.board.Counters())
	assert.Positive(t, kinds[board.EventHealth], "the link lost and back")
	assert.Equal(t, 2, kinds[board.EventHello], "two handshakes")
	require.Equal(t, len(live), len(replayed), "as many events")
	for i := range live {
		require.Equal(t, live[i], replayed[i], "event %d of %d", i, len(live))
	}
	require.NotNil(t, rep.Info())
	assert.Equal(t, id, rep.Info().ID)
}

// A probe finds a ChessLink board on a port by its version and the id it
// keeps, and tells an empty line (a device that says nothing) within its
// timeout.
func TestProbe(t *testing.T) {
	t.Parallel()
	b := sim.NewBoard(sim.Config{ID: [4]byte{0xca, 0xfe, 0x00, 0x01}})
	line, err := emu.Attach(filepath.Join(t.TempDir(), "mil0"), b)
	require.NoError(t, err)
	defer line.Close()
	info, err := millennium.Probe(context.Background(), line.Path(), 2*time.Second)
	require.NoError(t, err)
	assert.Equal(t, "MIL-CAFE0001", info.ID)
	assert.Equal(t, "ChessLink 01.03", info.Firmware)

	mute, err := emu.Attach(filepath.Join(t.TempDir(), "mute"), &silent{})
	require.NoError(t, err)
	defer mute.Close()
	_, err = millennium.Probe(context.Background(), mute.Path(), 300*time.Millisecond)
	require.ErrorContains(t, err, "no answer within 300ms")
	_, err = millennium.Probe(context.Background(), filepath.Join(t.TempDir(), "none"), time.Second)
	require.ErrorContains(t, err, "no such file")
}

// silent is a device that hears everything and says nothing.
type silent struct{}

func (*silent) HandleHost([]byte)         {}
func (*silent) SetOutput(func([]byte))    {}
func (*silent) Scan()                     {}
func (*silent) ScanPeriod() time.Duration { return time.Second }
func (*silent) Restart()                  {}

// A port the driver holds is this process's alone: opening it again (a
// second driver, another program) is refused, naming who holds it.
func TestPortHeldByTheDriver(t *testing.T) {
	t.Parallel()
	r := newRig(t, sim.Config{}, millennium.Config{})
	r.board.SetUp(chess.Start().View())
	require.NoError(t, r.host.Wait(chess.Start().View(), 5*time.Second))
	_, err := millennium.OpenSerial(r.line.Path())
	var held *serialport.HeldError
	require.ErrorAs(t, err, &held)
}
