package pairing

// weightCache interns the edge weights of a bracket by the kinds of the two
// players. A weight depends on the pair only through whether the two may
// meet; for the rest it reads each player's score, bye candidacy, games
// played, colour history and floats, which few players in a bracket differ
// in. So the weights of a bracket's pairs, up to hundreds of thousands, take
// a few hundred values, each built once.
type weightCache struct {
	d     *dutch
	mc    *matcher
	w     weight
	kinds map[playerKind]uint32
	kind  []uint32          // by player index: 1 + the player's kind, 0 if not known yet
	ids   map[uint64]uint32 // by kinds and flags; each holds a reference
}

// playerKind is what edgeWeightInto reads of a player, besides whom it may
// meet.
type playerKind struct {
	score, played, imbalance int
	bye                      bool
	pref, repeated           Colour
	strong                   bool
	floats                   [2]floatKind
}

func newWeightCache(d *dutch, mc *matcher) *weightCache {
	return &weightCache{d: d, mc: mc, w: newWeight(d.words),
		kinds: map[playerKind]uint32{}, kind: make([]uint32, len(d.s.players)), ids: map[uint64]uint32{}}
}

func (c *weightCache) kindOf(p *player) uint32 {
	if k := c.kind[p.index]; k != 0 {
		return k - 1
	}
	pk := playerKind{score: c.d.score(p), played: p.playedGames, imbalance: p.colourImbalance,
		bye: c.d.isByeCandidate(p), pref: p.colourPref, repeated: p.repeatedColour,
		strong: p.strongPref, floats: p.floats}
	k, ok := c.kinds[pk]
	if !ok {
		k = uint32(len(c.kinds))
		c.kinds[pk] = k
	}
	c.kind[p.index] = k + 1
	return k
}

// id returns the id of edgeWeightInto(hi, lo, inCur, inNext), holding a
// reference for the caller.
func (c *weightCache) id(hi, lo *player, inCur, inNext bool) uint32 {
	if !c.d.s.compatible(hi, lo) {
		return 0
	}
	key := uint64(c.kindOf(hi))<<33 | uint64(c.kindOf(lo))<<2 | b2u(inCur)<<1 | b2u(inNext)
	id, ok := c.ids[key]
	if !ok {
		c.w.setZero()
		c.d.edgeWeightInto(c.w, hi, lo, inCur, inNext)
		id = c.mc.intern(c.w)
		c.ids[key] = id
	}
	c.mc.solver.pool.ref(id)
	return id
}

// release gives back the cache's references.
func (c *weightCache) release() {
	for _, id := range c.ids {
		c.mc.release(id)
	}
}
