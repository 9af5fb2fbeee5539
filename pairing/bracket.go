package pairing

import "arbiter/pairing/internal/matching"

// Pairing one bracket.
//
// The FIDE text (C.04.3, Art. 3 and 4; B and D in 2017) generates a
// bracket's candidates in a fixed order and takes the first that is best
// by the criteria (Art. 2; C in 2017). The engine reaches the same
// pairing with a maximum weight matching over all players still to be
// paired, taking the text's decisions one at a time by nudging weights:
// which MDPs to pair (the MDP-pairing's S1 and Limbo), their opponents,
// the exchanges between S1 and S2 of the remainder, and each S1 player's
// opponent. The steps below are named after the text and run in its
// order.
//
// The 2026 articles are those of ../shared/pairing.md: definitions Art. 1,
// criteria Art. 2, the pairing process of a bracket Art. 3, the sequential
// generation of candidates Art. 4, colours Art. 5. Their sub-articles
// (3.1, 4.2, ...) are numbered as the 2017 sections they took over (B.1,
// D.2, ...); pairing.md does not give them, so check them against the
// handbook before quoting them to users.

// bracket is the state of the bracket being paired. vi lists its
// vertices (places in d.sorted): the MDPs vi[:sgBegin], the residents
// vi[sgBegin:nextBegin] and the next score group vi[nextBegin:], whose
// pairs weigh in the bracket's matching for NextBracket.
type bracket struct {
	d  *dutch
	mc *matching.Matcher
	vi []int
	// sgBegin and nextBegin index vi; sgBeginVertex and nextBeginVertex
	// are the vertices of the residents' and the next group's first
	// players.
	sgBegin, nextBegin             int
	sgBeginVertex, nextBeginVertex int
	// base[l][sm] is the id (see matching.Matcher.Intern) of the weight of the pair
	// (vi[sm], vi[l]) in the bracket, for sm < l.
	base [][]uint32
	// matched marks the vertices paired so far, in this bracket or above.
	matched []bool
	// stable is the last matching computed.
	stable []int
	// remainder lists the residents (indices into vi) not paired with
	// MDPs; its first remPairs form S1.
	remainder []int
	remPairs  int
	cands     []int           // scratch for highest
	w, delta  matching.Weight // scratch weights
}

// open starts the bracket of the MDPs vi[:sgBegin] and the residents
// vi[sgBegin:nextBegin], vi[nextBegin:] being the next score group: it
// sets the weights of all their pairs (baseWeights) and computes the
// matching they give.
func (b *bracket) open(vi []int, sgBegin, nextBegin, sgBeginVertex int) {
	b.releaseBase()
	b.vi, b.sgBegin, b.nextBegin = vi, sgBegin, nextBegin
	b.sgBeginVertex = sgBeginVertex
	b.nextBeginVertex = sgBeginVertex + (nextBegin - sgBegin)
	b.remainder, b.remPairs = b.remainder[:0], 0
	b.baseWeights()
	b.stable = b.mc.Compute()
}

// releaseBase gives back the references of the last bracket's weights.
func (b *bracket) releaseBase() {
	for _, row := range b.base {
		for _, id := range row {
			b.mc.Release(id)
		}
	}
	b.base = nil
}

// baseWeights sets the weight of every pair of the bracket and the next
// score group by the criteria, before any nudge.
func (b *bracket) baseWeights() {
	d, mc, vi := b.d, b.mc, b.vi
	b.base = make([][]uint32, len(vi))
	cells := 0
	for l := b.sgBegin; l < len(vi); l++ {
		cells += l
	}
	backing := make([]uint32, cells)
	// The cache lives for one bracket: the single-bye rule may change
	// between brackets.
	players := make([]*player, len(vi))
	for i, v := range vi {
		players[i] = d.sorted[v]
	}
	cache := newWeightCache(d, mc, players)
	for l := b.sgBegin; l < len(vi); l++ {
		b.base[l], backing = backing[:l:l], backing[l:]
		for sm := 0; sm < l; sm++ {
			b.base[l][sm] = cache.id(d.sorted[vi[sm]], d.sorted[vi[l]], l < b.nextBegin, l >= b.nextBegin)
			mc.SetID(vi[l], vi[sm], b.base[l][sm])
		}
	}
	cache.release()
	if len(vi)-b.sgBegin >= warmMin {
		mc.WarmStart(vi)
	}
}

