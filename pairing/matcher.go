package pairing

import "math/rand/v2"

// matcher holds the edge weights of the complete graph between the players
// to be paired and keeps a maximum weight matching up to date as they
// change.
type matcher struct {
	n, words int
	solver   *blossomSolver
	buf      weight
	calls    int // matchings computed, for the trace
	// perm maps the engine's vertices to the solver's and inv back; nil
	// is the identity. See shuffleSeed.
	perm, inv []int
}

// shuffleSeed, when nonzero, makes every matcher number its vertices in a
// random order drawn from it. The engine's decisions must not depend on
// which of several maximum weight matchings the solver finds; the tests
// check that by shuffling, which changes the solver's search order.
var shuffleSeed uint64

func newMatcher(n, words int) *matcher {
	// The engine sizes weights with at least four spare top bits, enough
	// for doubling and for the sum of two duals.
	m := &matcher{n: n, words: words, solver: newBlossomSolver(n, words), buf: newWeight(words)}
	if shuffleSeed != 0 {
		m.perm = rand.New(rand.NewPCG(shuffleSeed, uint64(n))).Perm(n)
		m.inv = make([]int, n)
		for v, u := range m.perm {
			m.inv[u] = v
		}
	}
	return m
}

// vertex returns the solver's number for the engine's vertex v.
func (m *matcher) vertex(v int) int {
	if m.perm == nil {
		return v
	}
	return m.perm[v]
}

// set stores the weight of edge (a, b); zero removes the edge.
func (m *matcher) set(a, b int, x weight) {
	a, b = m.vertex(a), m.vertex(b)
	if m.solver.wid[tri(a, b)] == 0 && x.isZero() {
		return // no edge, and none wanted: most of finalize's calls
	}
	double(m.buf, x)
	m.solver.setDoubled(a, b, m.buf)
}

// fix takes the pair (a, b), matched in the last matching computed, out
// of the graph for good.
func (m *matcher) fix(a, b int) {
	m.solver.fix(m.vertex(a), m.vertex(b))
}

// compute returns, for every vertex, its partner in a maximum weight
// matching, or the vertex itself when it is unmatched.
func (m *matcher) compute() []int {
	m.calls++
	mate := m.solver.solve()
	out := make([]int, m.n)
	for v := range out {
		u := mate[m.vertex(v)]
		switch {
		case u < 0:
			out[v] = v
		case m.inv != nil:
			out[v] = m.inv[u]
		default:
			out[v] = u
		}
	}
	return out
}
