package driver

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arbiter/board"
	"arbiter/hardware/dgt"
	"arbiter/rules"
)

// eeLog returns an EEPROM log: a start position (rotated or not), then
// e2-e4 and its press, e7-e5 and its press, by DGT field, as the board
// lies.
func eeLog(rotated bool) *dgt.Log {
	f := func(sq rules.Square) byte {
		o := dgt.Normal
		if rotated {
			o = dgt.Rotated
		}
		return byte(o.Field(sq))
	}
	begin := dgt.EEBeginPos
	if rotated {
		begin = dgt.EEBeginPosRot
	}
	var b []byte
	b = append(b, dgt.EEPowerUp, begin)
	for _, t := range []dgt.LogTag{
		{Kind: dgt.TagField, Field: f(12), Piece: dgt.Empty},
		{Kind: dgt.TagField, Field: f(28), Piece: dgt.WPawn},
		{Kind: dgt.TagTime, Left: true, Time: 14*time.Minute + 58*time.Second},
		{Kind: dgt.TagField, Field: f(52), Piece: dgt.Empty},
		{Kind: dgt.TagField, Field: f(36), Piece: dgt.BPawn},
		{Kind: dgt.TagTime, Left: false, Time: 14*time.Minute + 57*time.Second},
	} {
		b = dgt.AppendLogTag(b, t)
	}
	return dgt.ParseLog(append(b, dgt.EEEOF))
}

// The board's EEPROM log becomes the board at each press, by chess
// square whatever way the board lies, each press by the side whose
// display it halted; then the board as it stands now follows.
func TestHistoryTranslation(t *testing.T) {
	for _, tc := range []struct {
		name       string
		rotated    bool
		whiteRight bool
		sides      []board.Side
	}{
		{"White at the clock's left", false, false, []board.Side{board.SideFirst, board.SideSecond}},
		{"a rotated board", true, false, []board.Side{board.SideFirst, board.SideSecond}},
		{"White at the clock's right", false, true, []board.Side{board.SideSecond, board.SideFirst}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d, err := New(Config{Now: func() time.Duration { return time.Second }, Session: dgt.Config{WhiteRight: tc.whiteRight}})
			require.NoError(t, err)
			l := d.newLink("/dev/ttyACM0")
			l.take(dgt.Event{Kind: dgt.EventIdentified, Serial: "7"})
			l.take(dgt.Event{Kind: dgt.EventBoard, Pieces: make([]rules.Piece, 64)})
			l.queue = nil
			l.take(dgt.Event{Kind: dgt.EventLog, Log: eeLog(tc.rotated), At: 5 * time.Second})
			require.Len(t, l.queue, 2)
			h := l.queue[0]
			require.Equal(t, board.EventHistory, h.Kind)
			require.NoError(t, h.Err)
			require.Len(t, h.History, 2)
			e4, e5 := h.History[0].Snapshot.Squares, h.History[1].Snapshot.Squares
			assert.Zero(t, e4[12], "e2 empty after e4")
			assert.Equal(t, rules.White, e4[28].Top.Piece.Color, "a white piece on e4")
			assert.Equal(t, 1, int(e4[28].Height))
			assert.Equal(t, rules.Black, e4[52].Top.Piece.Color, "e7 still holds its pawn at the first press")
			assert.Zero(t, e5[52], "e7 empty after e5")
			assert.Equal(t, rules.Black, e5[36].Top.Piece.Color, "a black piece on e5")
			assert.Equal(t, tc.sides, []board.Side{h.History[0].Side, h.History[1].Side})
			assert.Equal(t, 14*time.Minute+58*time.Second, h.History[0].Clock)
			assert.Equal(t, board.EventSnapshot, l.queue[1].Kind, "the board as it stands now")
		})
	}
}

// A log cut short is reported as such, and no board follows.
func TestHistoryCutShort(t *testing.T) {
	d, err := New(Config{Now: func() time.Duration { return time.Second }})
	require.NoError(t, err)
	l := d.newLink("/dev/ttyACM0")
	l.take(dgt.Event{Kind: dgt.EventIdentified, Serial: "7"})
	l.queue = nil
	l.take(dgt.Event{Kind: dgt.EventLog, Log: dgt.ParseLog([]byte{dgt.EEPowerUp, dgt.EEBeginPos})})
	require.Len(t, l.queue, 1)
	assert.Equal(t, board.EventHistory, l.queue[0].Kind)
	assert.ErrorContains(t, l.queue[0].Err, "cut short")
	assert.ErrorContains(t, d.Recall("DGT-8"), "not connected")
}
