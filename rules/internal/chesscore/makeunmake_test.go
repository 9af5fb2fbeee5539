package chesscore_test

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"

	"arbiter/rules"
	"arbiter/rules/chess"
	"arbiter/rules/internal/chesscore"
	"arbiter/rules/tensor"
)

// Make followed by Unmake restores the board exactly, for every legal
// move along random games of both games.
func TestMakeUnmakeRestores(t *testing.T) {
	tg, err := tensor.New(nil)
	require.NoError(t, err)
	for _, start := range []rules.Position{chess.Start(), tg.StartPosition()} {
		rng := rand.New(rand.NewPCG(3, 5))
		for range 8 {
			p := start.(*chesscore.Position)
			for ply := 0; ply < 80; ply++ {
				b := p.Board()
				moves := b.Legal(nil)
				if len(moves) == 0 {
					break
				}
				for _, m := range moves {
					before := b
					u := b.Make(m)
					b.Unmake(m, u)
					require.Equal(t, before, b, "move %+v in %s", m, p)
				}
				next, err := p.PlayMove(moves[rng.IntN(len(moves))])
				require.NoError(t, err)
				p = next
			}
		}
	}
}
