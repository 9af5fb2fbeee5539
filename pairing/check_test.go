package pairing

import (
	"testing"

	"arbiter/pairing/trf"
	"github.com/stretchr/testify/assert"
)

func TestInferInitialColour(t *testing.T) {
	played := func(opp int, colour, result byte) trf.Game {
		return trf.Game{Opponent: opp, Colour: colour, Result: result}
	}
	absent := trf.Game{Colour: '-', Result: 'Z'}
	tests := []struct {
		name    string
		players []trf.Player
		want    byte
	}{
		{"no games", []trf.Player{{ID: 1}, {ID: 2}}, 0},
		{"no colours", []trf.Player{{ID: 1, Games: []trf.Game{absent}}, {ID: 2, Games: []trf.Game{absent}}}, 0},
		{"player 1 had White", []trf.Player{
			{ID: 2, Games: []trf.Game{played(1, 'b', '0')}},
			{ID: 1, Games: []trf.Game{played(2, 'w', '1')}},
		}, 'w'},
		{"player 1 had Black", []trf.Player{
			{ID: 1, Games: []trf.Game{played(2, 'b', '1')}},
			{ID: 2, Games: []trf.Game{played(1, 'w', '0')}},
		}, 'b'},
		{"the bye counts, the absent do not", []trf.Player{
			{ID: 1, Games: []trf.Game{absent}},
			{ID: 2, Games: []trf.Game{{Colour: '-', Result: 'U'}}},
			{ID: 3, Games: []trf.Game{played(4, 'b', '1')}},
			{ID: 4, Games: []trf.Game{played(3, 'w', '0')}},
		}, 'w'},
		{"colours from round 2", []trf.Player{
			{ID: 1, Games: []trf.Game{absent, played(2, 'w', '1')}},
			{ID: 2, Games: []trf.Game{absent, played(1, 'b', '0')}},
		}, 'w'},
		// Players 1 and 2 forfeited round 1 without colours and have no
		// entry for round 2: they took part, with no colour.
		{"no entry for the coloured round", []trf.Player{
			{ID: 1, Games: []trf.Game{played(2, '-', '+')}},
			{ID: 2, Games: []trf.Game{played(1, '-', '-')}},
			{ID: 3, Games: []trf.Game{absent, played(4, 'b', '1')}},
			{ID: 4, Games: []trf.Game{absent, played(3, 'w', '0')}},
		}, 'b'},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, string(rune(tt.want)), string(rune(InferInitialColour(&trf.Tournament{Players: tt.players}))))
		})
	}
}