// inBracket reports whether vertex v is a resident of the bracket.
func (b *bracket) inBracket(v int) bool { return v >= b.sgBeginVertex && v < b.nextBeginVertex }

// dropBase removes the pair (vi[sm], vi[l]) from the bracket's weights:
// an exchange or a choice made rules it out.
func (b *bracket) dropBase(l, sm int) {
	b.mc.Release(b.base[l][sm])
	b.base[l][sm] = 0
}

// ewcDelta returns the remainder's nudge of a pair: its weight in the
// remainder gains ewcDelta of its higher player's place smRem there;
// extra adds a unit more or less. The result is overwritten by the next
// call.
func (b *bracket) ewcDelta(smRem, extra int) matching.Weight {
	delta := b.delta
	delta.SetZero()
	delta.AddSmall(b2u(smRem < b.remPairs))
	delta.Shl(2 * b.d.sgBits)
	delta.SubSmall(uint64(smRem))
	delta.Shl(1)
	switch {
	case extra > 0:
		delta.AddSmall(uint64(extra))
	case extra < 0:
		delta.SubSmall(uint64(-extra))
	}
	return delta
}

// setEWC sets the pair (vi[sm], vi[l]) to its nudged weight (ewcDelta);
// an absent pair stays absent.
func (b *bracket) setEWC(sm, l, smRem, extra int) {
	if id := b.base[l][sm]; id != 0 {
		b.mc.SetShifted(b.vi[sm], b.vi[l], id, b.ewcDelta(smRem, extra))
	} else {
		b.mc.SetID(b.vi[sm], b.vi[l], 0)
	}
}

// setPlus sets the pair (vi[sm], vi[l]) to its base weight plus x, if
// present, and reports whether it is.
func (b *bracket) setPlus(sm, l int, x uint64) bool {
	id := b.base[l][sm]
	if id == 0 {
		return false
	}
	b.delta.SetZero()
	b.delta.AddSmall(x)
	b.mc.SetShifted(b.vi[sm], b.vi[l], id, b.delta)
	return true
}

// highest returns the first of b.cands that a maximum weight matching
// pairs pv with. The duals of a current matching often say which
// (matching.Matcher.BestPartner); if not, nudge sets the candidates' edges apart, the
// highest's most, and a matching says.
func (b *bracket) highest(pv int, nudge func()) int {
	mc := b.mc
	mv, found := mc.BestPartner(pv, b.cands)
	if !found && !mc.Current() {
		b.stable = mc.Compute()
		mv, found = mc.BestPartner(pv, b.cands)
	}
	if found {
		return mv
	}
	nudge()
	b.stable = mc.Compute()
	return b.stable[pv]
}

// chooseMDPs marks the MDPs that the bracket pairs: M1 of them
// (C.04.3 Art. 3.1, 2017 B.1), the S1 of the MDP-pairing, the rest being
// the Limbo (Art. 3.2, 2017 B.2). Of the MDP sets that leave the best
// pairing by the criteria, the text takes the first in its order
// (Art. 4.3, 2017 D.3): the highest MDPs of each score, as far as some
// best pairing still pairs them in the bracket.
func (b *bracket) chooseMDPs() {
	d, mc, vi := b.d, b.mc, b.vi
	var mdScore, remainingMD, remainingMatchedMD int
	for pi := 0; pi < b.sgBegin; pi++ {
		if pi == 0 || d.score(d.sorted[vi[pi]]) < mdScore {
			mdScore = d.score(d.sorted[vi[pi]])
			remainingMatchedMD, remainingMD = 0, 0
			for m := pi; d.score(d.sorted[vi[m]]) >= mdScore; m++ {
				remainingMD++
				if b.inBracket(b.stable[vi[m]]) {
					remainingMatchedMD++
				}
			}
		}
		if remainingMatchedMD == 0 {
			continue
		}
		pv := vi[pi]
		if remainingMD <= remainingMatchedMD {
			b.matched[pv] = true
			continue
		}
		remainingMD--
		if !b.inBracket(b.stable[pv]) {
			for oi := b.sgBegin; oi < b.nextBegin; oi++ {
				if id := b.base[oi][pi]; id != 0 {
					mc.WeightOf(b.w, id)
					b.w.OrSmall(1)
					mc.Set(pv, vi[oi], b.w)
				}
			}
			b.stable = mc.Compute()
		}
		if b.inBracket(b.stable[pv]) {
			b.matched[pv] = true
			remainingMatchedMD--
			for oi := b.sgBegin; oi < b.nextBegin; oi++ {
				if id := b.base[oi][pi]; id != 0 {
					mc.WeightOf(b.w, id)
					b.w.OrSmall(uint64(b.nextBegin - b.sgBegin))
					b.w.AddSmall(1)
					mc.Set(pv, vi[oi], b.w)
				}
			}
		}
	}
}

