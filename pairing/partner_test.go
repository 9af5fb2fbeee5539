package pairing

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestBestPartner checks bestPartner against exhaustive search on small
// random graphs with few distinct weights, where ties abound: when it
// answers, its answer is the first candidate that some maximum weight
// matching pairs with the vertex (the vertex's partner in one if none is),
// the matching it leaves is of maximum weight and pairs them, and the
// solver goes on from it correctly.
func TestBestPartner(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 22))
	graphs := 4000
	if testing.Short() || RaceEnabled {
		graphs = 800
	}
	answered, swapped := 0, 0
	for iter := range graphs {
		n := 4 + rng.IntN(9)
		w := make([][]uint64, n)
		for i := range w {
			w[i] = make([]uint64, n)
		}
		var m *matcher
		if n%2 == 1 {
			m = newOddMatcher(n, 1)
			m.setBye(weight{1 + rng.Uint64N(3)}, nil)
		} else {
			m = newMatcher(n, 1)
		}
		setEdge := func(i, j int, x uint64) {
			w[i][j], w[j][i] = x, x
			m.set(i, j, weight{x})
		}
		for i := range n {
			for j := i + 1; j < n; j++ {
				if rng.IntN(4) != 0 {
					setEdge(i, j, 4+rng.Uint64N(3))
				}
			}
		}
		// A few matchings with changes in between, so that blossoms and
		// duals come from incremental solves, as in the engine.
		for range 1 + rng.IntN(3) {
			m.compute()
			v := rng.IntN(n)
			for u := range n {
				if u != v && rng.IntN(3) == 0 {
					setEdge(v, u, uint64(rng.IntN(7)))
				}
			}
		}
		mate := m.compute()
		best := bruteForce(n, w)
		require.Equal(t, best, matchingWeight(t, mate, w))

		v := rng.IntN(n)
		var cands []int
		for _, u := range rng.Perm(n) {
			if u != v && rng.IntN(3) != 0 {
				cands = append(cands, u)
			}
		}
		// possible reports whether a maximum weight matching pairs v, u.
		possible := func(u int) bool {
			if w[v][u] == 0 {
				return false
			}
			return w[v][u]+bruteForce(n, withoutPair(w, v, u)) == best
		}
		before := mate[v]
		got, ok := m.bestPartner(v, cands)
		if !ok {
			require.Equal(t, before, mate[v], "graph %d: an unanswered call changed the matching", iter)
			continue
		}
		answered++
		if got != before {
			swapped++
		}
		want := -1
		for _, u := range cands {
			if possible(u) {
				want = u
				break
			}
		}
		if want >= 0 {
			require.Equal(t, want, got, "graph %d: vertex %d, candidates %v, weights %v", iter, v, cands, w)
		} else {
			require.NotContains(t, cands, got, "graph %d", iter)
		}
		require.Equal(t, got, mate[v], "graph %d: the result is updated", iter)
		require.Equal(t, v, mate[got], "graph %d", iter)
		require.Equal(t, best, matchingWeight(t, mate, w), "graph %d: the matching stays of maximum weight", iter)

		// The solver goes on from the swapped matching.
		m.fix(v, got)
		u := rng.IntN(n)
		for x := range n {
			if x != u && u != v && u != got && x != v && x != got && rng.IntN(2) == 0 {
				setEdge(u, x, uint64(rng.IntN(7)))
			}
		}
		after := m.compute()
		require.Equal(t, got, after[v], "graph %d: the fixed pair stays", iter)
		require.Equal(t, w[v][got]+bruteForce(n, withoutPair(w, v, got)), matchingWeight(t, after, w), "graph %d: after the swap", iter)
	}
	// The shortcut must be taken, and swaps made, for the test to mean much.
	require.Greater(t, answered, graphs/3, "answered")
	require.Greater(t, swapped, graphs/20, "swapped")
	t.Logf("%d of %d answered, %d by a swap", answered, graphs, swapped)
}

// TestBestPartnerNeedsCurrentMatching: after a change, bestPartner does not
// answer until the next compute.
func TestBestPartnerNeedsCurrentMatching(t *testing.T) {
	m := newMatcher(4, 1)
	for a := range 4 {
		for b := a + 1; b < 4; b++ {
			m.set(a, b, weight{4})
		}
	}
	mate := m.compute()
	_, ok := m.bestPartner(0, []int{1, 2, 3})
	require.True(t, ok)
	m.set(1, 2, weight{5})
	_, ok = m.bestPartner(0, []int{1, 2, 3})
	require.False(t, ok, "weights changed since the last compute")
	mate = m.compute()
	// Only 1 and 2 paired is best: 0 gets 3. The edge (0, 1) is slack,
	// which rules 1 out.
	got, ok := m.bestPartner(0, []int{1, 3})
	require.True(t, ok)
	require.Equal(t, 3, got)
	require.Equal(t, 3, mate[0])
	m.fix(0, 3)
	_, ok = m.bestPartner(1, []int{2})
	require.False(t, ok, "a pair fixed since the last compute")
}
