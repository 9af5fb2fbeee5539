package sensorboard

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arbiter/board"
	"arbiter/rules"
)

// Every display message of the boundary goes out as its wire message,
// field for field: what the director shows is what the board reads.
func TestWireMessageCarriesEveryDisplayMessage(t *testing.T) {
	for _, tc := range []struct {
		in   board.Message
		want Type
	}{
		{&board.Clock{First: 5_400_000, Second: 60_000, Running: board.SideSecond, Flags: board.ClockPaused}, TypeClock},
		{&board.Lights{Mode: board.LightBlink, Color: board.ColorBad, Squares: []uint16{12, 28}}, TypeLight},
		{&board.Alert{Level: board.AlertWarning, Beep: true, Text: "touch move"}, TypeAlert},
		{&board.AckMove{Ply: 3, From: 12, To: 28, Text: "e4"}, TypeAckMove},
		{&board.Question{Side: board.SideFirst, Kind: board.QuestionPromote, Text: "promote?",
			Choices: []board.Choice{{From: 52, To: 60, Text: "yes"}, {From: 52, To: rules.NoSquare, Text: "no"}}}, TypeQuestion},
	} {
		w := WireMessage(tc.in)
		require.NotNil(t, w, "%T", tc.in)
		require.Equal(t, tc.want, w.Type(), "%T", tc.in)
		back := NewMessage(w.Type())
		require.NoError(t, back.UnmarshalPayload(w.AppendPayload(nil)), "%T", tc.in)
		assert.Equal(t, w, back, "%T", tc.in)
	}
}
