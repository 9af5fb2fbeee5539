package kvaa

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arbiter/rules"
)

func TestParseKPS(t *testing.T) {
	s, err := ParseKPS(StartKPS)
	require.NoError(t, err)
	assert.Equal(t, []Cell{C1, E1, B2, D2}, cellsOf(s.Occ[South]))
	assert.Equal(t, []Cell{B4, D4, A5, C5}, cellsOf(s.Occ[North]))
	assert.Equal(t, [2]int8{6, 6}, s.Reserve)
	assert.Equal(t, South, s.Turn)
	assert.Equal(t, int32(1), s.Number)
	assert.Equal(t, StartKPS, s.String())

	s, err = ParseKPS(".../../.../../S.N N 0 3 a1-b2 e1-d2 2 40")
	require.NoError(t, err)
	assert.Equal(t, Step{A1, B2}, s.Forbidden[South])
	assert.Equal(t, Step{E1, D2}, s.Forbidden[North])
	assert.Equal(t, North, s.Turn)
	assert.Equal(t, int8(3), s.Reserve[North])
	assert.Equal(t, int32(2), s.Quiet)
	assert.Equal(t, 9, s.Captured(South))
	assert.Equal(t, 6, s.Captured(North))
}

func TestParseKPSErrors(t *testing.T) {
	tests := []struct{ kps, want string }{
		{"", "1 fields, want 8"},
		{"NN./NN/.../SS/.SS S 6 6 - - 0", "7 fields"},
		{"NN./NN/.../SS/.SS  S 6 6 - - 0 1", "9 fields"},
		{"NN./NN/.../SS S 6 6 - - 0 1", "field 1 (board): 4 ranks"},
		{"NN/NN/.../SS/.SS S 6 6 - - 0 1", "rank 5 \"NN\" has 2 cells"},
		{"NN./NN/.X./SS/.SS S 6 6 - - 0 1", "cell c3 is 'X'"},
		{"NNN/NN/.../SS/.SS S 6 6 - - 0 1", "N has 5 counters"},
		{"NN./NN/.../SS/.SS W 6 6 - - 0 1", "field 2 (side to move)"},
		{"NN./NN/.../SS/.SS S 7 6 - - 0 1", "field 3 (South's reserve)"},
		{"NN./NN/.../SS/.SS S 6 66 - - 0 1", "field 4 (North's reserve)"},
		{"NN./NN/.../SS/.SS S 6 6 b2-c4 - 0 1", "field 5 (South's forbidden step): \"c4\" is not a Kvaa cell"},
		{"NN./NN/.../SS/.SS S 6 6 b2-e5 - 0 1", "not neighbours"},
		{"NN./NN/.../SS/.SS S 6 6 c3-b2 - 0 1", "c3 holds no S counter"},
		{"NN./NN/.../SS/.SS S 6 6 - b4 0 1", "field 6 (North's forbidden step)"},
		{"NN./NN/.../SS/.SS S 6 6 - - -1 1", "field 7 (quiet plies)"},
		{"NN./NN/.../SS/.SS S 6 6 - - 0 0", "field 8 (turn number)"},
		{"NN./NN/.../SS/.SS S 6 6 - - 0 01", "field 8 (turn number)"},
	}
	for _, tc := range tests {
		_, err := ParseKPS(tc.kps)
		assert.ErrorContains(t, err, tc.want, tc.kps)
	}
}

func TestGameParseState(t *testing.T) {
	g := newGame(t, "scheme=R2")
	_, err := g.ParseState("N../../.../../S.. S 0 0 a1-c1 - 0 1")
	assert.ErrorContains(t, err, "not a step of scheme R2")
	g = newGame(t, "scheme=R7")
	_, err = g.ParseState("N../../.../../S.. S 0 0 a1-c1 - 0 1")
	assert.NoError(t, err)
	g = newGame(t, "mirror_rule=off")
	_, err = g.ParseState("N../../.../../S.. S 0 0 a1-b2 - 0 1")
	assert.ErrorContains(t, err, "mirror_rule=off")
}

func FuzzParseKPS(f *testing.F) {
	for _, s := range []string{
		StartKPS, kpsT2, kpsT8, kpsT9, kpsT14,
		".../../.../../S.N S 0 0 a1-b2 e1-d2 2 40",
		"N../../.S./N./... S 0 0 c3-b2 - 1 31",
		"NN./NN/.../SS/.SS S 6 6 - - 0",
		"NNNN/../.../../... S 0 0 - - 0 1",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		s, err := ParseKPS(in)
		if err != nil {
			return
		}
		out := s.String()
		back, err := ParseKPS(out)
		require.NoError(t, err, "reparse %q", out)
		require.Equal(t, s, back)
		require.Equal(t, out, back.String())
		require.LessOrEqual(t, s.OnBoard(South), MaxOnBoard)
		require.GreaterOrEqual(t, s.Captured(North), 0)
		require.Equal(t, s, stateFromKey(s.key()).withCounters(s.Quiet, s.Number))
	})
}

