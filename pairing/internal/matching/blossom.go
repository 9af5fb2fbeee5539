package matching

import "math/bits"

// This file implements maximum weight matching in general graphs with
// Edmonds' blossom algorithm in its primal-dual form (Galil, "Efficient
// algorithms for finding maximum matching in graphs", 1986), structured
// after Joris van Rantwijk's well-known reference implementation, with two
// extensions:
//
//   - Weights are multi-word integers. Vertex duals are kept doubled so
//     that all arithmetic stays integral and non-negative.
//   - The solver is incremental. The pairing engine changes the weights of
//     the edges at one or two vertices and asks again, hundreds of times per
//     round. Instead of starting over, the solver repairs the optimal
//     primal-dual pair it has: blossoms around a changed vertex are
//     dissolved (their dual moved onto their vertices), and the vertex gets
//     the least feasible dual; if its matched edge is no longer tight it is
//     unmatched. The search then grows alternating trees only from free
//     vertices whose dual is still positive ("deficient"); a stage ends when
//     a tree augments, when a root's dual reaches zero, or when an inner
//     vertex's dual reaches zero (the path to it is then flipped, freeing
//     that vertex with a zero dual). Deficient roots are kept at one parity
//     so that slacks between trees stay even. Each stage first matches
//     deficient vertices joined by tight edges directly. Complementary
//     slackness holds at the end exactly as in the original algorithm; only
//     the number of stages shrinks from O(n) to about the number of changed
//     vertices.
//
// What makes it fast enough for thousands of vertices:
//
//   - Edge weights are ids into a pool of distinct weights (pool.go), 4
//     bytes an edge instead of a multi-word weight, kept by rows (sq) for
//     the scans of a vertex's edges, which are most of the work; the
//     algorithm finds edge k's through its ends.
//   - A stage keeps no least-slack edges until its first dual change
//     (eager): most stages augment along tight edges before any, and the
//     bookkeeping would be wasted. findBestEdges computes them when needed.
//   - The slack of each best edge is cached until the duals change, with
//     the index of its top nonzero word; a candidate whose slack is surely
//     larger in that word is dropped without computing it.
//   - The scans take an edge's weight id from the row they walk and pass
//     it down, instead of looking it up again by edge number, and the
//     tight test decides on the lowest word inline.
//   - A blossom formed after the stage's first dual change does not work
//     out its least-slack edges to other S-blossoms from its children's
//     lists, as the reference does; the next dual change scans the
//     edges of its vertices to outer ones, through bit sets, if it is
//     still a blossom of its own then (refreshStale). Near the group the caller works on, a
//     blossom is swallowed by the next hundreds of times in a row.
//   - A vertex's scan walks bit sets (rows of edges, live vertices, the
//     vertices of its blossom, vertices reached inside T-blossoms) a word
//     at a time: late in a round most of the graph is one big blossom.
//   - Until its first dual change, a stage goes on after an augmentation
//     with the trees that did not take part (forest.go).
//   - The trees grow breadth first, so short augmenting paths are found
//     before a tree spreads through the near-complete graph of tight edges
//     below the group. Which of several maximum weight matchings comes
//     out does not matter to the caller (pairing's shuffle_test.go), so the search
//     order is free.
//   - A pair fixed for good leaves the graph (fix) instead of having all
//     its other edges set to zero.
//   - Edges can be set by weight id (setID): the caller keeps a group's
//     weights as ids and sets most edges without building a weight.
//
// The solver is checked against exhaustive search on random graphs, fresh
// and after incremental changes (blossom_test.go).

type blossomSolver struct {
	n, words int
	// sq[a*n+b] = sq[b*n+a] is the doubled weight of edge (a, b) as an id
	// into pool, 0 for no edge; by rows, for the scans.
	sq        []uint32
	pool      *weightPool
	ends      []uint16 // ends[2k], ends[2k+1]: larger and smaller vertex of edge k
	dirty     []bool
	dirtyList []int
	// alive lists, in order, the vertices not retired: a retired vertex
	// belongs to a pair fixed for good (fix), whose other edges keep their
	// weights but count no more, so searches skip it.
	alive     []int
	aliveBits []uint64 // alive as a bit set
	free      []uint64 // scratch for greedy
	retired   []bool
	// The scans walk bit sets of rows words each: adj has bit w of row v
	// set when (v, w) is an edge, and leafBits row b-n holds the vertices
	// of blossom b. A vertex's scan then skips absent edges, retired
	// vertices and its own blossom a word at a time: late in a round most
	// of the graph is one big blossom of tight edges.
	rows     int
	adj      []uint64
	leafBits []uint64
	// reached has a bit for each vertex reached inside a T-blossom
	// (label[w] != 0 under a T label): edges to those can do nothing, and
	// in a stage that labels a large part of the graph they are half of it.
	reached []uint64
	// tree[b] is the root of the alternating tree that the labelled
	// top-level blossom b belongs to (forest.go).
	tree    []int
	dropped []int
	seen    []bool // scratch by blossom, all false between calls
	// swap is swapPartner's search, kept for its buffers (partner.go).
	swap    swapSearch
	started bool
	// settled says that no weight or pair changed since the last solve:
	// the matching and duals are optimal (see partner.go).
	settled bool
	// decided marks the vertices of pairs decided but not yet fixed
	// (matcher.decide): swaps leave them alone.
	decided []bool

	mate          []int
	out           []int
	label         []int
	labelend      []int
	inblossom     []int
	blossomparent []int
	blossomchilds [][]int
	blossombase   []int
	blossomendps  [][]int
	bestedge      []int
	unused        []int
	dual          []Weight
	dualWords     []uint64 // the duals' words: dual[v] is dualWords[v*words:]
	queue         []int
	qhead         int // queue[qhead:] waits to be scanned
	// eager says whether this stage keeps the least-slack edges
	// (bestedge) up to date. Most stages end in an
	// augmentation along tight edges before any dual change, so a stage
	// starts without them and computes them at its first dual change.
	eager bool
	// outer has a bit for every vertex queued in this stage: a superset of
	// the vertices in S-blossoms, for scans that only look at those.
	outer     []uint64
	tmp, tmp2 Weight
	// stale lists the blossoms formed in an eager stage whose least-slack
	// edges are not known yet.
	stale []int

	// The slack of bestedge[b], cached until the vertex duals change
	// (epoch): the scan compares against it once per edge it looks at.
	epoch   uint64
	bsKey   []bestKey
	bsSlack []Weight
	bsTop   []int // index of the top nonzero word of bsSlack[b], or -1
	cand    Weight
	fbeBest Weight // scratch for findBestEdges
}

// bestKey says for which epoch and edge a cached best slack was computed.
type bestKey struct {
	epoch uint64
	edge  int
}

