package matching

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
)

// bruteForce returns the maximum total weight over all matchings.
func bruteForce(n int, w [][]uint64) uint64 {
	var best uint64
	used := make([]bool, n)
	var rec func(i int, total uint64)
	rec = func(i int, total uint64) {
		for i < n && used[i] {
			i++
		}
		if i == n {
			best = max(best, total)
			return
		}
		used[i] = true
		rec(i+1, total)
		for j := i + 1; j < n; j++ {
			if !used[j] && w[i][j] > 0 {
				used[j] = true
				rec(i+1, total+w[i][j])
				used[j] = false
			}
		}
		used[i] = false
	}
	rec(0, 0)
	return best
}

// newTestGraph returns a matcher for n vertices, one-word weights and no
// edges, the weights of its edges for exhaustive checks, and a function
// that sets an edge in both.
func newTestGraph(n int) ([][]uint64, *Matcher, func(i, j int, x uint64)) {
	w := make([][]uint64, n)
	for i := range w {
		w[i] = make([]uint64, n)
	}
	m := New(n, 1)
	return w, m, func(i, j int, x uint64) {
		w[i][j], w[j][i] = x, x
		m.Set(i, j, Weight{x})
	}
}

// fix takes the pair (a, b), matched in the last matching computed, out
// of the graph for good, at once: what the engine's decided pairs come
// to (matcher.decide).
func (m *Matcher) fix(a, b int) {
	m.Decide(a, b)
	m.Flush()
}

// withoutPair returns a copy of the weights w without the edges at a and b.
func withoutPair(w [][]uint64, a, b int) [][]uint64 {
	rest := make([][]uint64, len(w))
	for i := range rest {
		rest[i] = append([]uint64(nil), w[i]...)
		rest[i][a], rest[i][b] = 0, 0
	}
	clear(rest[a])
	clear(rest[b])
	return rest
}

func matchingWeight(t *testing.T, mate []int, w [][]uint64) uint64 {
	var total uint64
	for v, u := range mate {
		if u != v {
			require.Equal(t, v, mate[u])
			require.NotZero(t, w[v][u], "matched edge %d-%d has no weight", v, u)
			if v < u {
				total += w[v][u]
			}
		}
	}
	return total
}

// TestMatcherAgainstBruteForce checks fresh and incremental matchings on
// random graphs against exhaustive search.
func TestMatcherAgainstBruteForce(t *testing.T) {
	seeds := 4
	if testing.Short() || raceEnabled {
		seeds = 1
	}
	for seed := range seeds {
		matcherRandomTrials(t, rand.New(rand.NewPCG(uint64(seed)+1, 2)))
	}
}

func matcherRandomTrials(t *testing.T, rng *rand.Rand) {
	for iter := 0; iter < 1500; iter++ {
		n := 1 + rng.IntN(12)
		w := make([][]uint64, n)
		for i := range w {
			w[i] = make([]uint64, n)
		}
		maxW := uint64(1 + rng.IntN(20))
		if iter%3 == 0 {
			maxW = 1 << 40
		}
		shift := 0
		if iter%5 == 0 {
			shift = 40 // spread weights over two words
		}
		m := New(n, 2)
		if n%2 == 1 && iter%2 == 1 {
			// The bye as a pair with a phantom vertex, worth the same for
			// all: the best matching of the rest is the same.
			m = NewOdd(n, 2)
			bye := NewWeight(2)
			bye[0] = 1 + rng.Uint64N(maxW)
			bye.Shl(shift)
			m.SetUnpaired(bye, nil)
		}
		setEdge := func(i, j int, x uint64) {
			w[i][j], w[j][i] = x, x
			wt := NewWeight(2)
			wt[0] = x
			wt.Shl(shift)
			m.Set(i, j, wt)
		}
		randomEdge := func() uint64 {
			if rng.IntN(3) == 0 {
				return 0
			}
			return 1 + rng.Uint64N(maxW)
		}
		for i := 0; i < n; i++ {
			for j := i + 1; j < n; j++ {
				setEdge(i, j, randomEdge())
			}
		}
		require.Equal(t, bruteForce(n, w), matchingWeight(t, m.Compute(), w), "iteration %d", iter)
		for step := 0; step < 6 && n > 1; step++ {
			// Change the edges at one or two vertices, as the engine does.
			for range 1 + rng.IntN(2) {
				v := rng.IntN(n)
				for u := 0; u < n; u++ {
					if u != v && rng.IntN(2) == 0 {
						setEdge(v, u, randomEdge())
					}
				}
			}
			require.Equal(t, bruteForce(n, w), matchingWeight(t, m.Compute(), w), "iteration %d step %d", iter, step)
		}
	}
}

