package matching

import "math/rand/v2"

// Matcher holds the edge weights of a complete graph and keeps a maximum weight matching up to date as they
// change.
type Matcher struct {
	n, words int
	solver   *blossomSolver
	buf      Weight
	calls    int // matchings computed, for the trace
	out      []int
	// perm maps the engine's vertices to the solver's and inv back; nil
	// is the identity. See shuffleSeed.
	perm, inv []int
	// phantom is the solver's extra vertex standing for none in a graph
	// of odd size, or -1 (see SetUnpaired).
	phantom int
	// pending lists the pairs decided (decide) but not yet fixed, two
	// solver vertices each.
	pending []int
	// The ids of weights plus shiftBy (see setShifted): shifted[id] is
	// valid while shiftGen[id] is gen; held lists the pairs of ids it
	// holds a reference to.
	shiftBy  Weight
	gen      uint32
	shiftGen []uint32
	shifted  []uint32
	held     []uint32
}

// ShuffleSeed, when nonzero, makes every matcher number its vertices in a
// random order drawn from it. The engine's decisions must not depend on
// which of several maximum weight matchings the solver finds; the tests
// check that by shuffling, which changes the solver's search order.
var ShuffleSeed uint64

// New returns a matcher for n vertices and weights of words words.
func New(n, words int) *Matcher { return newMatcherPhantom(n, words, false) }

// NewOdd returns a matcher for an odd number n of vertices, one of
// which a matching leaves unpaired. The solver gets one vertex more, the
// phantom, and leaving a vertex unpaired is pairing it with the phantom
// (SetUnpaired). A free vertex
// in a near-complete graph sits in a blossom spanning nearly all of it,
// with a large dual: every change of weights inside dissolved that
// blossom and had the search build it again. With the phantom, the
// matching is perfect and no vertex is left free.
func NewOdd(n, words int) *Matcher { return newMatcherPhantom(n, words, true) }

func newMatcherPhantom(n, words int, phantom bool) *Matcher {
	// The engine sizes weights with at least four spare top bits, enough
	// for doubling and for the sum of two duals.
	m := &Matcher{n: n, words: words, buf: NewWeight(words), shiftBy: NewWeight(words), gen: 1, phantom: -1}
	if phantom {
		m.solver, m.phantom = newBlossomSolver(n+1, words), n
	} else {
		m.solver = newBlossomSolver(n, words)
	}
	if ShuffleSeed != 0 {
		m.perm = rand.New(rand.NewPCG(ShuffleSeed, uint64(n))).Perm(n)
		m.inv = make([]int, n)
		for v, u := range m.perm {
			m.inv[u] = v
		}
	}
	return m
}

// SetUnpaired sets the weight of leaving unpaired each vertex still in the
// graph that may be (all when may is nil), which must be the same for all:
// a matching's weight then differs from that of the same matching without
// the phantom by x, and the two have the same maximum among matchings that
// leave one of those unpaired. x must be positive, or the phantom stays
// unmatched.
func (m *Matcher) SetUnpaired(x Weight, may []bool) {
	m.Flush()
	double(m.buf, x)
	id := m.solver.pool.acquire(m.buf)
	for v := range m.n {
		if sv := m.vertex(v); !m.solver.retired[sv] && (may == nil || may[v]) {
			m.solver.setID(sv, m.phantom, id)
		}
	}
	m.solver.pool.release(id)
}

// vertex returns the solver's number for the engine's vertex v.
func (m *Matcher) vertex(v int) int {
	if m.perm == nil {
		return v
	}
	return m.perm[v]
}

// Set stores the weight of edge (a, b); zero removes the edge.
func (m *Matcher) Set(a, b int, x Weight) {
	m.Flush()
	a, b = m.vertex(a), m.vertex(b)
	if m.solver.sq[a*m.solver.n+b] == 0 && x.IsZero() {
		return // no edge, and none wanted
	}
	double(m.buf, x)
	m.solver.setDoubled(a, b, m.buf)
}

// Weights by id. The caller keeps a group's base weights as ids of the
// matcher's pool, 4 bytes a pair, and sets edges to them, or to them with
// a small change, without building and looking up whole weights again.

// Intern returns the id of x, counting a reference that the caller must
// release. The zero weight (no edge) is id 0.
func (m *Matcher) Intern(x Weight) uint32 {
	double(m.buf, x)
	return m.solver.pool.acquire(m.buf)
}

// Release drops a reference taken by intern.
func (m *Matcher) Release(id uint32) { m.solver.pool.release(id) }

// SetID sets edge (a, b) to the weight with the given id.
func (m *Matcher) SetID(a, b int, id uint32) {
	m.Flush()
	m.solver.setID(m.vertex(a), m.vertex(b), id)
}

// SetRow sets the edges (a, b), for every b < a, to the weights with the
// ids in ids[b].
func (m *Matcher) SetRow(a int, ids []uint32) {
	m.Flush()
	if m.perm != nil {
		for b, id := range ids {
			m.SetID(a, b, id)
		}
		return
	}
	m.solver.setRow(a, ids)
}

