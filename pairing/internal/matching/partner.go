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
	if s.mate[v] < 0 || s.mate[u] < 0 {
		return nil
	}
	w, x := s.endpoint(s.mate[v]), s.endpoint(s.mate[u])
	bv, bu, bw, bx := s.inblossom[v], s.inblossom[u], s.inblossom[w], s.inblossom[x]
	if bv == bu || bv == bw || bv == bx || bu == bw || bu == bx || bw == bx {
		return nil
	}
	if !s.tightEdge(v, u) {
		return nil
	}
	// seen marks the top-level blossoms on the cycle so far; prev[i] for
	// the outer vertex queue[i] is the index of the outer vertex before
	// it and the vertex between them, matched to it now.
	seen := s.seen
	marked := []int{bv, bu, bw, bx}
	defer func() {
		for _, b := range marked {
			seen[b] = false
		}
	}()
	for _, b := range marked {
		seen[b] = true
	}
	type step struct{ from, via int }
	queue, prev := []int{x}, []step{{-1, -1}}
	for i := 0; i < len(queue) && i < budget; i++ {
		o := queue[i]
		row := s.sq[o*s.n : (o+1)*s.n]
		if s.tightEdge(o, w) {
			// Found: w pairs with o, and each vertex between with the
			// outer vertex before it.
			changed := []int{v, u}
			s.mate[v], s.mate[u] = remote(v, u), remote(u, v)
			for a, b := w, i; ; {
				o := queue[b]
				s.mate[a], s.mate[o] = remote(a, o), remote(o, a)
				changed = append(changed, a, o)
				if prev[b].from < 0 {
					return changed
				}
				a, b = prev[b].via, prev[b].from
			}
		}
		if len(queue) >= budget {
			continue // no room for more
		}
		for j := range s.rows {
			for word := s.adj[o*s.rows+j] & s.aliveBits[j]; word != 0; word &= word - 1 {
				y := j*64 + bits.TrailingZeros64(word)
				by := s.inblossom[y]
				if seen[by] || s.blossombase[by] != y || s.mate[y] < 0 || s.decided[y] || !s.tightID(o, y, row[y]) {
					continue
				}
				// As a base, y is matched outside its blossom, to the
				// base of another, which is not marked: the marked
				// blossoms come in matched pairs, and by is not one.
				z := s.endpoint(s.mate[y])
				bz := s.inblossom[z]
				seen[by], seen[bz] = true, true
				marked = append(marked, by, bz)
				queue = append(queue, z)
				prev = append(prev, step{i, y})
			}
		}
	}
	return nil
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
	for _, list := range [2][]int{upper, lower} {
		for _, v := range list {
			sv := m.vertex(v)
			for s.inblossom[sv] != sv {
				s.dissolveAround(sv)
			}
		}
	}
	s.settled = false
	in := make([]int8, m.n) // 1 upper, 2 lower
	for _, v := range upper {
		in[v] = 1
	}
	for _, v := range lower {
		in[v] = 2
	}
	side := func(sv int) int8 {
		if sv == m.phantom {
			return 0
		}
		return in[m.engine(sv)]
	}
	for _, a := range upper {
		sa := m.vertex(a)
		if s.mate[sa] < 0 || s.decided[sa] || side(s.endpoint(s.mate[sa])) != 1 {
			continue
		}
		for _, b := range lower {
			sb := m.vertex(b)
			if s.mate[sb] < 0 || s.decided[sb] || side(s.endpoint(s.mate[sb])) != 2 {
				continue
			}
			if s.swapPartner(sa, sb, 1) != nil {
				break
			}
		}
	}
}
