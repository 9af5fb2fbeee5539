package matching

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestBestPartner checks bestPartner against exhaustive search on small
// random graphs with few distinct weights, where ties abound: when it
// answers, its answer is the first candidate that some maximum weight
// matching pairs with the vertex (the vertex's partner in one if none is),
// and the matching it leaves is of maximum weight and pairs them. As the
// engine does, each answer is decided (matcher.decide) and the next vertex
// asked on the same matching, whose best now keeps the decided pairs; the
// solver then goes on from it correctly.
func TestBestPartner(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 22))
	graphs := 4000
	if testing.Short() || raceEnabled {
		graphs = 800
	}
	answered, swapped, chained := 0, 0, 0
	defer func(seed uint64) { ShuffleSeed = seed }(ShuffleSeed)
	for iter := range graphs {
		n := 4 + rng.IntN(9)
		w := make([][]uint64, n)
		for i := range w {
			w[i] = make([]uint64, n)
		}
		// Every other graph numbers the solver's vertices in another
		// order, and every third spreads its weights over two words.
		ShuffleSeed = uint64(iter % 2 * (iter + 1))
		words, shift := 1, 0
		if iter%3 == 0 {
			words, shift = 2, 40
		}
		wt := func(x uint64) Weight {
			r := NewWeight(words)
			r[0] = x
			r.Shl(shift)
			return r
		}
		var m *Matcher
		if n%2 == 1 {
			m = NewOdd(n, words)
			m.SetUnpaired(wt(1+rng.Uint64N(3)), nil)
		} else {
			m = New(n, words)
		}
		setEdge := func(i, j int, x uint64) {
			w[i][j], w[j][i] = x, x
			m.Set(i, j, wt(x))
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
			m.Compute()
			v := rng.IntN(n)
			for u := range n {
				if u != v && rng.IntN(3) == 0 {
					setEdge(v, u, uint64(rng.IntN(7)))
				}
			}
		}
		mate := m.Compute()
		// rest: the weights without the decided pairs; decidedW: theirs.
		rest, decidedW := w, uint64(0)
		decided := make([]bool, n)
		best := bruteForce(n, rest)
		require.Equal(t, best, matchingWeight(t, mate, w))
		for step := 0; step < 3; step++ {
			v := rng.IntN(n)
			if decided[v] {
				break
			}
			var cands []int
			for _, u := range rng.Perm(n) {
				if u != v && !decided[u] && rng.IntN(3) != 0 {
					cands = append(cands, u)
				}
			}
			// possible reports whether a maximum weight matching keeping
			// the decided pairs pairs v with u.
			possible := func(u int) bool {
				return rest[v][u] != 0 && rest[v][u]+bruteForce(n, withoutPair(rest, v, u)) == best
			}
			before, all := mate[v], slices.Clone(mate)
			got, ok := m.BestPartner(v, cands)
			if !ok {
				require.Equal(t, all, mate, "graph %d: an unanswered call changed the matching", iter)
				break
			}
			answered++
			if got != before {
				swapped++
			}
			if step > 0 {
				chained++
			}
			want := -1
			for _, u := range cands {
				if possible(u) {
					want = u
					break
				}
			}
			require.GreaterOrEqual(t, want, 0, "graph %d step %d: an answer, but none of %v is possible", iter, step, cands)
			require.Equal(t, want, got, "graph %d step %d: vertex %d, candidates %v, weights %v", iter, step, v, cands, w)
			require.Equal(t, got, mate[v], "graph %d: the result is updated", iter)
			require.Equal(t, v, mate[got], "graph %d", iter)
			require.Equal(t, decidedW+best, matchingWeight(t, mate, w), "graph %d step %d: the matching stays of maximum weight", iter, step)
			for u := range n {
				if decided[u] {
					require.NotEqual(t, u, mate[u], "graph %d: decided vertex %d left unpaired", iter, u)
					require.True(t, decided[mate[u]], "graph %d: decided pair of %d broken", iter, u)
				}
			}
			m.Decide(v, got)
			decided[v], decided[got] = true, true
			decidedW += w[v][got]
			rest = withoutPair(rest, v, got)
			best = bruteForce(n, rest)
		}

		// The solver goes on: the decided pairs are fixed with the next
		// matching, after a change elsewhere.
		if u := rng.IntN(n); !decided[u] {
			for x := range n {
				if x != u && !decided[x] && rng.IntN(2) == 0 {
					setEdge(u, x, uint64(rng.IntN(7)))
					rest[u][x], rest[x][u] = w[u][x], w[u][x]
				}
			}
		}
		after := m.Compute()
		for u := range n {
			if decided[u] {
				require.True(t, decided[after[u]] && after[u] != u, "graph %d: a decided pair stays", iter)
			}
		}
		require.Equal(t, decidedW+bruteForce(n, rest), matchingWeight(t, after, w), "graph %d: after the decisions", iter)
	}
	// The shortcut must be taken, and swaps made, for the test to mean much.
	require.Greater(t, answered, graphs/3, "answered")
	require.Greater(t, swapped, graphs/20, "swapped")
	require.Greater(t, chained, graphs/10, "asked again after a decision")
	t.Logf("%d answers in %d graphs, %d by a swap, %d after a decision", answered, graphs, swapped, chained)
}