func tri(a, b int) int {
	if a < b {
		a, b = b, a
	}
	return a*(a-1)/2 + b
}

func newBlossomSolver(n, words int) *blossomSolver {
	return newBlossomSolverPool(n, words, newWeightPool(words))
}

// newBlossomSolverPool returns a solver whose weights are ids of pool.
func newBlossomSolverPool(n, words int, pool *weightPool) *blossomSolver {
	s := &blossomSolver{n: n, words: words}
	m := n * (n - 1) / 2
	s.pool = pool
	s.ends = make([]uint16, 2*m)
	for a := 1; a < n; a++ {
		for b := 0; b < a; b++ {
			k := tri(a, b)
			s.ends[2*k], s.ends[2*k+1] = uint16(a), uint16(b)
		}
	}
	s.dirty = make([]bool, n)
	s.retired = make([]bool, n)
	s.decided = make([]bool, n)
	s.rows = (n + 63) / 64
	s.adj = make([]uint64, n*s.rows)
	s.leafBits = make([]uint64, n*s.rows)
	s.aliveBits = make([]uint64, s.rows)
	s.free = make([]uint64, s.rows)
	s.reached = make([]uint64, s.rows)
	s.tree = make([]int, 2*n)
	s.seen = make([]bool, 2*n)
	s.rebuildAlive()
	s.mate = make([]int, n)
	s.out = make([]int, n)
	s.label = make([]int, 2*n)
	s.labelend = make([]int, 2*n)
	s.inblossom = make([]int, n)
	s.blossomparent = make([]int, 2*n)
	s.blossomchilds = make([][]int, 2*n)
	s.blossombase = make([]int, 2*n)
	s.blossomendps = make([][]int, 2*n)
	s.bestedge = make([]int, 2*n)
	s.outer = make([]uint64, (n+63)/64)
	s.dual = make([]Weight, 2*n)
	backing := make([]uint64, 2*n*words)
	s.dualWords = backing
	for i := range s.dual {
		s.dual[i] = backing[i*words : (i+1)*words : (i+1)*words]
	}
	s.sq = make([]uint32, n*n)
	s.bsKey = make([]bestKey, 2*n)
	s.bsTop = make([]int, 2*n)
	s.bsSlack = make([]Weight, 2*n)
	bsBacking := make([]uint64, 2*n*words)
	for i := range s.bsSlack {
		s.bsSlack[i] = bsBacking[i*words : (i+1)*words : (i+1)*words]
	}
	s.cand = NewWeight(words)
	s.fbeBest = NewWeight(words)
	s.tmp = NewWeight(words)
	s.tmp2 = NewWeight(words)
	for v := 0; v < n; v++ {
		s.mate[v] = -1
		s.inblossom[v] = v
		s.blossombase[v] = v
	}
	for b := 0; b < 2*n; b++ {
		s.blossomparent[b] = -1
		s.labelend[b] = -1
		s.bestedge[b] = -1
		if b >= n {
			s.blossombase[b] = -1
		}
	}
	for b := 2*n - 1; b >= n; b-- {
		s.unused = append(s.unused, b)
	}
	return s
}

// fixAll takes the pairs (pairs[0], pairs[1]), (pairs[2], pairs[3]), ...,
// each matched when the engine chose it, out of the graph for good: the
// searches skip them, and their other edges no longer count, though they
// keep their weights. Blossoms around them are dissolved first, which may
// free other vertices for the next search; dissolving the blossoms around
// one pair may unmatch another, at the base of one of them, and that pair
// leaves the graph all the same. Setting an edge at either vertex of a
// pair to another weight brings the pair back.
func (s *blossomSolver) fixAll(pairs []int) {
	for _, v := range pairs {
		for s.inblossom[v] != v {
			s.dissolveAround(v)
		}
	}
	for i := 0; i < len(pairs); i += 2 {
		a, b := pairs[i], pairs[i+1]
		s.mate[a], s.mate[b] = remote(a, b), remote(b, a)
		s.retired[a], s.retired[b] = true, true
	}
	s.rebuildAlive()
	s.settled = false
}

// setDoubled sets twice the weight of edge (a, b).
func (s *blossomSolver) setDoubled(a, b int, x Weight) {
	id := s.pool.acquire(x)
	s.setID(a, b, id)
	s.pool.release(id)
}

// SetID sets the doubled weight of edge (a, b) to the pool's weight id.
func (s *blossomSolver) setID(a, b int, id uint32) {
	old := s.sq[a*s.n+b]
	if old == id {
		return // the pool keeps each weight once
	}
	s.settled = false
	if s.retired[a] || s.retired[b] {
		// A fixed pair touched again goes back into the searches; their
		// duals ignored the edges of the rest while they were out.
		for _, v := range [2]int{a, b} {
			if s.retired[v] {
				u := s.endpoint(s.mate[v])
				s.retired[v], s.retired[u] = false, false
				s.markDirty(v) // retired only by fixAll, after a matching
				s.markDirty(u)
			}
		}
		s.rebuildAlive()
	}
	x := s.pool.get(id)
	increase := s.started && cmpWeight(x, s.pool.get(old)) > 0
	s.pool.ref(id)
	if (old == 0) != (id == 0) {
		s.adj[a*s.rows+b/64] ^= 1 << uint(b%64)
		s.adj[b*s.rows+a/64] ^= 1 << uint(a%64)
	}
	s.sq[a*s.n+b], s.sq[b*s.n+a] = id, id
	s.pool.release(old)
	if !s.started {
		return
	}
	// Repair is needed at a when the edge is inside a blossom (its tight
	// cycle edges must stay tight), is matched (it must stay tight), or has
	// become infeasible. A lower weight elsewhere keeps everything valid.
	switch {
	case s.inblossom[a] == s.inblossom[b]:
		s.markDirty(a)
	case s.mate[a] >= 0 && s.endpoint(s.mate[a]) == b:
		s.markDirty(a)
	case increase:
		add(s.tmp, s.dual[a], s.dual[b])
		if cmpWeight(s.tmp, x) < 0 {
			s.markDirty(a)
		}
	}
}

// SetRow sets the doubled weights of the edges (a, b), for every b < a,
// to the pool's ids in ids[b]. Before the first matching, with no edge at
// a set yet, it writes them directly: the engine sets every edge of the
// round this way, millions at 2,000 vertices.
func (s *blossomSolver) setRow(a int, ids []uint32) {
	row := s.sq[a*s.n : a*s.n+a]
	s.settled = false
	fresh := !s.started
	for _, id := range row {
		fresh = fresh && id == 0
	}
	if !fresh {
		for b, id := range ids {
			s.setID(a, b, id)
		}
		return
	}
	adj := s.adj[a*s.rows : (a+1)*s.rows]
	for b, id := range ids {
		if id == 0 {
			continue
		}
		s.pool.ref(id)
		row[b], s.sq[b*s.n+a] = id, id
		adj[b/64] |= 1 << uint(b%64)
		s.adj[b*s.rows+a/64] |= 1 << uint(a%64)
	}
}

