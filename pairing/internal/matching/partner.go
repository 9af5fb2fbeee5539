package matching

import "math/bits"

// Choosing a partner without a search.
//
// A caller that wants each of a list of vertices paired with the first of
// its candidates that some maximum weight matching gives it can nudge the
// weights of the vertex's edges, best candidate most, and compute again,
// once per vertex: a thousand times on a graph of 2,000 vertices. Each such matching
// grows trees through the near-complete graph of tight edges and works out
// least-slack edges across it.
//
// Most of the time optimal duals answer the question at once. By
// complementary slackness, every maximum weight matching uses only edges
// that are tight under optimal duals (counting the duals of the blossoms
// holding both ends), so a candidate joined by a slack edge is out. And
// the best candidate left is usually one swap away: with v matched to w
// and the candidate u to x, the matching that pairs (v, u) and (w, x)
// instead has the same weight when both new edges are tight, and so is of
// maximum weight as well. bestPartner does that, and leaves the rest, a
// few in a hundred, to the nudged search.

// BestPartner returns the first of cands (engine vertices, best first)
// that a maximum weight matching may pair with v, and makes the matching
// pair them, updating the result of the last compute in place. It answers
// only when the duals settle it cheaply, as described above; ok is false
// otherwise, and when none of cands may be v's partner, and then the
// matching is unchanged. The last compute must be current (no weight
// changed and no pair fixed since), or ok is false.
func (m *Matcher) BestPartner(v int, cands []int) (partner int, ok bool) {
	s := m.solver
	if !s.settled {
		return 0, false
	}
	sv := m.vertex(v)
	if s.mate[sv] < 0 {
		return 0, false
	}
	mv := s.endpoint(s.mate[sv])
	for _, c := range cands {
		u := m.vertex(c)
		switch {
		case u == mv:
			return c, true
		case s.inblossom[u] == s.inblossom[sv]:
			// The duals of the blossoms around both count too; a swap
			// inside one would change it: leave that to the search.
			if s.blossomSlackPositive(sv, u) {
				continue
			}
			return 0, false
		case !s.tightEdge(sv, u):
			continue // in no maximum weight matching
		}
		changed := s.swapPartner(sv, u, 64)
		if changed == nil {
			return 0, false
		}
		for _, x := range changed {
			m.record(x)
		}
		return c, true
	}
	return 0, false // the engine expects one of them; the search says
}

// engine returns the engine's number for the solver's vertex sv.
func (m *Matcher) engine(sv int) int {
	if m.inv == nil {
		return sv
	}
	return m.inv[sv]
}

// record copies the partner of the solver's vertex sv into the result of
// the last compute.
func (m *Matcher) record(sv int) {
	if sv == m.phantom {
		return
	}
	v := m.engine(sv)
	m.out[v] = v
	if p := m.solver.mate[sv]; p >= 0 && m.solver.endpoint(p) != m.phantom {
		m.out[v] = m.engine(m.solver.endpoint(p))
	}
}

// blossomSlackPositive reports whether the edge (v, u), both in one
// top-level blossom, is slack once the duals of the blossoms holding both
// count, as an edge inside a blossom must: absent edges count as slack.
func (s *blossomSolver) blossomSlackPositive(v, u int) bool {
	id := s.sq[v*s.n+u]
	if id == 0 {
		return true
	}
	sl := s.slackAt(s.cand, v, u, id)
	// The blossoms holding both: those on v's way up from the first that
	// holds u.
	b := s.blossomparent[v]
	for b != -1 && s.leafBits[(b-s.n)*s.rows+u/64]&(1<<uint(u%64)) == 0 {
		b = s.blossomparent[b]
	}
	for ; b != -1; b = s.blossomparent[b] {
		add(sl, sl, s.dual[b])
		add(sl, sl, s.dual[b])
	}
	return !sl.IsZero()
}

// swapPartner pairs v with u when that keeps the weight of the matching
// and every blossom as it is, and returns the vertices whose partner
// changed, or nil. v is matched to w and u to x, and the edge (v, u) must
// be tight. Pairing v with u leaves w and x to be paired again, along an
// alternating path of tight edges from x to w: the new matching covers the
// same vertices with tight edges, so it has the same weight, and is
// optimal if the old one was. Every vertex on the way must be the base of
// a top-level blossom of its own, so that no blossom changes. The path is
// searched breadth first, from at most budget vertices: most are one
// edge, (x, w).
func (s *blossomSolver) swapPartner(v, u, budget int) []int {
	w, x, ok := s.swappable(v, u)
	if !ok {
		return nil
	}
	sw := &s.swap
	sw.start(x)
	defer sw.unmark(s.seen)
	sw.mark(s.seen, s.inblossom[v], s.inblossom[u], s.inblossom[w], s.inblossom[x])
	for i := 0; i < len(sw.queue) && i < budget; i++ {
		o := sw.queue[i]
		if s.tightEdge(o, w) {
			return s.swapAlong(sw, v, u, w, i)
		}
		if len(sw.queue) < budget { // else no room for more
			s.growSwap(sw, o, i)
		}
	}
	return nil
}

// swappable reports whether v and u, joined by a tight edge, are matched,
// to w and x, with all four in top-level blossoms of their own.
func (s *blossomSolver) swappable(v, u int) (w, x int, ok bool) {
	if s.mate[v] < 0 || s.mate[u] < 0 {
		return 0, 0, false
	}
	w, x = s.endpoint(s.mate[v]), s.endpoint(s.mate[u])
	bv, bu, bw, bx := s.inblossom[v], s.inblossom[u], s.inblossom[w], s.inblossom[x]
	if bv == bu || bv == bw || bv == bx || bu == bw || bu == bx || bw == bx {
		return 0, 0, false
	}
	return w, x, s.tightEdge(v, u)
}

