package tavreli

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"

	"arbiter/rules"
)

// IsLegal judges one move at a time; it must agree with GenerateLegal on
// every move any position could offer, legal or not: positions of random
// games from the start and from the spec's test positions (randomPositions),
// where castling, en passant and promotion shapes come up.
func TestIsLegalAgreesWithGeneration(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	checked := 0
	for n, b := range randomPositions(rng, testStarts(t), 1500, 120) {
		legal := b.GenerateLegal(nil)
		isLegal := map[Move]bool{}
		for _, m := range legal {
			isLegal[m] = true
		}
		// Every move the movement rules allow from any square of either
		// side, and every castling and en passant shape.
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
			require.Equal(t, isLegal[m], b.IsLegal(m), "position %d (%s) move %v", n, &b, m)
			checked++
		}
		for _, m := range legal {
			require.True(t, b.IsLegal(m), "position %d (%s) legal move %v", n, &b, m)
		}
	}
	t.Logf("%d moves checked", checked)
	require.Greater(t, checked, 10000)
}
