package driver

import (
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arbiter/board"
	"arbiter/hardware/dgt"
	"arbiter/hardware/dgt/sim"
	"arbiter/rules/chess"
)

// What a DGT 3000 shows for each alert: words for its eight characters,
// never a sentence cut off (issue 32 N3).
func TestClockText(t *testing.T) {
	for _, tc := range []struct {
		alert board.Alert
		want  dgt.Text
	}{
		{board.Alert{Level: board.AlertError, Beep: true, Kind: "illegal-move", Text: "illegal move by White (number 1): the board shows no legal move"},
			dgt.Text{Frames: []string{"illegal", "move"}, Beep: 4}},
		{board.Alert{Level: board.AlertError, Beep: true, Kind: "recovery", Text: "restore the position before the illegal move"},
			dgt.Text{Frames: []string{"restore", "position"}, Beep: 4}},
		{board.Alert{Level: board.AlertWarning, Kind: "clocks-held", Text: "the daemon restarted: the clocks are held until the arbiter resumes them"},
			dgt.Text{Frames: []string{"paused", "arbiter"}, Brief: true}},
		{board.Alert{Level: board.AlertWarning, Kind: "irregularity", Text: "White pressed the clock without moving"},
			dgt.Text{Frames: []string{"irregul", "arbiter"}, Brief: true}},
		{board.Alert{Level: board.AlertInfo, Kind: "result", Text: "1-0 checkmate"}, dgt.Text{Frames: []string{"1-0 mate"}}},
		{board.Alert{Level: board.AlertInfo, Kind: "result", Text: "0-1 time"}, dgt.Text{Frames: []string{"0-1 time"}}},
		{board.Alert{Level: board.AlertInfo, Kind: "result", Text: "0-1 resignation"}, dgt.Text{Frames: []string{"0-1", "resign"}}},
		{board.Alert{Level: board.AlertInfo, Kind: "result", Text: "1/2-1/2 stalemate"}, dgt.Text{Frames: []string{"1/2-1/2", "stalemat"}}},
		{board.Alert{Level: board.AlertInfo, Kind: "result", Text: "1/2-1/2 agreement"}, dgt.Text{Frames: []string{"1/2-1/2", "agreed"}}},
		{board.Alert{Level: board.AlertInfo, Kind: "offer", Text: "White offers draw"}, dgt.Text{Frames: []string{"draw", "offered"}}},
		// Any other text scrolls, word by word, a long word over frames.
		{board.Alert{Level: board.AlertWarning, Text: "the board stopped answering, unexpectedly"},
			dgt.Text{Frames: []string{"the", "board", "stopped", "answerin", "g,", "unexpect", "edly"}, Brief: true}},
		{board.Alert{Level: board.AlertError, Text: "set up e2 e4"}, dgt.Text{Frames: []string{"set up", "e2 e4"}}},
	} {
		t.Run(tc.alert.Kind+" "+tc.alert.Text, func(t *testing.T) {
			got := clockText(&tc.alert)
			assert.Equal(t, tc.want, got)
			for _, f := range got.Frames {
				assert.LessOrEqual(t, len(f), dgt.TextWidth, "%q", f)
			}
		})
	}
	for kind, w := range clockWords {
		for _, f := range w.frames {
			assert.LessOrEqual(t, len(f), dgt.TextWidth, "%s: %q", kind, f)
		}
	}
	for reason, w := range reasonWords {
		assert.LessOrEqual(t, len(w), dgt.TextWidth, "%s: %q", reason, w)
	}
}

// On the emulator, through the driver: an illegal move's alert and the
// recovery that follows scroll their words on the DGT 3000 until the
// board is put right; the clocks held after a restart are said briefly,
// and then the display shows the held times; a result stays.
func TestClockTextsOnEmulator(t *testing.T) {
	t.Parallel() // on its own pseudo-terminal; it mostly waits
	emu := sim.NewBoard(sim.Config{Serial: "30030", Seed: 30})
	emu.ConnectClock(5*time.Minute, 5*time.Minute)
	emu.SetUp(chess.Start().View())
	e := runEmulated(t, emu, "30030", Config{Session: dgt.Config{Settle: 25 * time.Millisecond, AckTimeout: time.Second, TextStep: 50 * time.Millisecond}})
	d, id := e.d, e.id
	shows := func(want ...string) {
		t.Helper()
		require.Eventually(t, func() bool {
			got := emu.Texts()
			return len(got) >= len(want) && strings.Join(got[len(got)-len(want):], "|") == strings.Join(want, "|")
		}, 10*time.Second, 10*time.Millisecond, "the clock showed %q", emu.Texts())
	}

	require.NoError(t, d.Show(id, &board.Alert{Level: board.AlertError, Beep: true, Kind: "illegal-move", Text: "illegal move by White (number 1): the board shows no legal move"}))
	require.NoError(t, d.Show(id, &board.Alert{Level: board.AlertError, Beep: true, Kind: "recovery", Text: "restore the position before the illegal move"}))
	shows("restore ", "position", "restore ", "position", "restore ", "position", "restore ")
	require.NoError(t, d.Show(id, &board.Alert{Level: board.AlertClear}))
	shows("")

	require.NoError(t, d.Show(id, &board.Clock{First: 283_000, Second: 251_000, Running: board.SideNone}))
	require.NoError(t, d.Show(id, &board.Alert{Level: board.AlertWarning, Kind: "clocks-held",
		Text: "the daemon restarted: the clocks are held until the arbiter resumes them (the board's clock showed White 4:13, Black 4:11)"}))
	shows("paused  ", "arbiter ", "")
	c := emu.Clock()
	assert.Equal(t, [2]time.Duration{283 * time.Second, 251 * time.Second}, [2]time.Duration{c.Left, c.Right}, "the display shows the times the daemon holds")
	assert.False(t, c.Running)

	require.NoError(t, d.Show(id, &board.Alert{Level: board.AlertInfo, Kind: "result", Text: "1-0 checkmate"}))
	shows("1-0 mate")
	for _, s := range emu.Texts() {
		assert.NotContains(t, []string{"the boar", "the daem", "1-0 chec"}, s, "no sentence cut off")
	}
}