// swapSearch is the breadth-first search of swapPartner. queue holds the
// outer vertices of the paths, first x; prev[i] for queue[i] is the
// index of the outer vertex before it and the vertex between them,
// matched to it now. marked lists the top-level blossoms on the cycle so
// far, marked in the solver's seen.
type swapSearch struct {
	queue  []int
	prev   []swapStep
	marked []int
}

// swapStep is a step of a swapSearch path: from the outer vertex at index
// from, via the vertex matched to the one reached.
type swapStep struct{ from, via int }

// start empties the search, keeping its buffers, and starts it from x.
func (sw *swapSearch) start(x int) {
	sw.queue = append(sw.queue[:0], x)
	sw.prev = append(sw.prev[:0], swapStep{-1, -1})
	sw.marked = sw.marked[:0]
}

// mark marks the blossoms bs in seen.
func (sw *swapSearch) mark(seen []bool, bs ...int) {
	for _, b := range bs {
		seen[b] = true
	}
	sw.marked = append(sw.marked, bs...)
}

// unmark clears the marks in seen.
func (sw *swapSearch) unmark(seen []bool) {
	for _, b := range sw.marked {
		seen[b] = false
	}
}

// growSwap queues, after the outer vertex o at index i, the partners of
// the unmarked bases joined to o by a tight edge and not yet decided.
func (s *blossomSolver) growSwap(sw *swapSearch, o, i int) {
	row := s.sq[o*s.n : (o+1)*s.n]
	for j := range s.rows {
		for word := s.adj[o*s.rows+j] & s.aliveBits[j]; word != 0; word &= word - 1 {
			y := j*64 + bits.TrailingZeros64(word)
			by := s.inblossom[y]
			if s.seen[by] || s.blossombase[by] != y || s.mate[y] < 0 || s.decided[y] || !s.tightID(o, y, row[y]) {
				continue
			}
			// As a base, y is matched outside its blossom, to the
			// base of another, which is not marked: the marked
			// blossoms come in matched pairs, and by is not one.
			z := s.endpoint(s.mate[y])
			sw.mark(s.seen, by, s.inblossom[z])
			sw.queue = append(sw.queue, z)
			sw.prev = append(sw.prev, swapStep{i, y})
		}
	}
}

// swapAlong pairs v with u, w with the outer vertex at index i of the
// search, and each vertex between with the outer vertex before it, and
// returns the vertices whose partner changed.
func (s *blossomSolver) swapAlong(sw *swapSearch, v, u, w, i int) []int {
	changed := []int{v, u}
	s.mate[v], s.mate[u] = remote(v, u), remote(u, v)
	for a, b := w, i; ; {
		o := sw.queue[b]
		s.mate[a], s.mate[o] = remote(a, o), remote(o, a)
		changed = append(changed, a, o)
		if sw.prev[b].from < 0 {
			return changed
		}
		a, b = sw.prev[b].via, sw.prev[b].from
	}
}

// PairAcross pairs vertices of upper with vertices of lower instead of
// among themselves wherever a swap of two pairs along tight edges does it
// (swapPartner along one edge), before the engine makes the edges of such
// pairs heavier: with raiseDual, those pairs then stay tight, and the
// next matching has to pair again only the rest. The blossoms around the
// vertices are dissolved first, as the changes to come would dissolve them
// anyway. The swaps keep the weight and every matched edge tight, but the
// dissolving frees the bases of blossoms with positive duals: the matching
// is optimal again only after the next compute, which must follow, and
// until then the result of the last one is stale.
func (m *Matcher) PairAcross(upper, lower []int) {
	m.Flush()
	s := m.solver
	if !s.started {
		return
	}
	m.dissolveAll(upper)
	m.dissolveAll(lower)
	s.settled = false
	side := make([]int8, m.n) // by engine vertex: 1 upper, 2 lower
	markSides(side, upper, lower)
	for _, a := range upper {
		sa := m.vertex(a)
		if !m.pairedOnSide(sa, side, 1) {
			continue
		}
		for _, b := range lower {
			sb := m.vertex(b)
			if m.pairedOnSide(sb, side, 2) && s.swapPartner(sa, sb, 1) != nil {
				break
			}
		}
	}
}

// dissolveAll dissolves the blossoms around the engine vertices vs.
func (m *Matcher) dissolveAll(vs []int) {
	s := m.solver
	for _, v := range vs {
		sv := m.vertex(v)
		for s.inblossom[sv] != sv {
			s.dissolveAround(sv)
		}
	}
}

// markSides sets side[v] to 1 for the engine vertices v of upper and to 2
// for those of lower.
func markSides(side []int8, upper, lower []int) {
	for _, v := range upper {
		side[v] = 1
	}
	for _, v := range lower {
		side[v] = 2
	}
}

// pairedOnSide reports whether the solver vertex sv is matched, not
// decided, and to a vertex of the engine whose side (as markSides set
// it) is want.
func (m *Matcher) pairedOnSide(sv int, side []int8, want int8) bool {
	s := m.solver
	if s.mate[sv] < 0 || s.decided[sv] {
		return false
	}
	o := s.endpoint(s.mate[sv])
	return o != m.phantom && side[m.engine(o)] == want
}