// rebuildAlive lists the vertices not retired, in order.
func (s *blossomSolver) rebuildAlive() {
	s.alive = s.alive[:0]
	clear(s.aliveBits)
	for v := 0; v < s.n; v++ {
		if !s.retired[v] {
			s.alive = append(s.alive, v)
			s.aliveBits[v/64] |= 1 << uint(v%64)
		}
	}
}

// scanWord returns word i of the bit set of v's neighbours that v's scans
// look at: alive, joined by an edge, outside v's top-level blossom bv, and
// not reached inside a T-blossom.
func (s *blossomSolver) scanWord(v, bv, i int) uint64 {
	word := s.adj[v*s.rows+i] & s.aliveBits[i] &^ s.reached[i]
	if bv >= s.n {
		word &^= s.leafBits[(bv-s.n)*s.rows+i]
	}
	return word
}

func (s *blossomSolver) markDirty(v int) {
	if !s.dirty[v] {
		s.dirty[v] = true
		s.dirtyList = append(s.dirtyList, v)
	}
}

// id returns the weight id of edge k.
func (s *blossomSolver) id(k int) uint32 { return s.sq[int(s.ends[2*k])*s.n+int(s.ends[2*k+1])] }

// remote returns the endpoint index p of edge (v, u) at u's end.
func remote(v, u int) int {
	k := tri(v, u)
	if u > v {
		return 2 * k
	}
	return 2*k + 1
}

func (s *blossomSolver) endpoint(p int) int { return int(s.ends[p]) }

func (s *blossomSolver) slack(dst Weight, k int) Weight {
	return s.slackAt(dst, int(s.ends[2*k]), int(s.ends[2*k+1]), s.id(k))
}

// slackAt is slack for the edge between i and j with weight id; the scans
// have all three at hand and so skip the lookups by edge number.
func (s *blossomSolver) slackAt(dst Weight, i, j int, id uint32) Weight {
	x, y, w := s.dual[i], s.dual[j], s.pool.get(id)
	x, y, w = x[:len(dst)], y[:len(dst)], w[:len(dst)]
	var c, b uint64
	for t := range dst {
		var v uint64
		v, c = bits.Add64(x[t], y[t], c)
		dst[t], b = bits.Sub64(v, w[t], b)
	}
	return dst
}

// tight reports whether edge k has zero slack.
func (s *blossomSolver) tight(k int) bool {
	return s.tightAt(int(s.ends[2*k]), int(s.ends[2*k+1]), k)
}

// tightAt is tight for edge k between vertices i and j.
func (s *blossomSolver) tightAt(i, j, k int) bool { return s.tightID(i, j, s.id(k)) }

// tightID is tight for the edge between i and j with weight id. The
// lowest word decides most calls, so it is checked inline first.
func (s *blossomSolver) tightID(i, j int, id uint32) bool {
	k := s.words
	if s.dualWords[i*k]+s.dualWords[j*k] != s.pool.data[int(id)*k] {
		return false
	}
	return tightRest(s.dual[i], s.dual[j], s.pool.get(id))
}

// tightEdge reports whether i and j are joined by an edge of zero slack.
func (s *blossomSolver) tightEdge(i, j int) bool {
	id := s.sq[i*s.n+j]
	return id != 0 && s.tightID(i, j, id)
}

// tightRest reports whether x+y-w is zero, given that its lowest word is:
// that word borrows nothing, and carries what x[0]+y[0] does.
func tightRest(x, y, w Weight) bool {
	_, c := bits.Add64(x[0], y[0], 0)
	var b uint64
	y, w = y[:len(x)], w[:len(x)]
	for t := 1; t < len(x); t++ {
		var v uint64
		v, c = bits.Add64(x[t], y[t], c)
		v, b = bits.Sub64(v, w[t], b)
		if v != 0 {
			return false
		}
	}
	return true
}

// bestSlack returns the slack of bestedge[b], which must be set.
func (s *blossomSolver) bestSlack(b int) Weight {
	if s.bsKey[b] != (bestKey{s.epoch, s.bestedge[b]}) {
		s.refreshBestSlack(b)
	}
	return s.bsSlack[b]
}

// refreshBestSlack recomputes the cached slack of bestedge[b].
func (s *blossomSolver) refreshBestSlack(b int) {
	s.slack(s.bsSlack[b], s.bestedge[b])
	s.bsKey[b] = bestKey{s.epoch, s.bestedge[b]}
	s.bsTop[b] = topWord(s.bsSlack[b])
}

// topWord returns the index of w's top nonzero word, or -1 if w is zero.
func topWord(w Weight) int {
	for t := len(w) - 1; t >= 0; t-- {
		if w[t] != 0 {
			return t
		}
	}
	return -1
}

// setBest makes k, whose slack is sl, the best edge of b.
func (s *blossomSolver) setBest(b, k int, sl Weight) {
	s.bestedge[b] = k
	copy(s.bsSlack[b], sl)
	s.bsKey[b] = bestKey{s.epoch, k}
	s.bsTop[b] = topWord(sl)
}

// offerBest makes edge k, between i and j with weight id, the best edge
// of b if its slack is smaller. The scans have i, j and id at hand.
func (s *blossomSolver) offerBest(b, k, i, j int, id uint32) {
	if s.bestedge[b] != -1 {
		// Let t be the top nonzero word of the best slack (nothing is
		// below a zero one). Word t of k's slack is the sum of the words
		// t give or take a carry from below; when that is surely larger
		// than the best's word t, so is k's slack, and k loses.
		best := s.bestSlack(b)
		t := s.bsTop[b]
		if t < 0 {
			return
		}
		nw := s.words
		est := s.dualWords[i*nw+t] + s.dualWords[j*nw+t] - s.pool.data[int(id)*nw+t]
		if est != ^uint64(0) && est >= best[t] && est-best[t] >= 2 {
			return
		}
		if sl := s.slackAt(s.cand, i, j, id); cmpWeight(sl, best) < 0 {
			s.setBest(b, k, sl)
		}
		return
	}
	s.setBest(b, k, s.slackAt(s.cand, i, j, id))
}

func (s *blossomSolver) leaves(b int, f func(v int)) {
	if b < s.n {
		f(b)
		return
	}
	for _, t := range s.blossomchilds[b] {
		if t < s.n {
			f(t) // most children are vertices: spare the call
		} else {
			s.leaves(t, f)
		}
	}
}