// withCounters returns s with the given quiet plies and turn number.
func (s State) withCounters(q, n int32) State {
	s.Quiet, s.Number = q, n
	return s
}

func TestParseTurn(t *testing.T) {
	tests := []struct {
		in          string
		from, to    Cell
		over, place Cell
		first       bool
	}{
		{"b2-c3", B2, C3, NoCell, NoCell, false},
		{"d4xb2", D4, B2, C3, NoCell, false},
		{"@c3", NoCell, NoCell, NoCell, C3, false},
		{"c1xa3,@b2", C1, A3, B2, B2, false},
		{"@d4,c1xa3", C1, A3, B2, D4, true},
		{"a1xe1", A1, E1, C1, NoCell, false},
		{"c1xc5", C1, C5, C3, NoCell, false},
		{"a1-c1,@a1", A1, C1, NoCell, A1, false},
	}
	for _, tc := range tests {
		got, err := ParseTurn(tc.in)
		require.NoError(t, err, tc.in)
		assert.Equal(t, Turn{tc.from, tc.to, tc.over, tc.place, tc.first}, got, tc.in)
		assert.Equal(t, tc.in, got.String())
		if tc.from == NoCell {
			assert.Equal(t, -1, int(got.From()))
			assert.Equal(t, int(tc.place), int(got.To()))
		} else {
			assert.Equal(t, int(tc.from), int(got.From()))
			assert.Equal(t, int(tc.to), int(got.To()))
		}
	}
	bad := []struct{ in, want string }{
		{"", "action 1 is empty"},
		{"b2-c3,@a1,@e1", "3 actions"},
		{"@a1,@e1", "two placements"},
		{"b2-c3,d2-e3", "two moves"},
		{"b2-b3", "\"b3\" is not a Kvaa cell"},
		{"a1-e5", "not neighbours"},
		{"a1xc1", "no capture line from a1 to c1"},
		{"a1xe5", "no capture line"},
		{"b2c3", "is not a step"},
		{"@", "is not a Kvaa cell"},
		{"b2-c3,", "action 2 is empty"},
	}
	for _, tc := range bad {
		_, err := ParseTurn(tc.in)
		assert.ErrorContains(t, err, tc.want, tc.in)
	}
}

func FuzzParseTurn(f *testing.F) {
	for _, s := range []string{"b2-c3", "d4xb2", "@c3", "c1xa3,@b2", "@d4,c1xa3", "a1xe1", "@a1,@c1", "x", ","} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		tr, err := ParseTurn(in)
		if err != nil {
			return
		}
		out := tr.String()
		back, err := ParseTurn(out)
		require.NoError(t, err, "reparse %q", out)
		require.Equal(t, tr, back)
		if strings.Count(in, ",") == 0 {
			require.Equal(t, in, out)
		}
	})
}

// A turn's legs are its counters' paths in the turn's order, as a board
// reader pairs its events into them (kvaa.md 7.3).
func TestTurnLegs(t *testing.T) {
	sq := func(c Cell) rules.Square { return rules.Square(c) }
	none := rules.NoSquare
	tests := []struct {
		turn string
		want []rules.Leg
	}{
		{"b2-c3", []rules.Leg{{From: sq(B2), To: sq(C3)}}},
		{"d4xb2", []rules.Leg{{From: sq(D4), To: sq(B2)}, {From: sq(C3), To: none}}},
		{"@c3", []rules.Leg{{From: none, To: sq(C3)}}},
		{"@e3,d2-c3", []rules.Leg{{From: none, To: sq(E3)}, {From: sq(D2), To: sq(C3)}}},
		{"@d4,c1xa3", []rules.Leg{{From: none, To: sq(D4)}, {From: sq(C1), To: sq(A3)}, {From: sq(B2), To: none}}},
		{"c1xa3,@b2", []rules.Leg{{From: sq(C1), To: sq(A3)}, {From: sq(B2), To: none}, {From: none, To: sq(B2)}}},
	}
	for _, tc := range tests {
		tr, err := ParseTurn(tc.turn)
		require.NoError(t, err)
		assert.Equal(t, tc.want, tr.Legs(), tc.turn)
	}
}
