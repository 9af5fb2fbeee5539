package pairing

import "arbiter/pairing/internal/matching"

// weightCache interns the edge weights of a bracket by the kinds of the two
// players. A weight depends on the pair only through whether the two may
// meet; for the rest it reads each player's score, bye candidacy, games
// played, colour history and floats, which few players in a bracket differ
// in. So the weights of a bracket's pairs, up to hundreds of thousands, take
// a few hundred values, each built once.
type weightCache struct {
	d     *dutch
	mc    *matching.Matcher
	w     matching.Weight
	kinds map[playerKind]uint32
	kind  []uint32          // by player index: 1 + the player's kind, 0 if not known yet
	ids   map[uint64]uint32 // by kinds and flags; each holds a reference
	// table holds the ids of the kinds known at the start, by
	// (hi*known+lo)*4+flags, 0 where not built yet (a pair that may meet
	// never weighs zero): the lookup of nearly every pair, without hashing.
	table []uint32
	known uint32
}

// tableKinds is the most kinds for which the cache keeps a table.
const tableKinds = 512

// playerKind is what edgeWeightInto reads of a player, besides whom it may
// meet.
type playerKind struct {
	score, played, imbalance int
	bye                      bool
	pref, repeated           Colour
	strong                   bool
	floats                   [2]floatKind
}

// newWeightCache returns a cache for the pairs among players; it sizes its
// table by their kinds.
func newWeightCache(d *dutch, mc *matching.Matcher, players []*player) *weightCache {
	c := &weightCache{d: d, mc: mc, w: matching.NewWeight(d.words),
		kinds: map[playerKind]uint32{}, kind: make([]uint32, len(d.s.players)), ids: map[uint64]uint32{}}
	for _, p := range players {
		c.kindOf(p)
	}
	if k := uint32(len(c.kinds)); k <= tableKinds {
		c.known, c.table = k, make([]uint32, k*k*4)
	}
	return c
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
	id := c.peek(hi, lo, inCur, inNext)
	c.mc.Ref(id)
	return id
}

// peek is id without a reference for the caller: the id stays valid while
// the cache holds it.
func (c *weightCache) peek(hi, lo *player, inCur, inNext bool) uint32 {
	if !c.d.meet.may(hi.place, lo.place) {
		return 0
	}
	return c.lookup(hi, lo, c.kindOf(hi), c.kindOf(lo), inCur, inNext)
}

// lookup returns the id for a pair that may meet, whose players have
// kinds kh and kl: by table while both kinds are in it, else by map.
func (c *weightCache) lookup(hi, lo *player, kh, kl uint32, inCur, inNext bool) uint32 {
	flags := b2u(inCur)<<1 | b2u(inNext)
	if kh < c.known && kl < c.known {
		t := &c.table[(uint64(kh)*uint64(c.known)+uint64(kl))*4+flags]
		if *t == 0 {
			*t = c.build(hi, lo, inCur, inNext)
		}
		return *t
	}
	key := uint64(kh)<<33 | uint64(kl)<<2 | flags
	id, ok := c.ids[key]
	if !ok {
		id = c.build(hi, lo, inCur, inNext)
		c.ids[key] = id
	}
	return id
}

// flatRow sets row[j], for every j < i, to peek(d.sorted[j], d.sorted[i],
// false, false): the flat weights of a whole row of the round, with the
// meetings read from the row's bits.
func (c *weightCache) flatRow(i int, row []uint32) {
	sorted, m := c.d.sorted, c.d.meet
	lo := sorted[i]
	kl := c.kindOf(lo)
	meet := m.bits[i*m.rows : (i+1)*m.rows]
	for j, hi := range sorted[:i] {
		if meet[j/64]&(1<<uint(j%64)) == 0 {
			row[j] = 0
			continue
		}
		row[j] = c.lookup(hi, lo, c.kindOf(hi), kl, false, false)
	}
}

// build interns the weight of a pair, holding a reference for the cache.
func (c *weightCache) build(hi, lo *player, inCur, inNext bool) uint32 {
	c.w.SetZero()
	c.d.edgeWeightInto(c.w, hi, lo, inCur, inNext)
	return c.mc.Intern(c.w)
}

// release gives back the cache's references.
func (c *weightCache) release() {
	for _, id := range c.ids {
		c.mc.Release(id)
	}
	for _, id := range c.table {
		c.mc.Release(id)
	}
}