// SetShifted sets edge (a, b) to the weight id plus delta, where delta may
// be negative in two's complement; id must not be 0. The result for each
// id is kept until delta changes: the engine shifts whole rows of edges by
// one delta, and their weights take few values.
func (m *Matcher) SetShifted(a, b int, id uint32, delta Weight) {
	if cmpWeight(delta, m.shiftBy) != 0 {
		for _, id := range m.held {
			m.Release(id)
		}
		m.held = m.held[:0]
		m.gen++
		copy(m.shiftBy, delta)
	}
	if int(id) >= len(m.shifted) {
		m.shifted = append(m.shifted, make([]uint32, int(id)+1-len(m.shifted))...)
		m.shiftGen = append(m.shiftGen, make([]uint32, int(id)+1-len(m.shiftGen))...)
	}
	if m.shiftGen[id] != m.gen {
		double(m.buf, delta)
		add(m.buf, m.buf, m.solver.pool.get(id))
		r := m.solver.pool.acquire(m.buf)
		// Holding id too: one freed and reused must not hit.
		m.solver.pool.ref(id)
		m.held = append(m.held, id, r)
		m.shifted[id], m.shiftGen[id] = r, m.gen
	}
	m.SetID(a, b, m.shifted[id])
}

// WeightOf writes into w the engine's weight with the given id.
func (m *Matcher) WeightOf(w Weight, id uint32) { half(w, m.solver.pool.get(id)) }

// WarmStart solves the graph spanned by vs (engine vertices) on its own
// and starts the next matching from that (see warm.go).
func (m *Matcher) WarmStart(vs []int) {
	m.Flush()
	sv := make([]int, len(vs))
	for i, v := range vs {
		sv[i] = m.vertex(v)
	}
	m.solver.warmStart(sv)
}

// RaiseDual raises the dual of vertex v by x (in the engine's scale):
// the duals stay feasible, and the next compute does the rest. The engine
// raises the duals of vertices whose edges it has just made heavier, by as
// much, so that their pairs stay tight (see pairAcross).
func (m *Matcher) RaiseDual(v int, x Weight) {
	m.Flush()
	double(m.buf, x)
	sv := m.vertex(v)
	add(m.solver.dual[sv], m.solver.dual[sv], m.buf)
	m.solver.markDirty(sv)
	m.solver.settled = false
}

// Decide takes the pair (a, b), matched now, out of the graph for good
// (fixAll), but only at the next change of the graph (a weight set, a pair fixed, a
// warm start) or matching computed, or when flush is called: until then
// the matching stays current for bestPartner, which leaves the pair as it
// is. Fixing a pair inside a blossom dissolves it, and pairing again what
// that frees is a search; decided pairs are fixed together, with one.
func (m *Matcher) Decide(a, b int) {
	sa, sb := m.vertex(a), m.vertex(b)
	if mate := m.solver.mate[sa]; sa == sb || mate < 0 || m.solver.endpoint(mate) != sb {
		panic("matching: fixing a pair that is not matched")
	}
	m.solver.decided[sa], m.solver.decided[sb] = true, true
	m.pending = append(m.pending, sa, sb)
}

// Current reports whether the last matching computed is still optimal:
// no weight changed and no pair was fixed since.
func (m *Matcher) Current() bool { return m.solver.settled }

// Flush fixes the decided pairs.
func (m *Matcher) Flush() {
	if len(m.pending) == 0 {
		return
	}
	for _, v := range m.pending {
		m.solver.decided[v] = false
	}
	m.solver.fixAll(m.pending)
	m.pending = m.pending[:0]
}

// CheckMatching, when set (by tests), is called with every matching
// computed.
var CheckMatching func(m *Matcher, mate []int)

// Compute returns, for every vertex, its partner in a maximum weight
// matching, or the vertex itself when it is unmatched, in a buffer that
// the next call overwrites: the engine computes a thousand matchings a
// round and reads only the last.
func (m *Matcher) Compute() []int {
	m.Flush()
	m.calls++
	mate := m.solver.solve()
	if CheckMatching != nil {
		CheckMatching(m, mate)
	}
	if m.out == nil {
		m.out = make([]int, m.n)
	}
	for sv := range mate {
		m.record(sv)
	}
	return m.out
}

// Calls returns the number of matchings computed.
func (m *Matcher) Calls() int { return m.calls }

// Ref counts another reference to the weight with the given id, which
// must be referenced already (or be 0); Release drops it.
func (m *Matcher) Ref(id uint32) { m.solver.pool.ref(id) }

// EdgeID returns the id of the weight of edge (a, b), 0 if there is none.
func (m *Matcher) EdgeID(a, b int) uint32 {
	return m.solver.sq[m.vertex(a)*m.solver.n+m.vertex(b)]
}

// WeighAfresh returns the total weight of mate, a matching just computed,
// and that of a maximum weight matching solved afresh from the same
// weights, without the incremental repairs, warm starts and fixed pairs
// that make the matcher fast: CheckMatching uses it to check that they
// agree. Fixed pairs are left out of both.
func (m *Matcher) WeighAfresh(mate []int) (got, fresh Weight) {
	s := m.solver
	solver := newBlossomSolver(s.n, s.words)
	for a := range s.n {
		for b := range a {
			if !s.retired[a] && !s.retired[b] {
				solver.setDoubled(a, b, s.pool.get(s.sq[a*s.n+b]))
			}
		}
	}
	total := func(mate []int) Weight {
		sum := NewWeight(s.words)
		for v, u := range mate {
			if u > v && !s.retired[v] {
				add(sum, sum, s.pool.get(s.sq[v*s.n+u]))
			}
		}
		return sum
	}
	return total(mate), total(solver.solve())
}