// setInblossom makes to the top-level blossom of every vertex in blossom b,
// through its bit set of leaves: cheaper than walking nested children.
func (s *blossomSolver) setInblossom(b, to int) {
	for i, word := range s.leafBits[(b-s.n)*s.rows : (b-s.n+1)*s.rows] {
		for ; word != 0; word &= word - 1 {
			s.inblossom[i*64+bits.TrailingZeros64(word)] = to
		}
	}
}

// solve brings the matching back to optimality after weight changes and
// returns mate[v] (the partner vertex or -1) in a buffer that the next call
// overwrites.
func (s *blossomSolver) solve() []int {
	if !s.started {
		s.started = true
		s.startDuals()
	} else {
		for _, x := range s.dirtyList {
			s.repair(x)
		}
	}
	for _, x := range s.dirtyList {
		s.dirty[x] = false
	}
	s.dirtyList = s.dirtyList[:0]
	s.evenRoots()
	s.run()
	s.settled = true
	out := s.out[:s.n]
	for v := range out {
		out[v] = -1
		if s.mate[v] >= 0 {
			out[v] = s.endpoint(s.mate[v])
		}
	}
	return out
}

// startDuals sets the first duals: the smallest uniform-free ones, half
// the heaviest edge at each vertex, rounded up (any sum covers the edge),
// then lowered.
func (s *blossomSolver) startDuals() {
	n := s.n
	for v := 0; v < n; v++ {
		d := s.dual[v]
		d.SetZero()
		for _, id := range s.sq[v*n : (v+1)*n] {
			if id != 0 && cmpWeight(s.pool.get(id), d) > 0 {
				copy(d, s.pool.get(id))
			}
		}
		odd := d[0]&1 == 1
		half(d, d)
		if odd {
			d.AddSmall(1)
		}
	}
	s.lowerDuals()
}

// evenRoots makes the duals of the free vertices even. All deficient
// roots must share one parity so that slacks between them stay even.
func (s *blossomSolver) evenRoots() {
	for _, v := range s.alive {
		if s.mate[v] != -1 || s.dual[v][0]&1 == 0 {
			continue
		}
		for s.inblossom[v] != v {
			s.dissolveAround(v)
		}
		if s.dual[v][0]&1 == 1 {
			s.dual[v].AddSmall(1)
		}
	}
}

// lowerDuals lowers each vertex's dual in turn to the least that keeps its
// edges feasible. Half the heaviest edge at each vertex is feasible but
// makes few edges tight: in a group, the heaviest edges of two vertices
// rarely lead to each other, and the first greedy matching paired one in a
// thousand. Lowered, every vertex has a tight edge (or a zero dual), and
// the greedy matching pairs most of them. A dual lowered later is still at
// least what the edges to those before it need, so all stay feasible.
func (s *blossomSolver) lowerDuals() {
	least := s.tmp2
	for _, v := range s.alive {
		s.leastDual(least, v)
		if cmpWeight(least, s.dual[v]) < 0 {
			copy(s.dual[v], least)
		}
	}
}

// zeroDualT returns a top-level T-blossom whose dual is zero, or -1.
func (s *blossomSolver) zeroDualT() int {
	for b := s.n; b < 2*s.n; b++ {
		if s.blossombase[b] >= 0 && s.blossomparent[b] == -1 && s.label[b] == 2 && s.dual[b].IsZero() {
			return b
		}
	}
	return -1
}

// deficient reports whether a free vertex has a positive dual: whether a
// search is needed.
func (s *blossomSolver) deficient() bool {
	for _, v := range s.alive {
		if s.mate[v] == -1 && !s.dual[v].IsZero() {
			return true
		}
	}
	return false
}

// greedy matches free vertices joined by a tight edge to each other: an
// augmenting path of one edge, found without growing trees.
func (s *blossomSolver) greedy() {
	// free has a bit for each free top-level vertex: the candidates.
	free := s.free
	clear(free)
	for _, v := range s.alive {
		if s.mate[v] == -1 && s.inblossom[v] == v {
			free[v/64] |= 1 << uint(v%64)
		}
	}
	for _, x := range s.alive {
		if free[x/64]&(1<<uint(x%64)) == 0 || s.dual[x].IsZero() {
			continue
		}
		row := s.sq[x*s.n : (x+1)*s.n]
	search:
		for j := range s.rows {
			for cand := s.adj[x*s.rows+j] & free[j]; cand != 0; cand &= cand - 1 {
				y := j*64 + bits.TrailingZeros64(cand)
				if s.tightID(x, y, row[y]) {
					s.mate[x] = remote(x, y)
					s.mate[y] = remote(y, x)
					free[x/64] &^= 1 << uint(x%64)
					free[y/64] &^= 1 << uint(y%64)
					break search
				}
			}
		}
	}
}

// dissolveAround dissolves the top-level blossom containing v: its dual is
// moved onto its vertices (internal slacks unchanged, external ones grow)
// and, when that unties the matched edge at its base, the edge is unmatched.
func (s *blossomSolver) dissolveAround(v int) {
	b := s.inblossom[v]
	if b < s.n {
		return
	}
	d := s.dual[b]
	if !d.IsZero() {
		s.leaves(b, func(u int) { add(s.dual[u], s.dual[u], d) })
		base := s.blossombase[b]
		if p := s.mate[base]; p >= 0 {
			s.mate[s.endpoint(p)] = -1
			s.mate[base] = -1
		}
		d.SetZero()
	}
	for _, c := range s.blossomchilds[b] {
		s.blossomparent[c] = -1
		if c < s.n {
			s.inblossom[c] = c
		} else {
			s.setInblossom(c, c)
		}
	}
	s.freeBlossom(b)
}

// repair restores dual feasibility and complementary slackness at x after
// the weights of its edges changed.
func (s *blossomSolver) repair(x int) {
	for s.inblossom[x] != x {
		s.dissolveAround(x)
	}
	// The least dual that keeps x's edges feasible: x is fine if its
	// dual is at least that and its matched edge is still tight.
	least := s.tmp2
	s.leastDual(least, x)
	if cmpWeight(s.dual[x], least) >= 0 {
		p := s.mate[x]
		if p < 0 || (s.id(p/2) != 0 && s.slack(s.tmp, p/2).IsZero()) {
			return
		}
	}
	// Give x the least feasible dual. If its matched edge is the one that
	// sets that value, the edge is tight again and the matching stays
	// optimal: no search is needed.
	copy(s.dual[x], least)
	if p := s.mate[x]; p >= 0 {
		if (s.id(p/2) != 0) && s.tight(p/2) {
			return
		}
		s.mate[s.endpoint(p)] = -1
		s.mate[x] = -1
	}
}

