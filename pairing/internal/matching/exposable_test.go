package matching

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// maxMatchingSize is the size of a maximum matching of the vertices in
// set, by exhaustive search.
func maxMatchingSize(edge [][]bool, set uint) int {
	if set == 0 {
		return 0
	}
	v := 0
	for set&(1<<uint(v)) == 0 {
		v++
	}
	rest := set &^ (1 << uint(v))
	best := maxMatchingSize(edge, rest) // v unmatched
	for u := range edge {
		if rest&(1<<uint(u)) != 0 && edge[v][u] {
			best = max(best, 1+maxMatchingSize(edge, rest&^(1<<uint(u))))
		}
	}
	return best
}

// The cardinality matcher finds maximum matchings, and the vertices it
// calls exposable are exactly those whose removal keeps the maximum: those
// some maximum matching leaves unmatched.
func TestCardinalityExposable(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 8))
	for trial := range 3000 {
		n := 1 + rng.IntN(11)
		density := rng.Float64()
		edge := make([][]bool, n)
		for i := range edge {
			edge[i] = make([]bool, n)
		}
		for a := range n {
			for b := range a {
				if rng.Float64() < density {
					edge[a][b], edge[b][a] = true, true
				}
			}
		}
		rows := (n + 63) / 64
		adj := make([]uint64, n*rows)
		for a := range n {
			for b := range n {
				if edge[a][b] {
					adj[a*rows+b/64] |= 1 << uint(b%64)
				}
			}
		}
		c := NewCardinality(n, adj)
		unmatched := c.Maximize()
		all := uint(1)<<uint(n) - 1
		nu := maxMatchingSize(edge, all)
		require.Equal(t, n-2*nu, unmatched, "trial %d: not maximum", trial)
		for v, u := range c.mate {
			if u != -1 {
				require.True(t, edge[v][u], "trial %d: %d-%d is no edge", trial, v, u)
				require.Equal(t, v, c.mate[u])
			}
		}
		d := c.Exposable()
		for v := range n {
			want := maxMatchingSize(edge, all&^(1<<uint(v))) == nu
			assert.Equal(t, want, d[v], "trial %d: vertex %d of %v", trial, v, edge)
		}
	}
}
