package driver

import (
	"context"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arbiter/board"
	"arbiter/hardware/dgt"
	"arbiter/hardware/dgt/sim"
	"arbiter/rules"
	"arbiter/rules/chess"
)

// warnings keeps the driver's warnings.
type warnings struct {
	mu  sync.Mutex
	got []string
}

func (w *warnings) Enabled(context.Context, slog.Level) bool { return true }
func (w *warnings) Handle(_ context.Context, r slog.Record) error {
	if r.Level >= slog.LevelWarn {
		var b strings.Builder
		b.WriteString(r.Message)
		r.Attrs(func(a slog.Attr) bool { fmt.Fprintf(&b, " %s=%v", a.Key, a.Value); return true })
		w.mu.Lock()
		w.got = append(w.got, b.String())
		w.mu.Unlock()
	}
	return nil
}
func (w *warnings) WithAttrs([]slog.Attr) slog.Handler { return w }
func (w *warnings) WithGroup(string) slog.Handler      { return w }

func (w *warnings) list() []string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return append([]string(nil), w.got...)
}

// A daemon that comes back to a game in mid-play holds its clocks and
// reads the board's EEPROM log, full after a while of use: 8 KB, which
// takes seconds at the board's speed (here 38400 baud: 2 s; 9 s at DGT's
// 9600), while the board hears nothing else (issue 32 N5, N3). The
// command that stops the clock at the times the daemon holds waits behind
// the log, whether it was asked before or after it, instead of timing out
// unheard: once the log is in, the clock shows what the daemon holds.
func TestClockCommandsWaitBehindTheLog(t *testing.T) {
	for _, clockFirst := range []bool{false, true} {
		t.Run(fmt.Sprintf("clock first %t", clockFirst), func(t *testing.T) {
			t.Parallel() // each on its own pseudo-terminal; they mostly wait
			emu := sim.NewBoard(sim.Config{Serial: "30020", Seed: 20, Baud: 38400})
			emu.ConnectClock(5*time.Minute, 5*time.Minute)
			var pos rules.Position = chess.Start()
			emu.SetUp(pos.View())
			emu.Press(true) // White pressed: Black's clock runs on the board
			emu.FillLog()
			warn := &warnings{}
			e := runEmulated(t, emu, "30020", Config{Logger: slog.New(warn),
				Session: dgt.Config{Settle: 25 * time.Millisecond, AckTimeout: 200 * time.Millisecond, ClockTries: 3}})
			d, rec, id := e.d, e.rec, e.id
			require.Eventually(t, func() bool { return len(kinds(rec, board.EventSnapshot)) > 0 }, 10*time.Second, 10*time.Millisecond)

			held := &board.Clock{First: 280_000, Second: 270_000, Running: board.SideNone}
			if clockFirst {
				require.NoError(t, d.Show(id, held))
				require.NoError(t, d.Recall(id))
			} else {
				require.NoError(t, d.Recall(id))
				require.NoError(t, d.Show(id, held))
			}
			require.NoError(t, d.Show(id, &board.Alert{Level: board.AlertWarning, Text: "hold"}))
			require.Eventually(t, func() bool { return len(kinds(rec, board.EventHistory)) == 1 }, 20*time.Second, 10*time.Millisecond, "the log is read")
			h := kinds(rec, board.EventHistory)[0]
			require.NoError(t, h.Err)
			require.Eventually(t, func() bool {
				c := emu.Clock()
				return !c.Running && c.Left == 280*time.Second && c.Right == 270*time.Second
			}, 10*time.Second, 10*time.Millisecond, "the clock shows what the daemon holds: %+v", emu.Clock())
			require.Eventually(t, func() bool { return strings.TrimSpace(emu.Text()) == "hold" }, 10*time.Second, 10*time.Millisecond, "the text follows")
			for _, w := range warn.list() {
				assert.NotContains(t, w, "not acknowledged", "no clock command given up")
			}
		})
	}
}

func kinds(rec *live, k board.EventKind) []board.Event {
	rec.mu.Lock()
	defer rec.mu.Unlock()
	var out []board.Event
	for _, e := range rec.events {
		if e.Kind == k {
			out = append(out, e)
		}
	}
	return out
}