// leastDual sets d to the least dual of the top-level vertex x that keeps
// its edges feasible: the most that an edge's weight exceeds the dual at
// its other end. It runs over every edge at x of every changed vertex, so
// it does the arithmetic in place.
func (s *blossomSolver) leastDual(d Weight, x int) {
	d.SetZero()
	nw := s.words
	diff := s.tmp[:nw]
	row := s.sq[x*s.n : (x+1)*s.n]
	for j := range s.rows {
		for word := s.adj[x*s.rows+j] & s.aliveBits[j]; word != 0; word &= word - 1 {
			u := j*64 + bits.TrailingZeros64(word)
			id := int(row[u])
			w := s.pool.data[id*nw : id*nw+nw]
			du := s.dualWords[u*nw : u*nw+nw]
			var b uint64
			for t := range diff {
				diff[t], b = bits.Sub64(w[t], du[t], b)
			}
			if b == 0 && cmpWeight(diff, d) > 0 {
				copy(d, diff)
			}
		}
	}
}

func (s *blossomSolver) assignLabel(w, t, p int) {
	for {
		b := s.inblossom[w]
		s.tree[b] = s.treeOf(w, p)
		s.label[w], s.label[b] = t, t
		if t == 2 {
			s.reached[w/64] |= 1 << uint(w%64)
		}
		s.labelend[w], s.labelend[b] = p, p
		s.bestedge[w], s.bestedge[b] = -1, -1
		if t == 1 {
			s.leaves(b, s.push)
			return
		}
		base := s.blossombase[b]
		w, t, p = s.endpoint(s.mate[base]), 1, s.mate[base]^1
	}
}

// findBestEdges computes, once every queued vertex is scanned, what the
// scans of an eager stage would have kept: for every vertex outside the
// S-blossoms its least-slack edge from one, and for every top-level
// S-blossom its least-slack edge to another. No edge between S-vertices of
// different blossoms is tight at this point. One from an S-vertex to an
// unlabelled vertex may be, when a tree was dropped (forest.go): it is
// recorded with its zero slack, and a dual change of zero takes it.
//
// It works target by target, with the least slack so far at hand: this is
// the heaviest loop of a stage, over every edge between the trees and the
// rest, and most edges lose on the top word of their slack.
func (s *blossomSolver) findBestEdges() {
	n := s.n
	// Edges from S-vertices, by their other end: vertices outside the
	// S-blossoms, unreached ones inside T-blossoms included.
	for _, w := range s.alive {
		if s.label[w] != 0 || s.label[s.inblossom[w]] == 1 {
			continue
		}
		s.offerRow(w, w, func(j int) uint64 {
			return s.adj[w*s.rows+j] & s.outer[j] & s.aliveBits[j]
		})
	}
	// Edges between S-blossoms, kept at the blossom of the lower end.
	for i, word := range s.outer {
		for word != 0 {
			v := i*64 + bits.TrailingZeros64(word)
			word &= word - 1
			bv := s.inblossom[v]
			if s.label[bv] != 1 {
				continue
			}
			s.offerRow(bv, v, func(j int) uint64 {
				word := s.adj[v*s.rows+j] & s.outer[j] & s.aliveBits[j]
				if bv >= n {
					word &^= s.leafBits[(bv-n)*s.rows+j]
				}
				// Only ends above v: each edge once.
				switch {
				case (j+1)*64 <= v+1:
					return 0
				case j*64 <= v:
					word &^= (1 << uint(v-j*64+1)) - 1
				}
				return word
			})
		}
	}
}

// offerRow makes the least-slack edge between x and the S-vertices among
// the candidates that word(j) gives (see rowMin) the best edge of b, if
// its slack is smaller.
func (s *blossomSolver) offerRow(b, x int, word func(j int) uint64) {
	if k := s.rowMin(x, word); k >= 0 && (s.bestedge[b] == -1 || cmpWeight(s.fbeBest, s.bestSlack(b)) < 0) {
		s.setBest(b, k, s.fbeBest)
	}
}

// rowMin returns the least-slack edge between x and the S-vertices among
// the candidates that word(j) gives, word j at a time, or -1, and leaves
// its slack in fbeBest.
func (s *blossomSolver) rowMin(x int, word func(j int) uint64) int {
	nw := s.words
	best := s.fbeBest
	top, k := -1, -1
	dx := s.dualWords[x*nw : (x+1)*nw]
	row := s.sq[x*s.n : (x+1)*s.n]
	for j := range s.rows {
		for cand := word(j); cand != 0; cand &= cand - 1 {
			v := j*64 + bits.TrailingZeros64(cand)
			if s.label[s.inblossom[v]] != 1 {
				continue
			}
			id := row[v]
			if k >= 0 {
				if top < 0 {
					return k // zero slack: none is less
				}
				// As in offerBest: word top of the slack, give or take
				// a carry from below.
				est := dx[top] + s.dualWords[v*nw+top] - s.pool.data[int(id)*nw+top]
				if est != ^uint64(0) && est >= best[top] && est-best[top] >= 2 {
					continue
				}
			}
			sl := s.slackAt(s.cand, x, v, id)
			if k < 0 || cmpWeight(sl, best) < 0 {
				copy(best, sl)
				top, k = topWord(best), tri(x, v)
			}
		}
	}
	return k
}

// push queues v for scanning.
func (s *blossomSolver) push(v int) {
	s.reached[v/64] &^= 1 << uint(v%64) // outer now
	s.queue = append(s.queue, v)
	s.outer[v/64] |= 1 << uint(v%64)
}

func (s *blossomSolver) scanBlossom(v, w int) int {
	var path []int
	base := -1
	for v != -1 || w != -1 {
		b := s.inblossom[v]
		if s.label[b]&4 != 0 {
			base = s.blossombase[b]
			break
		}
		path = append(path, b)
		s.label[b] = 5
		if s.labelend[b] == -1 {
			v = -1
		} else {
			v = s.endpoint(s.labelend[b])
			b = s.inblossom[v]
			v = s.endpoint(s.labelend[b])
		}
		if w != -1 {
			v, w = w, v
		}
	}
	for _, b := range path {
		s.label[b] = 1
	}
	return base
}

