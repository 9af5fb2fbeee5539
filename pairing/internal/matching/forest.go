package matching

// Several augmentations per stage.
//
// A stage grows alternating trees from every deficient root at once. The
// classic algorithm ends the stage at the first augmentation and grows all
// trees again from scratch; when the caller turns to a new group, and hundreds of
// roots wait and each augmentation joins only two of them, much of the work
// went into growing the same trees again. Here, until the stage's first
// dual change, a stage goes on after an augmentation: only the two trees it
// used are dissolved (their vertices unlabelled, their outer blossoms of
// zero dual expanded, as at the end of a stage), and the other trees stay as
// they are. Duals have not changed, so the rest of the forest is valid, and
// the least-slack edges are not kept yet in that part of a stage: the
// first dual change computes them from the labels as they are. After it,
// an augmentation ends the stage as before, since the least-slack edges
// would then point at dissolved trees.
//
// Edges are allowed when tight, tested each time: the classic flag that
// caches it would be stale for the vertices of a dissolved tree.

// treeOf returns the tree (its root vertex) of the top-level blossom that
// entered the forest through labelend p, or a new tree rooted at w if p is
// -1.
func (s *blossomSolver) treeOf(w, p int) int {
	if p == -1 {
		return w
	}
	return s.tree[s.inblossom[s.endpoint(p)]]
}

// dropTrees dissolves the trees rooted at r1 and r2, which have just
// augmented, and reports whether any tree is left.
func (s *blossomSolver) dropTrees(r1, r2 int) bool {
	if !s.unlabelTrees(r1, r2) {
		return false
	}
	s.unreachFromDropped()
	// The queue keeps outer vertices of the other trees only.
	q := s.queue[:0]
	for _, v := range s.queue[s.qhead:] {
		if s.label[s.inblossom[v]] == 1 {
			q = append(q, v)
		}
	}
	s.queue, s.qhead = q, 0
	return true
}

// unlabelTrees unlabels the blossoms of the trees rooted at r1 and r2,
// expanding their outer blossoms of zero dual, and reports whether another
// tree has an outer blossom left.
func (s *blossomSolver) unlabelTrees(r1, r2 int) bool {
	dropped := s.dropped[:0]
	left := false
	for _, v := range s.alive {
		b := s.inblossom[v]
		if s.label[b] == 0 || s.seen[b] {
			continue
		}
		if t := s.tree[b]; t != r1 && t != r2 {
			left = left || s.label[b] == 1
			continue
		}
		s.seen[b] = true
		dropped = append(dropped, b)
	}
	for _, b := range dropped {
		s.seen[b] = false
		outer := s.label[b] == 1
		s.unlabel(b)
		if outer && b >= s.n && s.dual[b].IsZero() {
			s.expandBlossom(b, true)
		}
	}
	s.dropped = dropped
	return left
}

// unreachFromDropped unlabels the vertices inside inner blossoms of the
// trees left that were reached from a dropped tree.
func (s *blossomSolver) unreachFromDropped() {
	for _, w := range s.alive {
		if s.label[w] != 2 || s.label[s.inblossom[w]] != 2 || s.inblossom[w] == w {
			continue
		}
		if p := s.labelend[w]; p >= 0 && s.label[s.inblossom[s.endpoint(p)]] != 1 {
			s.label[w], s.labelend[w] = 0, -1
			s.reached[w/64] &^= 1 << uint(w%64)
		}
	}
}

// unlabel clears the labels of blossom b and everything inside it.
func (s *blossomSolver) unlabel(b int) {
	s.label[b], s.labelend[b], s.bestedge[b] = 0, -1, -1
	if b < s.n {
		s.outer[b/64] &^= 1 << uint(b%64)
		s.reached[b/64] &^= 1 << uint(b%64)
		return
	}
	for _, c := range s.blossomchilds[b] {
		s.unlabel(c)
	}
}
