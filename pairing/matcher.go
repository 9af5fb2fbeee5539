package pairing

// matcher holds the edge weights of the complete graph between the players
// to be paired and keeps a maximum weight matching up to date as they
// change.
type matcher struct {
	n, words int
	solver   *blossomSolver
	buf      weight
	calls    int // matchings computed, for the trace
}

func newMatcher(n, words int) *matcher {
	// The engine sizes weights with at least four spare top bits, enough
	// for doubling and for the sum of two duals.
	return &matcher{n: n, words: words, solver: newBlossomSolver(n, words), buf: newWeight(words)}
}

// set stores the weight of edge (a, b); zero removes the edge.
func (m *matcher) set(a, b int, x weight) {
	if m.solver.wid[tri(a, b)] == 0 && x.isZero() {
		return // no edge, and none wanted: most of finalize's calls
	}
	double(m.buf, x)
	m.solver.setDoubled(a, b, m.buf)
}

// retire tells the matcher that the pair (a, b) is fixed for good: the
// caller has left it a single edge, and the searches may skip it.
func (m *matcher) retire(a, b int) {
	m.solver.retire(a)
	m.solver.retire(b)
}

// compute returns, for every vertex, its partner in a maximum weight
// matching, or the vertex itself when it is unmatched.
func (m *matcher) compute() []int {
	m.calls++
	out := m.solver.solve()
	for v, u := range out {
		if u < 0 {
			out[v] = v
		}
	}
	return out
}
