package arbiter

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arbiter/rules"
	_ "arbiter/rules/chess"
	_ "arbiter/rules/tensor"
)

// Guards that no sequence of board events reaches in the shipped games
// (issue 18 §5), tested on the state they guard.

func game(t *testing.T, name, fen string) (rules.Game, rules.Position) {
	t.Helper()
	g, err := rules.New(name, nil)
	require.NoError(t, err)
	p, err := g.ParsePosition(fen)
	require.NoError(t, err)
	return g, p
}

func square(t *testing.T, g rules.Game, name string) rules.Square {
	t.Helper()
	sq, ok := g.Geometry().Lookup(name)
	require.True(t, ok, name)
	return sq
}

// TestHandStandTieBreak: candidates the squares cannot tell apart are told
// apart by the hand stands when the stands agree with one of them, and
// are all kept when the stands agree with none. The stands are stood in
// for by two squares marked as hand cells, so that a rook's two moves
// differ only there.
func TestHandStandTieBreak(t *testing.T) {
	g, p := game(t, "chess", "4k3/8/8/8/8/8/8/R3K3 w - - 0 1")
	a1, a3, a4 := square(t, g, "a1"), square(t, g, "a3"), square(t, g, "a4")
	hand := make([]bool, g.Geometry().Len())
	hand[a3], hand[a4] = true, true
	tests := []struct {
		name  string
		on    []rules.Square // where the board shows a piece among a3, a4
		moves []string
	}{
		{name: "the stands show a4", on: []rules.Square{a4}, moves: []string{"a1a4"}},
		{name: "the stands show a3", on: []rules.Square{a3}, moves: []string{"a1a3"}},
		{name: "the stands agree with neither", on: []rules.Square{a3, a4}, moves: []string{"a1a3", "a1a4"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tr := newTurn(p, Caps{}, hand)
			cells := append([]cell(nil), tr.baseCells...)
			cells[a1] = cell{}
			for _, sq := range tt.on {
				cells[sq] = cell{height: 1}
			}
			idx, err := tr.match(cells, map[rules.Square]bool{a1: true, a3: true, a4: true}, false)
			require.NoError(t, err)
			var got []string
			for _, i := range idx {
				got = append(got, tr.cands[i].move.String())
			}
			assert.ElementsMatch(t, tt.moves, got)
		})
	}
}

// TestSwapLiftedGuard: a pressed move's squares lifted and put back are
// evidence of a change of that move (shogi.md 3.4.4), unless every square
// of a move of the side to move that changes nothing a board senses (a
// Tensor swap) was lifted: then the lifts may be that move, still to be
// pressed, and no foul is suspected.
func TestSwapLiftedGuard(t *testing.T) {
	g, p := game(t, "tensor", "k9/10/6t3/10/5n4/10/10/K9 b - - 0 1")
	f4, g6 := square(t, g, "f4"), square(t, g, "g6")
	tests := []struct {
		name   string
		lifted []rules.Square
		alerts int
	}{
		{name: "the swap's squares lifted", lifted: []rules.Square{f4, g6}, alerts: 0},
		{name: "one of them lifted", lifted: []rules.Square{g6}, alerts: 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg := DefaultConfig(g)
			cfg.TouchMove = Off
			s, err := NewSession(cfg, g, p, nil)
			require.NoError(t, err)
			s.last = &lastMove{side: rules.First, squares: []rules.Square{f4, g6}, touched: true}
			for _, sq := range tt.lifted {
				s.lifted[sq] = true
			}
			out := s.afterChange(nil, 0)
			n := 0
			for _, o := range out {
				if a, ok := o.(Alert); ok && a.Kind == FoulSuspectedAlert {
					n++
				}
			}
			assert.Equal(t, tt.alerts, n)
		})
	}
}
