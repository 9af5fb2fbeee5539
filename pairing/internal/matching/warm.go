package matching

// Warm starts.
//
// When the caller turns to a new group of vertices, it sets the weights of
// every pair among them at once. Repairing the duals vertex
// by vertex then unmatches nearly all of them, and the searches that follow
// re-pair hundreds of roots a few at a time, each stage reaching through
// the near-complete graph of tight edges below the group. Most of that
// work concerns the group alone, so warmStart first solves the group as
// a graph of its own, small and fresh, and takes its matching and duals as
// the start: within the group they are optimal already. Edges to the rest
// may not be feasible with them, and the old partners outside lose their
// match: the usual repair and search put that right, on a few vertices.

// WarmStart replaces the matching and duals of the vertices vs (alive, not
// fixed) by an optimal solution of the graph they span, and marks them for
// repair.
func (s *blossomSolver) warmStart(vs []int) {
	if !s.started {
		return // the first matching starts fresh anyway
	}
	s.settled = false
	n := s.n
	m := len(vs)
	sub := newBlossomSolverPool(m, s.words, s.pool)
	// The sub-solver borrows the weight ids without counting them: the
	// edges of s hold them, and do not change while it lives.
	for i, a := range vs {
		row, subRow := s.sq[a*n:(a+1)*n], sub.sq[i*m:(i+1)*m]
		adj := sub.adj[i*sub.rows : (i+1)*sub.rows]
		for j, b := range vs {
			if id := row[b]; id != 0 {
				subRow[j] = id
				adj[j/64] |= 1 << uint(j%64)
			}
		}
	}
	sub.solve()
	// The main solver takes no blossoms from it: moving their duals onto
	// their vertices keeps the edges inside tight.
	for v := range vs {
		for sub.inblossom[v] != v {
			sub.dissolveAround(v)
		}
	}
	for _, v := range vs {
		for s.inblossom[v] != v {
			s.dissolveAround(v)
		}
	}
	for _, v := range vs {
		if p := s.mate[v]; p >= 0 {
			s.mate[s.endpoint(p)] = -1
			s.mate[v] = -1
		}
	}
	for i, v := range vs {
		copy(s.dual[v], sub.dual[i])
		if p := sub.mate[i]; p >= 0 {
			s.mate[v] = remote(v, vs[sub.endpoint(p)])
		}
		s.markDirty(v)
	}
}
