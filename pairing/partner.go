package pairing

// Choosing a partner without a search.
//
// The engine pairs each S1 player with the highest S2 player that some
// maximum weight matching gives it: it nudges the weights of the player's
// edges, best candidate most, and computes again, once per S1 player, a
// thousand times in a late round of 2,000 players. Each such matching
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

// bestPartner returns the first of cands (engine vertices, best first)
// that a maximum weight matching may pair with v, and makes the matching
// pair them, updating the result of the last compute in place. It answers
// only when the duals settle it cheaply, as described above; ok is false
// otherwise, and then the matching is unchanged. The last compute must be
// current (no weight changed and no pair fixed since), or ok is false.
func (m *matcher) bestPartner(v int, cands []int) (partner int, ok bool) {
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
			// The blossoms' duals would count: leave it to the search.
			return 0, false
		case s.sq[sv*s.n+u] == 0 || !s.tightID(sv, u, s.sq[sv*s.n+u]):
			continue // in no maximum weight matching
		}
		if !s.swapPartner(sv, u) {
			return 0, false
		}
		for _, x := range [4]int{sv, u, mv, s.endpoint(s.mate[mv])} {
			m.record(x)
		}
		return c, true
	}
	if mv == m.phantom {
		return 0, false // the engine pairs v; the search says how
	}
	return m.engine(mv), true
}

// engine returns the engine's number for the solver's vertex sv.
func (m *matcher) engine(sv int) int {
	if m.inv == nil {
		return sv
	}
	return m.inv[sv]
}

// record copies the partner of the solver's vertex sv into the result of
// the last compute.
func (m *matcher) record(sv int) {
	if sv == m.phantom {
		return
	}
	v := m.engine(sv)
	m.out[v] = v
	if p := m.solver.mate[sv]; p >= 0 && m.solver.endpoint(p) != m.phantom {
		m.out[v] = m.engine(m.solver.endpoint(p))
	}
}

// swapPartner pairs v with u, and their partners w and x with each other,
// when that keeps the matching optimal and every blossom as it is: the
// four are matched, in four different top-level blossoms (each then
// their base, so that the bases stay), and the edges (v, u) and (w, x)
// are tight. The matching must be optimal (settled).
func (s *blossomSolver) swapPartner(v, u int) bool {
	if s.mate[v] < 0 || s.mate[u] < 0 {
		return false
	}
	w, x := s.endpoint(s.mate[v]), s.endpoint(s.mate[u])
	bv, bu, bw, bx := s.inblossom[v], s.inblossom[u], s.inblossom[w], s.inblossom[x]
	if bv == bu || bv == bw || bv == bx || bu == bw || bu == bx || bw == bx {
		return false
	}
	for _, e := range [2][2]int{{v, u}, {w, x}} {
		id := s.sq[e[0]*s.n+e[1]]
		if id == 0 || !s.tightID(e[0], e[1], id) {
			return false
		}
	}
	s.mate[v], s.mate[u] = remote(v, u), remote(u, v)
	s.mate[w], s.mate[x] = remote(w, x), remote(x, w)
	return true
}