// pairMDPs pairs each chosen MDP, highest first, with the highest
// resident that a best pairing gives it: the MDP-pairing's S1 against
// S2 in the order of the transpositions of S2 (Art. 3.3 and 4.1, 2017
// B.3 and D.1).
func (b *bracket) pairMDPs() {
	vi := b.vi
	for pi := 0; pi < b.sgBegin; pi++ {
		pv := vi[pi]
		if !b.matched[pv] {
			continue
		}
		b.cands = b.cands[:0]
		for oi := b.sgBegin; oi < b.nextBegin; oi++ {
			if ov := vi[oi]; !b.matched[ov] && b.base[oi][pi] != 0 {
				b.cands = append(b.cands, ov)
			}
		}
		// pv's edges to the residents all carry the same nudge: the
		// matching of these weights pairs it with one of them.
		mv := b.highest(pv, func() {
			addend := uint64(len(vi))
			for oi := b.nextBegin - 1; oi >= b.sgBegin; oi-- {
				if !b.matched[vi[oi]] && b.setPlus(pi, oi, addend) {
					addend++
				}
			}
		})
		b.matched[mv] = true
		b.mc.Decide(pv, mv)
	}
}

// splitRemainder forms the remainder, the residents not paired with MDPs
// (Art. 1.3 and 3.3, 2017 B.3), and splits it into S1, its first
// MaxPairs players, and S2, the rest (Art. 3.2, 2017 B.2). It nudges the
// weights to favour pairs of an S1 player with an S2 one, in the order of
// S1, and computes the matching they give.
func (b *bracket) splitRemainder() {
	mc, vi := b.mc, b.vi
	for pi := b.sgBegin; pi < b.nextBegin; pi++ {
		pv := vi[pi]
		if b.stable[pv] < b.sgBeginVertex {
			continue
		}
		b.remainder = append(b.remainder, pi)
		if b.stable[pv] < pv {
			b.remPairs++
		}
	}
	// The matching of the bracket's start pairs neighbours as often as
	// not: swap those into pairs across S1 and S2 first where it costs
	// nothing.
	upper, lower := make([]int, b.remPairs), make([]int, 0, len(b.remainder)-b.remPairs)
	for pr, pi := range b.remainder {
		if pr < b.remPairs {
			upper[pr] = vi[pi]
		} else {
			lower = append(lower, vi[pi])
		}
	}
	mc.PairAcross(upper, lower)
	for pr, pi := range b.remainder {
		for _, oi := range b.remainder[pr+1:] {
			b.setEWC(pi, oi, pr, 0)
		}
	}
	// A pair's nudge belongs to its higher player: raising the dual of
	// each in S1 by its nudge keeps every edge feasible and every pair of
	// an S1 and an S2 player as tight as it was. The other pairs, and an
	// S1 player's pair outside the remainder, come apart for the search.
	for pr, pi := range b.remainder[:b.remPairs] {
		mc.RaiseDual(vi[pi], b.ewcDelta(pr, 0))
	}
	b.stable = mc.Compute()
}

// inS1 reports whether the last matching pairs v with a player below it
// in the bracket: v is in S1 after the exchanges.
func (b *bracket) inS1(v int) bool { return b.stable[v] > v && b.stable[v] < b.nextBeginVertex }

