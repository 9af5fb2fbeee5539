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
	out      []int
	// perm maps the engine's vertices to the solver's and inv back; nil
	// is the identity. See shuffleSeed.
	perm, inv []int
	// phantom is the solver's extra vertex standing for the bye in a
	// field of odd size, or -1 (see setBye).
	phantom int
	// pending lists the pairs decided (decide) but not yet fixed, two
	// solver vertices each.
	pending []int
	// The ids of weights plus shiftBy (see setShifted): shifted[id] is
	// valid while shiftGen[id] is gen; held lists the pairs of ids it
	// holds a reference to.
	shiftBy  weight
	gen      uint32
	shiftGen []uint32
	shifted  []uint32
	held     []uint32
}

// shuffleSeed, when nonzero, makes every matcher number its vertices in a
// random order drawn from it. The engine's decisions must not depend on
// which of several maximum weight matchings the solver finds; the tests
// check that by shuffling, which changes the solver's search order.
var shuffleSeed uint64

// newMatcher returns a matcher for n vertices and weights of words words.
func newMatcher(n, words int) *matcher { return newMatcherPhantom(n, words, false) }

// newOddMatcher returns a matcher for an odd number n of vertices, one of
// which a matching leaves unpaired: the bye. The solver gets one vertex
// more, the phantom, and a bye is a pair with it (setBye). A free vertex
// in a near-complete graph sits in a blossom spanning nearly all of it,
// with a large dual: every change of weights inside dissolved that
// blossom and had the search build it again. With the phantom, the
// matching is perfect and no vertex is left free.
func newOddMatcher(n, words int) *matcher { return newMatcherPhantom(n, words, true) }

func newMatcherPhantom(n, words int, phantom bool) *matcher {
	// The engine sizes weights with at least four spare top bits, enough
	// for doubling and for the sum of two duals.
	m := &matcher{n: n, words: words, buf: newWeight(words), shiftBy: newWeight(words), gen: 1, phantom: -1}
	if phantom {
		m.solver, m.phantom = newBlossomSolver(n+1, words), n
	} else {
		m.solver = newBlossomSolver(n, words)
	}
	if shuffleSeed != 0 {
		m.perm = rand.New(rand.NewPCG(shuffleSeed, uint64(n))).Perm(n)
		m.inv = make([]int, n)
		for v, u := range m.perm {
			m.inv[u] = v
		}
	}
	return m
}

