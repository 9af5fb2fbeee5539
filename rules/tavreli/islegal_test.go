package tavreli

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"

	"arbiter/rules"
)

// IsLegal judges one move at a time; it must agree with GenerateLegal on
// every move any position of a random game could offer, legal or not.
func TestIsLegalAgreesWithGeneration(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	checked := 0
	for game := range 20 {
		b := ptr(StartBoard())
		for ply := 0; ply < 120; ply++ {
			legal := b.GenerateLegal(nil)
			if len(legal) == 0 {
				break
			}
			isLegal := map[Move]bool{}
			for _, m := range legal {
				isLegal[m] = true
			}
			// Every move the movement rules allow from any square of
			// either side, and every castling and en passant shape.
			var cands []Move
			for sq := int8(0); sq < 64; sq++ {
				if b.height[sq] == 0 {
					continue
				}
				for _, c := range []rules.Color{rules.First, rules.Second} {
					cands = b.pseudoFrom(sq, c, cands)
				}
			}
			for _, m := range cands {
				require.Equal(t, isLegal[m], b.IsLegal(m), "game %d ply %d move %v", game, ply, m)
				checked++
			}
			for _, m := range legal {
				require.True(t, b.IsLegal(m), "game %d ply %d legal move %v", game, ply, m)
			}
			b.Make(legal[rng.IntN(len(legal))])
		}
	}
	require.Greater(t, checked, 10000)
}