// exchanges returns the number of players of the original S1 that the
// best pairing moves to S2, as many as move the other way.
func (b *bracket) exchanges() int {
	n := 0
	for _, pi := range b.remainder[:b.remPairs] {
		if !b.inS1(b.vi[pi]) {
			n++
		}
	}
	return n
}

// exchangeFromS1 chooses the count players that the exchange moves from
// S1 to S2: the lowest possible, as the order of the resident exchanges
// says (Art. 4.2, 2017 D.2: the largest differing BSN moved from S1).
func (b *bracket) exchangeFromS1(count int) {
	mc, vi := b.mc, b.vi
	remaining := count
	for it := b.remPairs; it > 0 && remaining > 0; {
		it--
		pr := it
		pi := b.remainder[it]
		pv := vi[pi]
		if b.inS1(pv) {
			for _, oi := range b.remainder[it+1:] {
				if b.base[oi][pi] != 0 {
					b.setEWC(pi, oi, pr, -1)
				}
			}
			b.stable = mc.Compute()
		}
		exchange := !b.inS1(pv)
		if exchange {
			remaining--
		}
		for _, oi := range b.remainder[it+1:] {
			if exchange {
				b.dropBase(oi, pi)
			}
			b.setEWC(pi, oi, pr, 0)
		}
	}
}

// exchangeFromS2 chooses the count players that the exchange moves from
// S2 to S1: the highest possible (Art. 4.2, 2017 D.2: the smallest
// differing BSN moved from S2).
func (b *bracket) exchangeFromS2(count int) {
	mc, vi := b.mc, b.vi
	remaining := count
	ri := b.remPairs
	for it := b.remPairs; it < len(b.remainder) && remaining > 1; it++ {
		pi := b.remainder[it]
		pv := vi[pi]
		already := b.inS1(pv)
		if !already {
			for _, oi := range b.remainder[it+1:] {
				if b.base[oi][pi] != 0 {
					b.setEWC(pi, oi, ri, 1)
				}
			}
			b.stable = mc.Compute()
		}
		if b.inS1(pv) {
			remaining--
			for _, oi := range b.remainder[:it] {
				b.dropBase(pi, oi)
				mc.SetID(pv, vi[oi], 0)
			}
			for oi := b.nextBegin; oi < len(vi); oi++ {
				b.dropBase(oi, pi)
				mc.SetID(pv, vi[oi], 0)
			}
		}
		if !already {
			for _, oi := range b.remainder[it+1:] {
				b.setEWC(pi, oi, ri, 0)
			}
		}
		ri++
	}
}

// fixExchanges keeps only the pairs of an S1 player with an S2 player
// after the exchanges, and drops the nudges.
func (b *bracket) fixExchanges() {
	for it, pi := range b.remainder {
		pv := b.vi[pi]
		for _, oi := range b.remainder[it+1:] {
			ov := b.vi[oi]
			if !b.inS1(pv) || b.inS1(ov) {
				b.dropBase(oi, pi)
			}
			b.mc.SetID(pv, ov, b.base[oi][pi])
		}
	}
}

// pairS1WithS2 pairs each S1 player, highest first, with the highest S2
// player that a best pairing gives it: the candidate S1[i] against S2[i]
// and the transpositions of S2 in their order (Art. 3.3 and 4.1, 2017
// B.3 and D.1).
func (b *bracket) pairS1WithS2() {
	vi := b.vi
	for _, pi := range b.remainder {
		pv := vi[pi]
		if !b.inS1(pv) {
			continue
		}
		b.cands = b.cands[:0]
		for _, oi := range b.remainder {
			if ov := vi[oi]; oi > pi && !b.matched[ov] && b.base[oi][pi] != 0 {
				b.cands = append(b.cands, ov)
			}
		}
		mv := b.highest(pv, func() {
			var addend uint64
			for k := len(b.remainder) - 1; k >= 0; k-- {
				if oi := b.remainder[k]; oi > pi && !b.matched[vi[oi]] {
					b.setPlus(pi, oi, addend)
					addend++
				}
			}
		})
		b.matched[pv], b.matched[mv] = true, true
		b.mc.Decide(pv, mv)
	}
	b.mc.Flush()
}