// setBye sets the weight of the bye of each vertex still in the graph
// that may take it (all when may is nil), which must be the same for all:
// a matching's weight then differs from that of the same matching without
// the phantom by x, and the two have the same maximum among matchings that
// leave one of those unpaired. x must be positive, or the phantom stays
// unmatched.
func (m *matcher) setBye(x weight, may []bool) {
	m.flush()
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
func (m *matcher) vertex(v int) int {
	if m.perm == nil {
		return v
	}
	return m.perm[v]
}

// set stores the weight of edge (a, b); zero removes the edge.
func (m *matcher) set(a, b int, x weight) {
	m.flush()
	a, b = m.vertex(a), m.vertex(b)
	if m.solver.sq[a*m.solver.n+b] == 0 && x.isZero() {
		return // no edge, and none wanted
	}
	double(m.buf, x)
	m.solver.setDoubled(a, b, m.buf)
}

// Weights by id. The engine keeps a bracket's base weights as ids of the
// matcher's pool, 4 bytes a pair, and sets edges to them, or to them with
// a small change, without building and looking up whole weights again.

// intern returns the id of x, counting a reference that the caller must
// release. The zero weight (no edge) is id 0.
func (m *matcher) intern(x weight) uint32 {
	double(m.buf, x)
	return m.solver.pool.acquire(m.buf)
}

// release drops a reference taken by intern.
func (m *matcher) release(id uint32) { m.solver.pool.release(id) }

// setID sets edge (a, b) to the weight with the given id.
func (m *matcher) setID(a, b int, id uint32) {
	m.flush()
	m.solver.setID(m.vertex(a), m.vertex(b), id)
}

// setRow sets the edges (a, b), for every b < a, to the weights with the
// ids in ids[b].
func (m *matcher) setRow(a int, ids []uint32) {
	m.flush()
	if m.perm != nil {
		for b, id := range ids {
			m.setID(a, b, id)
		}
		return
	}
	m.solver.setRow(a, ids)
}

// setShifted sets edge (a, b) to the weight id plus delta, where delta may
// be negative in two's complement; id must not be 0. The result for each
// id is kept until delta changes: the engine shifts whole rows of edges by
// one delta, and their weights take few values.
func (m *matcher) setShifted(a, b int, id uint32, delta weight) {
	if cmpWeight(delta, m.shiftBy) != 0 {
		for _, id := range m.held {
			m.release(id)
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
	m.setID(a, b, m.shifted[id])
}

// weightOf writes into w the engine's weight with the given id.
func (m *matcher) weightOf(w weight, id uint32) { half(w, m.solver.pool.get(id)) }

// warmStart solves the graph spanned by vs (engine vertices) on its own
// and starts the next matching from that (see warm.go).
func (m *matcher) warmStart(vs []int) {
	m.flush()
	sv := make([]int, len(vs))
	for i, v := range vs {
		sv[i] = m.vertex(v)
	}
	m.solver.warmStart(sv)
}

// raiseDual raises the dual of vertex v by x (in the engine's scale):
// the duals stay feasible, and the next compute does the rest. The engine
// raises the duals of players whose edges it has just made heavier, by as
// much, so that their pairs stay tight (see pairAcross).
func (m *matcher) raiseDual(v int, x weight) {
	m.flush()
	double(m.buf, x)
	sv := m.vertex(v)
	add(m.solver.dual[sv], m.solver.dual[sv], m.buf)
	m.solver.markDirty(sv)
	m.solver.settled = false
}

// decide takes the pair (a, b), matched now, out of the graph for good
// (fixAll), but only at the next change of the graph (a weight set, a pair fixed, a
// warm start) or matching computed, or when flush is called: until then
// the matching stays current for bestPartner, which leaves the pair as it
// is. Fixing a pair inside a blossom dissolves it, and pairing again what
// that frees is a search; decided pairs are fixed together, with one.
func (m *matcher) decide(a, b int) {
	sa, sb := m.vertex(a), m.vertex(b)
	if mate := m.solver.mate[sa]; sa == sb || mate < 0 || m.solver.endpoint(mate) != sb {
		panic("pairing: fixing a pair that is not matched")
	}
	m.solver.decided[sa], m.solver.decided[sb] = true, true
	m.pending = append(m.pending, sa, sb)
}

// current reports whether the last matching computed is still optimal:
// no weight changed and no pair was fixed since.
func (m *matcher) current() bool { return m.solver.settled }

// flush fixes the decided pairs.
func (m *matcher) flush() {
	if len(m.pending) == 0 {
		return
	}
	for _, v := range m.pending {
		m.solver.decided[v] = false
	}
	m.solver.fixAll(m.pending)
	m.pending = m.pending[:0]
}

// checkMatching, when set (by tests), is called with every matching
// computed.
var checkMatching func(m *matcher, mate []int)

// compute returns, for every vertex, its partner in a maximum weight
// matching, or the vertex itself when it is unmatched, in a buffer that
// the next call overwrites: the engine computes a thousand matchings a
// round and reads only the last.
func (m *matcher) compute() []int {
	m.flush()
	m.calls++
	mate := m.solver.solve()
	if checkMatching != nil {
		checkMatching(m, mate)
	}
	if m.out == nil {
		m.out = make([]int, m.n)
	}
	for sv := range mate {
		m.record(sv)
	}
	return m.out
}