// TestBestPartnerNeedsCurrentMatching: after a change, bestPartner does not
// answer until the next compute.
func TestBestPartnerNeedsCurrentMatching(t *testing.T) {
	m := New(4, 1)
	for a := range 4 {
		for b := a + 1; b < 4; b++ {
			m.Set(a, b, Weight{4})
		}
	}
	m.Compute()
	_, ok := m.BestPartner(0, []int{1, 2, 3})
	require.True(t, ok)
	m.Set(1, 2, Weight{5})
	_, ok = m.BestPartner(0, []int{1, 2, 3})
	require.False(t, ok, "weights changed since the last compute")
	mate := m.Compute()
	// Only 1 and 2 paired is best: 0 gets 3. The edge (0, 1) is slack,
	// which rules 1 out.
	got, ok := m.BestPartner(0, []int{1, 3})
	require.True(t, ok)
	require.Equal(t, 3, got)
	require.Equal(t, 3, mate[0])
	m.fix(0, 3)
	_, ok = m.BestPartner(1, []int{2})
	require.False(t, ok, "a pair fixed since the last compute")
}

// TestPairAcross: pairing players of an upper half with a lower half by
// swaps leaves a state from which the next matching is still of maximum
// weight, and makes such pairs where tight edges allow.
func TestPairAcross(t *testing.T) {
	rng := rand.New(rand.NewPCG(31, 32))
	across := 0
	for iter := range 2000 {
		n := 4 + rng.IntN(9)
		w := make([][]uint64, n)
		for i := range w {
			w[i] = make([]uint64, n)
		}
		m := New(n, 1)
		if n%2 == 1 {
			m = NewOdd(n, 1)
			m.SetUnpaired(Weight{1 + rng.Uint64N(3)}, nil)
		}
		for i := range n {
			for j := i + 1; j < n; j++ {
				if rng.IntN(5) != 0 {
					x := 4 + rng.Uint64N(2)
					w[i][j], w[j][i] = x, x
					m.Set(i, j, Weight{x})
				}
			}
		}
		mate := m.Compute()
		perm := rng.Perm(n)
		upper, lower := perm[:n/2], perm[n/2:]
		isUpper := make([]bool, n)
		for _, v := range upper {
			isUpper[v] = true
		}
		count := func(mate []int) int {
			c := 0
			for v, u := range mate {
				if u != v && isUpper[v] && !isUpper[u] {
					c++
				}
			}
			return c
		}
		before := count(mate)
		m.PairAcross(upper, lower)
		checkAcross(t, m, isUpper, iter)
		after := m.Compute()
		require.Equal(t, bruteForce(n, w), matchingWeight(t, after, w), "graph %d", iter)
		across += count(after) - before
	}
	require.Positive(t, across, "pairs made across")
}

// checkAcross checks the solver's state after pairAcross: every matched
// edge between two vertices outside blossoms is tight, and no pair within
// the upper half and pair within the lower half are left that one swap
// along tight edges would pair across.
func checkAcross(t *testing.T, m *Matcher, isUpper []bool, iter int) {
	s := m.solver
	trivial := func(v int) bool { return s.inblossom[v] == v }
	partner := func(v int) int {
		if s.mate[v] < 0 {
			return -1
		}
		return s.endpoint(s.mate[v])
	}
	side := func(v int) int { // 1 upper, 2 lower, 0 the phantom
		switch {
		case v == m.phantom:
			return 0
		case isUpper[v]:
			return 1
		}
		return 2
	}
	for v := range m.n {
		if u := partner(v); u >= 0 && trivial(v) && trivial(u) {
			require.True(t, s.tightEdge(v, u), "graph %d: matched edge %d-%d not tight", iter, v, u)
		}
	}
	for a := range m.n {
		a2 := partner(a)
		if side(a) != 1 || a2 < 0 || side(a2) != 1 || !trivial(a) || !trivial(a2) {
			continue
		}
		for b := range m.n {
			b2 := partner(b)
			if side(b) != 2 || b2 < 0 || side(b2) != 2 || !trivial(b) || !trivial(b2) {
				continue
			}
			require.False(t, s.tightEdge(a, b) && s.tightEdge(a2, b2), "graph %d: pairs %d-%d and %d-%d could be paired across", iter, a, a2, b, b2)
		}
	}
}

// TestDecideThenChange: a change of the graph after decide fixes the
// decided pair first, as fix would have: an edge set at the pair brings
// it back into the graph, and a warm start of other vertices leaves it
// fixed.
func TestDecideThenChange(t *testing.T) {
	rng := rand.New(rand.NewPCG(41, 42))
	for iter := range 1000 {
		n := 4 + 2*rng.IntN(4)
		w, m, setEdge := newTestGraph(n)
		for i := range n {
			for j := i + 1; j < n; j++ {
				setEdge(i, j, 1+rng.Uint64N(6))
			}
		}
		mate := m.Compute()
		a := rng.IntN(n)
		b := mate[a]
		require.NotEqual(t, a, b)
		m.Decide(a, b)
		if iter%2 == 0 {
			// Touched again: back in the graph, which is matched whole.
			c := rng.IntN(n)
			for c == a || c == b {
				c = rng.IntN(n)
			}
			setEdge(a, c, 1+rng.Uint64N(6))
			require.Equal(t, bruteForce(n, w), matchingWeight(t, m.Compute(), w), "graph %d: edge set at a decided pair", iter)
			continue
		}
		var vs []int
		for v := range n {
			if v != a && v != b {
				vs = append(vs, v)
			}
		}
		m.WarmStart(vs)
		after := m.Compute()
		require.Equal(t, b, after[a], "graph %d: the decided pair stays", iter)
		require.Equal(t, w[a][b]+bruteForce(n, withoutPair(w, a, b)), matchingWeight(t, after, w), "graph %d: warm start after decide", iter)
	}
}
