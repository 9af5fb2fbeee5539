package matching

import "math/bits"

// Who can be left unpaired.
//
// A caller with an odd number of vertices may need to know which of them
// some maximum matching leaves unpaired, before it weighs any pair. Only
// the number of pairs matters for that, and the Gallai–Edmonds decomposition
// answers it: given a maximum matching that leaves u unpaired, the
// vertices some maximum matching leaves unpaired are those that an
// alternating path of even length joins to u, the outer vertices of
// Edmonds' search from u. A weighted matching of the whole field answers it
// too, but its free vertex forces the duals into one blossom spanning
// nearly everyone: over a second for 2,000 vertices, against milliseconds.

// Cardinality finds maximum matchings of a graph given by bit-set rows of
// adjacency, by Edmonds' search with blossom contraction.
type Cardinality struct {
	n, rows int
	adj     []uint64 // row v: bit u set when (v, u) is an edge
	mate    []int    // partner, or -1
	// The search's state: the tree parent of each inner vertex, the base
	// of each vertex's blossom, and whether a vertex is outer.
	parent, base []int
	outer        []bool
	inBlossom    []bool
	onPath       []bool
	queue        []int
}

// NewCardinality returns the graph on n vertices whose edges adj holds,
// (n+63)/64 words a row, with no matching yet. It keeps adj.
func NewCardinality(n int, adj []uint64) *Cardinality {
	c := &Cardinality{n: n, rows: (n + 63) / 64, adj: adj}
	c.mate = make([]int, n)
	c.parent = make([]int, n)
	c.base = make([]int, n)
	c.outer = make([]bool, n)
	c.inBlossom = make([]bool, n)
	c.onPath = make([]bool, n)
	for v := range c.mate {
		c.mate[v] = -1
	}
	return c
}

// Maximize makes the matching maximum and returns the number of
// vertices it leaves unmatched. A greedy pass in vertex order pairs
// nearly everyone in a dense graph; searches from the rest finish it.
func (c *Cardinality) Maximize() int {
	for v := range c.n {
		if c.mate[v] != -1 {
			continue
		}
		for j := range c.rows {
			for cand := c.adj[v*c.rows+j]; cand != 0; cand &= cand - 1 {
				u := j*64 + bits.TrailingZeros64(cand)
				if c.mate[u] == -1 {
					c.mate[v], c.mate[u] = u, v
					break
				}
			}
			if c.mate[v] != -1 {
				break
			}
		}
	}
	exposed := 0
	for v := range c.n {
		if c.mate[v] != -1 {
			continue
		}
		if end := c.search(v); end != -1 {
			c.augment(end)
		} else {
			exposed++
		}
	}
	return exposed
}

// Exposable returns, for a maximum matching, which vertices some maximum
// matching leaves unmatched: the outer vertices of the searches from the
// unmatched ones.
func (c *Cardinality) Exposable() []bool {
	d := make([]bool, c.n)
	for v := range c.n {
		if c.mate[v] != -1 {
			continue
		}
		if c.search(v) != -1 {
			panic("matching: Exposable called before Maximize")
		}
		for u, o := range c.outer {
			d[u] = d[u] || o
		}
	}
	return d
}

// search grows an alternating tree from the unmatched root and returns
// the unmatched vertex an augmenting path reaches, or -1 when there is
// none; outer then marks the vertices the tree reached at even distance.
func (c *Cardinality) search(root int) int {
	for v := range c.n {
		c.parent[v], c.base[v], c.outer[v] = -1, v, false
	}
	c.outer[root] = true
	c.queue = append(c.queue[:0], root)
	for qh := 0; qh < len(c.queue); qh++ {
		v := c.queue[qh]
		for j := range c.rows {
			for cand := c.adj[v*c.rows+j]; cand != 0; cand &= cand - 1 {
				to := j*64 + bits.TrailingZeros64(cand)
				if c.base[v] == c.base[to] || c.mate[v] == to {
					continue
				}
				if to == root || (c.mate[to] != -1 && c.parent[c.mate[to]] != -1) {
					// to is outer: an odd cycle, contracted to its base.
					b := c.commonBase(v, to)
					clear(c.inBlossom)
					c.markPath(v, b, to)
					c.markPath(to, b, v)
					for i := range c.n {
						if c.inBlossom[c.base[i]] {
							c.base[i] = b
							if !c.outer[i] {
								c.outer[i] = true
								c.queue = append(c.queue, i)
							}
						}
					}
				} else if c.parent[to] == -1 {
					c.parent[to] = v
					if c.mate[to] == -1 {
						return to
					}
					c.outer[c.mate[to]] = true
					c.queue = append(c.queue, c.mate[to])
				}
			}
		}
	}
	return -1
}

// commonBase returns the base of the blossom that the edge between the
// outer vertices a and b closes.
func (c *Cardinality) commonBase(a, b int) int {
	clear(c.onPath)
	for {
		a = c.base[a]
		c.onPath[a] = true
		if c.mate[a] == -1 {
			break
		}
		a = c.parent[c.mate[a]]
	}
	for {
		b = c.base[b]
		if c.onPath[b] {
			return b
		}
		b = c.parent[c.mate[b]]
	}
}

// markPath marks the blossoms on the path from v down to the base b and
// points the parents along it across the new blossom, child first.
func (c *Cardinality) markPath(v, b, child int) {
	for c.base[v] != b {
		c.inBlossom[c.base[v]], c.inBlossom[c.base[c.mate[v]]] = true, true
		c.parent[v] = child
		child = c.mate[v]
		v = c.parent[c.mate[v]]
	}
}

// augment flips the alternating path from the unmatched vertex end, which
// the last search reached, back to its root.
func (c *Cardinality) augment(end int) {
	for v := end; v != -1; {
		pv := c.parent[v]
		next := c.mate[pv]
		c.mate[v], c.mate[pv] = pv, v
		v = next
	}
}