func (s *blossomSolver) addBlossom(base, k int) {
	n := s.n
	v, w := s.endpoint(2*k), s.endpoint(2*k+1)
	bb := s.inblossom[base]
	bv := s.inblossom[v]
	bw := s.inblossom[w]
	b := s.unused[len(s.unused)-1]
	s.unused = s.unused[:len(s.unused)-1]
	s.blossombase[b] = base
	s.blossomparent[b] = -1
	s.blossomparent[bb] = b
	var path, endps []int
	for bv != bb {
		s.blossomparent[bv] = b
		path = append(path, bv)
		endps = append(endps, s.labelend[bv])
		v = s.endpoint(s.labelend[bv])
		bv = s.inblossom[v]
	}
	path = append(path, bb)
	reverse(path)
	reverse(endps)
	endps = append(endps, 2*k)
	for bw != bb {
		s.blossomparent[bw] = b
		path = append(path, bw)
		endps = append(endps, s.labelend[bw]^1)
		w = s.endpoint(s.labelend[bw])
		bw = s.inblossom[w]
	}
	s.blossomchilds[b] = path
	s.blossomendps[b] = endps
	mask := s.leafBits[(b-n)*s.rows : (b-n+1)*s.rows]
	clear(mask)
	for _, c := range path {
		if c < n {
			mask[c/64] |= 1 << uint(c%64)
			continue
		}
		for i, x := range s.leafBits[(c-n)*s.rows : (c-n+1)*s.rows] {
			mask[i] |= x
		}
	}
	s.label[b] = 1
	s.labelend[b] = s.labelend[bb]
	s.tree[b] = s.tree[bb]
	s.dual[b].SetZero()
	for _, c := range path {
		if s.label[c] == 2 {
			s.leaves(c, s.push)
		}
	}
	s.setInblossom(b, b)
	for _, c := range path {
		s.bestedge[c] = -1
	}
	s.bestedge[b] = -1
	if s.eager {
		// Its least-slack edge to another S-blossom is worked out at the
		// next dual change (refreshStale): near the group, a blossom is
		// often swallowed by the next one hundreds of times in a row
		// before the duals change, and only the last one needs it.
		s.stale = append(s.stale, b)
	}
}

// refreshStale sets the least-slack edge of every top-level S-blossom
// formed since the last dual change to another S-blossom, from the edges
// of its vertices. Those formed before keep theirs: edges to S-vertices
// that came later are kept at the later end, by its scan.
func (s *blossomSolver) refreshStale() {
	n := s.n
	for _, b := range s.stale {
		if s.blossomparent[b] != -1 || s.blossombase[b] < 0 || s.label[b] != 1 {
			continue // swallowed, expanded, or reused since
		}
		s.bestedge[b] = -1
		mask := s.leafBits[(b-n)*s.rows : (b-n+1)*s.rows]
		for i, leaves := range mask {
			for ; leaves != 0; leaves &= leaves - 1 {
				v := i*64 + bits.TrailingZeros64(leaves)
				s.offerRow(b, v, func(j int) uint64 {
					return s.adj[v*s.rows+j] & s.outer[j] & s.aliveBits[j] &^ mask[j]
				})
			}
		}
	}
	s.stale = s.stale[:0]
}

// cycleWalk chooses the direction around a blossom cycle from child i to
// the base (child 0) that leaves an even-length path: it returns the start
// index (negative when walking forwards), the step, and the endpoint trick
// that selects the edge between consecutive children.
func cycleWalk(i, length int) (j, jstep, endptrick int) {
	if i&1 != 0 {
		return i - length, 1, 0
	}
	return i, -1, 1
}

// cycleIndex maps possibly negative cycle positions to slice indexes.
func cycleIndex(length int) func(int) int {
	return func(j int) int {
		if j < 0 {
			j += length
		}
		return j
	}
}

func reverse(a []int) {
	for i, j := 0, len(a)-1; i < j; i, j = i+1, j-1 {
		a[i], a[j] = a[j], a[i]
	}
}

func indexOf(a []int, x int) int {
	for i, y := range a {
		if y == x {
			return i
		}
	}
	return -1
}

func (s *blossomSolver) expandBlossom(b int, endstage bool) {
	n := s.n
	if !endstage {
		// Its vertices are labelled again below.
		s.leaves(b, func(v int) { s.reached[v/64] &^= 1 << uint(v%64) })
	}
	for _, c := range s.blossomchilds[b] {
		s.blossomparent[c] = -1
		if c < n {
			s.inblossom[c] = c
		} else if endstage && s.dual[c].IsZero() {
			s.expandBlossom(c, endstage)
		} else {
			s.leaves(c, func(v int) { s.inblossom[v] = c })
		}
	}
	if !endstage && s.label[b] == 2 {
		childs := s.blossomchilds[b]
		endps := s.blossomendps[b]
		at := cycleIndex(len(childs))
		entrychild := s.inblossom[s.endpoint(s.labelend[b]^1)]
		j, jstep, endptrick := cycleWalk(indexOf(childs, entrychild), len(childs))
		p := s.labelend[b]
		for j != 0 {
			s.label[s.endpoint(p^1)] = 0
			s.label[s.endpoint(endps[at(j-endptrick)]^endptrick^1)] = 0
			s.assignLabel(s.endpoint(p^1), 2, p)
			j += jstep
			p = endps[at(j-endptrick)] ^ endptrick
			j += jstep
		}
		bv := childs[at(j)]
		s.label[s.endpoint(p^1)], s.label[bv] = 2, 2
		s.labelend[s.endpoint(p^1)], s.labelend[bv] = p, p
		s.tree[bv] = s.tree[s.inblossom[s.endpoint(p)]]
		s.bestedge[bv] = -1
		j += jstep
		for childs[at(j)] != entrychild {
			bv := childs[at(j)]
			if s.label[bv] == 1 {
				j += jstep
				continue
			}
			found := -1
			s.leaves(bv, func(v int) {
				if found == -1 && s.label[v] != 0 {
					found = v
				}
			})
			if found != -1 {
				v := found
				s.label[v] = 0
				s.label[s.endpoint(s.mate[s.blossombase[bv]])] = 0
				s.assignLabel(v, 2, s.labelend[v])
			}
			j += jstep
		}
	}
	s.freeBlossom(b)
}

// freeBlossom returns blossom b, whose children are top-level again, to
// the unused ones.
func (s *blossomSolver) freeBlossom(b int) {
	s.label[b], s.labelend[b] = 0, -1
	s.blossomchilds[b], s.blossomendps[b] = nil, nil
	s.blossombase[b] = -1
	s.bestedge[b] = -1
	s.unused = append(s.unused, b)
}

