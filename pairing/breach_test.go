package pairing_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arbiter/pairing"
	"arbiter/pairing/trf"
)

// history is a tournament of six players whose rounds so far are given
// per player: a game against opponent o with colour c ('w', 'b' or '-')
// and result r, in TRF's codes.
func history(rounds int, games map[int][]trf.Game) *trf.Tournament {
	t := &trf.Tournament{Rounds: rounds, Scoring: trf.DefaultScoring, InitialColour: 'w'}
	for id := 1; id <= 6; id++ {
		t.Players = append(t.Players, trf.Player{ID: id, Games: games[id]})
	}
	return t
}

func g(o int, c, r byte) trf.Game { return trf.Game{Opponent: o, Colour: c, Result: r} }

func TestBreaches(t *testing.T) {
	// Round 1: 1-2 1-0, 3-4 draw, 5-6 forfeit (+/-).
	// Round 2: 2-1 0-1, 4-3 1-0, 5 has the PAB, 6 a full-point bye.
	// Round 3: 1-3, 4-2, 6-5 all 1-0.
	played := history(5, map[int][]trf.Game{
		1: {g(2, 'w', '1'), g(2, 'b', '1'), g(3, 'w', '1')},
		2: {g(1, 'b', '0'), g(1, 'w', '0'), g(4, 'b', '0')},
		3: {g(4, 'w', '='), g(4, 'b', '0'), g(1, 'b', '0')},
		4: {g(3, 'b', '='), g(3, 'w', '1'), g(2, 'w', '1')},
		5: {g(6, 'w', '+'), g(0, '-', 'U'), g(6, 'b', '0')},
		6: {g(5, 'b', '-'), g(0, '-', 'F'), g(5, 'w', '1')},
	})
	tests := []struct {
		name   string
		boards []pairing.Board
		bye    int
		opts   pairing.Options
		want   []pairing.Breach
	}{
		{"none", []pairing.Board{{White: 3, Black: 5}, {White: 2, Black: 6}}, 0, pairing.Options{}, nil},
		{"rematch in every round they met", []pairing.Board{{White: 2, Black: 1}}, 0, pairing.Options{}, []pairing.Breach{
			{Board: 1, Criterion: pairing.NoRematch, Round: 1},
			{Board: 1, Criterion: pairing.NoRematch, Round: 2},
		}},
		{"a forfeit is no meeting", []pairing.Board{{White: 3, Black: 2}, {White: 6, Black: 5}}, 0, pairing.Options{}, []pairing.Breach{
			{Board: 2, Criterion: pairing.NoRematch, Round: 3},
		}},
		// 1 had White, Black, White: a third White is a difference of +2,
		// allowed; 5 had one played game, with Black: a second is allowed.
		// 4 had Black, White, White: a third White in a row.
		// 3 had White, Black, Black: a third Black in a row.
		{"colours", []pairing.Board{{White: 1, Black: 5}, {White: 4, Black: 3}}, 0, pairing.Options{}, []pairing.Breach{
			{Board: 2, Criterion: pairing.NoRematch, Round: 1},
			{Board: 2, Criterion: pairing.NoRematch, Round: 2},
			{Board: 2, Criterion: pairing.AbsoluteColours, Player: 4, Colour: pairing.White, Difference: 2, Repeated: true},
			{Board: 2, Criterion: pairing.AbsoluteColours, Player: 3, Colour: pairing.Black, Difference: -2, Repeated: true},
		}},
		{"no colours when the first player is drawn by lot", []pairing.Board{{White: 4, Black: 3}}, 0, pairing.Options{Colours: pairing.FirstPlayerByLot}, []pairing.Breach{
			{Board: 1, Criterion: pairing.NoRematch, Round: 1},
			{Board: 1, Criterion: pairing.NoRematch, Round: 2},
		}},
		{"a second PAB", nil, 5, pairing.Options{}, []pairing.Breach{{Criterion: pairing.ByeEligible, Player: 5, Round: 1}}},
		{"a PAB after a full-point bye", nil, 6, pairing.Options{}, []pairing.Breach{{Criterion: pairing.ByeEligible, Player: 6, Round: 2}}},
		{"a PAB after a full-point bye, 2017", nil, 6, pairing.Options{Edition: pairing.Dutch2017}, nil},
		{"a PAB after a forfeit win, 2017", nil, 5, pairing.Options{Edition: pairing.Dutch2017}, []pairing.Breach{{Criterion: pairing.ByeEligible, Player: 5, Round: 1}}},
		{"a PAB after games only", nil, 2, pairing.Options{}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := pairing.Breaches(played, &pairing.Pairing{Round: 4, Boards: tt.boards, Bye: tt.bye}, tt.opts)
			require.NoError(t, err)
			assert.Equal(t, tt.want, got)
		})
	}
}

// A colour difference beyond 2 is named with the difference, and a third
// colour in a row after a difference of 2 is both.
func TestBreachesColourDifference(t *testing.T) {
	tr := history(5, map[int][]trf.Game{
		1: {g(2, 'w', '1'), g(3, 'w', '1'), g(4, 'b', '1'), g(5, 'w', '1')},
		2: {g(1, 'b', '0'), g(4, 'b', '0'), g(3, 'w', '0'), g(6, 'b', '0')},
		3: {g(4, 'w', '0'), g(1, 'b', '0'), g(2, 'b', '1'), g(6, 'w', '0')},
		4: {g(3, 'b', '1'), g(2, 'w', '1'), g(1, 'w', '0'), g(5, 'b', '0')},
		5: {g(6, 'w', '0'), g(6, 'b', '0'), g(0, '-', 'Z'), g(1, 'b', '0')},
		6: {g(5, 'b', '1'), g(5, 'w', '1'), g(0, '-', 'Z'), g(2, 'w', '1')},
	})
	got, err := pairing.Breaches(tr, &pairing.Pairing{Round: 5, Boards: []pairing.Board{{White: 1, Black: 2}, {White: 6, Black: 4}}}, pairing.Options{})
	require.NoError(t, err)
	assert.Equal(t, []pairing.Breach{
		{Board: 1, Criterion: pairing.NoRematch, Round: 1},
		{Board: 1, Criterion: pairing.AbsoluteColours, Player: 1, Colour: pairing.White, Difference: 3},
		{Board: 1, Criterion: pairing.AbsoluteColours, Player: 2, Colour: pairing.Black, Difference: -3},
		{Board: 2, Criterion: pairing.AbsoluteColours, Player: 6, Colour: pairing.White, Difference: 2, Repeated: true},
	}, got)
}

func TestBreachesRefusesAStranger(t *testing.T) {
	tr := history(3, nil)
	_, err := pairing.Breaches(tr, &pairing.Pairing{Round: 1, Boards: []pairing.Board{{White: 1, Black: 9}}}, pairing.Options{})
	assert.ErrorContains(t, err, "no player 9")
	_, err = pairing.Breaches(tr, &pairing.Pairing{Round: 1, Bye: 7}, pairing.Options{})
	assert.ErrorContains(t, err, "no player 7")
}