// TestMatcherFix fixes pairs, as the engine does, and checks that later
// changes elsewhere, and even on a fixed pair, still give optimal matchings:
// a fixed pair counts with its own edge, the rest is matched without it.
func TestMatcherFix(t *testing.T) {
	for _, touch := range []bool{false, true} {
		matcherFixTrials(t, touch)
	}
}

func matcherFixTrials(t *testing.T, touch bool) {
	rng := rand.New(rand.NewPCG(5, 6))
	for iter := 0; iter < 300; iter++ {
		n := 4 + rng.IntN(8)
		w, m, setEdge := newTestGraph(n)
		for i := 0; i < n; i++ {
			for j := i + 1; j < n; j++ {
				setEdge(i, j, uint64(rng.IntN(20)))
			}
		}
		mate := m.Compute()
		require.Equal(t, bruteForce(n, w), matchingWeight(t, mate, w))
		// want is the best weight with the pair (a, b) fixed: its edge
		// plus the best matching of the others.
		want := func(a, b int) uint64 { return w[a][b] + bruteForce(n, withoutPair(w, a, b)) }
		a, b := 0, mate[0]
		fixed := b != a
		if fixed {
			m.fix(a, b)
			got := m.Compute()
			require.Equal(t, b, got[a], "a fixed pair stays matched")
			require.Equal(t, want(a, b), matchingWeight(t, got, w))
			if touch && rng.IntN(2) == 0 {
				setEdge(a, n-1-rng.IntN(n-2), 150) // touch the fixed pair again
				fixed = false
			}
		}
		v := rng.IntN(n)
		for u := 0; u < n; u++ {
			if fixed && (u == a || u == b || v == a || v == b) {
				continue
			}
			if u != v && rng.IntN(2) == 0 {
				setEdge(v, u, uint64(rng.IntN(20)))
			}
		}
		expect := bruteForce(n, w)
		if fixed {
			expect = want(a, b)
		}
		require.Equal(t, expect, matchingWeight(t, m.Compute(), w), "iteration %d touch %v", iter, touch)
	}
}

// TestMatcherManySmallGraphs checks fresh matchings on many small random
// graphs with few distinct weights, where ties and blossoms abound and a
// stage often goes on after an augmentation (forest.go).
func TestMatcherManySmallGraphs(t *testing.T) {
	graphs := 30000
	if testing.Short() || raceEnabled {
		graphs = 3000
	}
	rng := rand.New(rand.NewPCG(11, 12))
	for iter := 0; iter < graphs; iter++ {
		n := 2 + rng.IntN(9)
		w := make([][]uint64, n)
		for i := range w {
			w[i] = make([]uint64, n)
		}
		m := New(n, 1)
		for i := 0; i < n; i++ {
			for j := i + 1; j < n; j++ {
				var x uint64
				if rng.IntN(3) != 0 {
					x = 1 + rng.Uint64N(8)
				}
				w[i][j], w[j][i] = x, x
				m.Set(i, j, Weight{x})
			}
		}
		require.Equal(t, bruteForce(n, w), matchingWeight(t, m.Compute(), w), "graph %d: %v", iter, w)
	}
}