func (s *blossomSolver) augmentBlossom(b, v int) {
	n := s.n
	t := v
	for s.blossomparent[t] != b {
		t = s.blossomparent[t]
	}
	if t >= n {
		s.augmentBlossom(t, v)
	}
	childs := s.blossomchilds[b]
	endps := s.blossomendps[b]
	at := cycleIndex(len(childs))
	i := indexOf(childs, t)
	j, jstep, endptrick := cycleWalk(i, len(childs))
	for j != 0 {
		j += jstep
		t = childs[at(j)]
		p := endps[at(j-endptrick)] ^ endptrick
		if t >= n {
			s.augmentBlossom(t, s.endpoint(p))
		}
		j += jstep
		t = childs[at(j)]
		if t >= n {
			s.augmentBlossom(t, s.endpoint(p^1))
		}
		s.mate[s.endpoint(p)] = p ^ 1
		s.mate[s.endpoint(p^1)] = p
	}
	s.blossomchilds[b] = append(append([]int(nil), childs[i:]...), childs[:i]...)
	s.blossomendps[b] = append(append([]int(nil), endps[i:]...), endps[:i]...)
	s.blossombase[b] = s.blossombase[s.blossomchilds[b][0]]
}

// flipToRoot matches st through p (-1: leaves st unmatched) and flips the
// alternating path from st's blossom up to the root of its tree.
func (s *blossomSolver) flipToRoot(st, p int) {
	n := s.n
	for {
		bs := s.inblossom[st]
		if bs >= n {
			s.augmentBlossom(bs, st)
		}
		s.mate[st] = p
		if s.labelend[bs] == -1 {
			return
		}
		t := s.endpoint(s.labelend[bs])
		bt := s.inblossom[t]
		st = s.endpoint(s.labelend[bt])
		j := s.endpoint(s.labelend[bt] ^ 1)
		if bt >= n {
			s.augmentBlossom(bt, j)
		}
		s.mate[j] = s.labelend[bt]
		p = s.labelend[bt] ^ 1
	}
}

func (s *blossomSolver) augmentMatching(k int) {
	s.flipToRoot(s.endpoint(2*k), 2*k+1)
	s.flipToRoot(s.endpoint(2*k+1), 2*k)
}

// run brings the matching to optimality, stage after stage, until no free
// vertex has a positive dual.
func (s *blossomSolver) run() {
	step := dualStep{delta: NewWeight(s.words), scratch: NewWeight(s.words)}
	for s.deficient() { // once not, optimal: often so after a repair alone
		if !s.startStage() {
			return
		}
		s.stage(&step)
		s.expandZeroOuter()
	}
}

// startStage forgets the labels and least-slack edges of the last stage
// and makes every deficient free vertex the root of a tree. It reports
// whether there is any.
func (s *blossomSolver) startStage() bool {
	s.epoch++
	s.greedy()
	clear(s.label)
	for i := range s.bestedge {
		s.bestedge[i] = -1
	}
	s.stale = s.stale[:0]
	s.queue, s.qhead = s.queue[:0], 0
	clear(s.outer)
	clear(s.reached)
	s.eager = false
	roots := false
	for _, v := range s.alive {
		if s.mate[v] == -1 && !s.dual[v].IsZero() && s.label[s.inblossom[v]] == 0 {
			s.assignLabel(v, 1, -1)
			roots = true
		}
	}
	return roots
}

// stage grows the trees along tight edges and changes the duals when none
// is left to follow, until an augmentation or an outer vertex whose dual
// reaches zero ends it. step is scratch for the dual changes.
func (s *blossomSolver) stage(step *dualStep) {
	for {
		if s.scanQueue() {
			return
		}
		if b := s.zeroDualT(); b >= 0 {
			// What a dual change of zero would do, without working
			// out the least-slack edges for it. Nested T-blossoms
			// of zero dual come in chains hundreds deep.
			s.expandBlossom(b, false)
			continue
		}
		if !s.eager {
			s.eager = true
			s.findBestEdges()
		} else {
			s.refreshStale()
		}
		s.findDelta(step)
		s.changeDuals(step.delta)
		if s.takeDelta(step) {
			return
		}
	}
}

// scanQueue scans the queued outer vertices and reports whether an
// augmentation ended the stage. First in, first out: the trees grow level
// by level, and short augmenting paths are found before a tree wanders
// into the rest of the graph.
func (s *blossomSolver) scanQueue() bool {
	for s.qhead < len(s.queue) {
		v := s.queue[s.qhead]
		s.qhead++
		if s.scanVertex(v) {
			return true
		}
	}
	return false
}

// scanVertex follows the edges of the outer vertex v and reports whether
// an augmentation ended the stage.
func (s *blossomSolver) scanVertex(v int) bool {
	rowV, row := v*(v-1)/2, v*s.n
	rowSq := s.sq[row : row+s.n]
	bv := s.inblossom[v] // changes only in addBlossom
	for j := range s.rows {
		for cand := s.scanWord(v, bv, j); cand != 0; {
			t := bits.TrailingZeros64(cand)
			cand &^= 1 << uint(t)
			w := j*64 + t
			bw := s.inblossom[w]
			if bw == bv || (s.label[bw] == 2 && s.label[w] != 0) {
				// An edge to a vertex already reached inside a
				// T-blossom can do nothing: neither a new label
				// nor a least-slack candidate, whatever its slack.
				continue
			}
			id := rowSq[w]
			k, p := edgeFrom(v, w, rowV)
			// An edge is allowed while it is tight. The algorithm's
			// flag for that is a cache that a dropped tree
			// (forest.go) would make stale.
			if !s.tightID(v, w, id) {
				if s.eager {
					s.offerLoose(v, w, bv, bw, k, id)
				}
				continue
			}
			switch s.followTight(v, w, bv, bw, k, p) {
			case tightBlossom:
				bv = s.inblossom[v]
				cand &^= s.leafBits[(bv-s.n)*s.rows+j]
			case tightAugmented:
				// The other trees go on: scan again from what is
				// left in the queue.
				return false
			case tightEndedStage:
				return true
			}
		}
	}
	return false
}

// edgeFrom returns the number k of the edge (v, w) and its endpoint p at
// w (remote(v, w)), given rowV, v*(v-1)/2.
func edgeFrom(v, w, rowV int) (k, p int) {
	if w < v {
		k = rowV + w
		return k, 2*k + 1
	}
	k = w*(w-1)/2 + v
	return k, 2 * k
}

// tightResult says what following a tight edge did to the search.
type tightResult int

const (
	tightFollowed   tightResult = iota // labelled a vertex, or nothing
	tightBlossom                       // formed a blossom around the scanned vertex
	tightAugmented                     // augmented; the other trees go on
	tightEndedStage                    // augmented and ended the stage
)

// followTight follows the tight edge k, whose endpoint at w is p, from the
// outer vertex v in blossom bv to w in blossom bw.
func (s *blossomSolver) followTight(v, w, bv, bw, k, p int) tightResult {
	if s.label[bw] == 0 && s.mate[s.blossombase[bw]] == -1 {
		// A free vertex with zero dual: augment to it.
		s.assignLabel(w, 1, -1)
	}
	switch s.label[bw] {
	case 0:
		s.assignLabel(w, 2, p^1)
	case 1:
		return s.joinOuter(v, w, bv, bw, k)
	default:
		if s.label[w] == 0 {
			// w is inside a T-blossom: it is reached, and stays so.
			s.label[w] = 2
			s.labelend[w] = p ^ 1
			s.reached[w/64] |= 1 << uint(w%64)
		}
	}
	return tightFollowed
}

// joinOuter follows the tight edge k between the outer vertices v and w:
// it forms a blossom if they are in one tree, and augments along the path
// through it if not.
func (s *blossomSolver) joinOuter(v, w, bv, bw, k int) tightResult {
	if base := s.scanBlossom(v, w); base >= 0 {
		s.addBlossom(base, k)
		return tightBlossom
	}
	t1, t2 := s.tree[bv], s.tree[bw]
	s.augmentMatching(k)
	if s.eager || !s.dropTrees(t1, t2) {
		return tightEndedStage
	}
	return tightAugmented
}

// offerLoose offers the edge k from the outer vertex v, which is not tight,
// as the least-slack edge of v's blossom bv, if w is outer too, or of w if
// w is unlabelled.
func (s *blossomSolver) offerLoose(v, w, bv, bw, k int, id uint32) {
	switch {
	case s.label[bw] == 1:
		s.offerBest(bv, k, v, w, id)
	case s.label[w] == 0:
		s.offerBest(w, k, v, w, id)
	}
}

// deltaKind says what limits a dual change.
type deltaKind int

const (
	deltaNone         deltaKind = iota
	deltaOuterVertex            // the dual of an outer vertex reaches zero
	deltaFreeEdge               // an edge from an outer to a free vertex becomes tight
	deltaOuterEdge              // an edge between two outer blossoms becomes tight
	deltaInnerBlossom           // the dual of an inner blossom reaches zero
)

// dualStep is a dual change: by how much, what limits it, and where.
type dualStep struct {
	kind                  deltaKind
	delta                 Weight
	vertex, edge, blossom int
	scratch               Weight
}

// take makes the change delta, of the given kind.
func (st *dualStep) take(kind deltaKind, delta Weight) {
	copy(st.delta, delta)
	st.kind = kind
}

// findDelta finds the largest dual change that keeps the duals feasible:
// the least of what each kind of limit allows.
func (s *blossomSolver) findDelta(st *dualStep) {
	st.kind, st.vertex, st.edge, st.blossom = deltaNone, -1, -1, -1
	s.limitOuterVertices(st)
	s.limitFreeEdges(st)
	s.limitOuterEdges(st)
	s.limitInnerBlossoms(st)
}

// limitOuterVertices limits st to the least dual of an outer vertex.
func (s *blossomSolver) limitOuterVertices(st *dualStep) {
	for _, v := range s.alive {
		if s.label[s.inblossom[v]] == 1 && (st.kind == deltaNone || cmpWeight(s.dual[v], st.delta) < 0) {
			st.take(deltaOuterVertex, s.dual[v])
			st.vertex = v
		}
	}
}

// limitFreeEdges limits st to the least slack of an edge from an outer
// vertex to an unlabelled one.
func (s *blossomSolver) limitFreeEdges(st *dualStep) {
	for _, v := range s.alive {
		if s.label[s.inblossom[v]] != 0 || s.bestedge[v] == -1 {
			continue
		}
		if d := s.bestSlack(v); cmpWeight(d, st.delta) < 0 {
			st.take(deltaFreeEdge, d)
			st.edge = s.bestedge[v]
		}
	}
}

// limitOuterEdges limits st to half the least slack of an edge between two
// top-level outer blossoms.
func (s *blossomSolver) limitOuterEdges(st *dualStep) {
	for b := 0; b < 2*s.n; b++ {
		if s.blossomparent[b] != -1 || s.label[b] != 1 || s.bestedge[b] == -1 {
			continue
		}
		half(st.scratch, s.bestSlack(b))
		if cmpWeight(st.scratch, st.delta) < 0 {
			st.take(deltaOuterEdge, st.scratch)
			st.edge = s.bestedge[b]
		}
	}
}

// limitInnerBlossoms limits st to the least dual of a top-level inner
// blossom.
func (s *blossomSolver) limitInnerBlossoms(st *dualStep) {
	for b := s.n; b < 2*s.n; b++ {
		if s.blossombase[b] >= 0 && s.blossomparent[b] == -1 && s.label[b] == 2 && cmpWeight(s.dual[b], st.delta) < 0 {
			st.take(deltaInnerBlossom, s.dual[b])
			st.blossom = b
		}
	}
}

// changeDuals lowers the duals of outer vertices and inner blossoms by
// delta and raises those of inner vertices and outer blossoms.
func (s *blossomSolver) changeDuals(delta Weight) {
	s.epoch++
	for _, v := range s.alive {
		switch s.label[s.inblossom[v]] {
		case 1:
			sub(s.dual[v], s.dual[v], delta)
		case 2:
			add(s.dual[v], s.dual[v], delta)
		}
	}
	for b := s.n; b < 2*s.n; b++ {
		if s.blossombase[b] < 0 || s.blossomparent[b] != -1 {
			continue
		}
		switch s.label[b] {
		case 1:
			add(s.dual[b], s.dual[b], delta)
		case 2:
			sub(s.dual[b], s.dual[b], delta)
		}
	}
}

// takeDelta acts on what limited the dual change st: it labels the end of
// the edge that became tight, or expands the inner blossom whose dual
// reached zero. It reports whether the change ended the stage.
func (s *blossomSolver) takeDelta(st *dualStep) bool {
	switch st.kind {
	case deltaOuterVertex:
		// An outer vertex reached zero: if it is not its tree's
		// root, flip the path so that it becomes free (and
		// optimal) and the root becomes matched.
		if s.mate[st.vertex] != -1 {
			s.flipToRoot(st.vertex, -1)
		}
		return true
	case deltaFreeEdge:
		i := s.endpoint(2 * st.edge)
		if s.label[s.inblossom[i]] == 0 {
			i = s.endpoint(2*st.edge + 1)
		}
		s.push(i)
	case deltaOuterEdge:
		s.push(s.endpoint(2 * st.edge))
	case deltaInnerBlossom:
		s.expandBlossom(st.blossom, false)
	}
	return false
}

// expandZeroOuter expands, at the end of a stage, every top-level outer
// blossom whose dual is zero.
func (s *blossomSolver) expandZeroOuter() {
	for b := s.n; b < 2*s.n; b++ {
		if s.blossomparent[b] == -1 && s.blossombase[b] >= 0 && s.label[b] == 1 && s.dual[b].IsZero() {
			s.expandBlossom(b, true)
		}
	}
}
