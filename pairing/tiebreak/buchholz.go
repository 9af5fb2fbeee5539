package tiebreak

import (
	"math"
	"slices"
)

// contrib is one round's contribution to a Buchholz-type sum.
type contrib struct {
	vur   bool    // a voluntarily unplayed round: cut first (16.5)
	score float64 // the (real or dummy) opponent's adjusted score
	value float64 // what the round adds: score for BH, score × own points for SB
}

// adjusted returns every player's score as the opponents see it (C.07 16.3):
// unplayed rounds without an opponent after the player's last round of
// presence count as draws; with fore set (Fore Buchholz) a player who had an
// opponent in the last round gets a draw for it. own is the player's own
// score for the dummy of 16.4, fore-adjusted in the same way. Under the 2009
// rules every unplayed round counts as a draw instead.
func (e *engine) adjusted(fore bool) (adj, own []float64) {
	adj, own = make([]float64, e.n), make([]float64, e.n)
	last := e.nr - 1
	for p := 0; p < e.n; p++ {
		lna := e.lna[p]
		present := fore && e.lmp[p] == e.nr
		if present || (e.foreSeen && e.lmp[p] == e.nr) {
			lna = e.nr
		}
		sum, seen := 0.0, 0.0 // seen: what the last round added
		for r := 0; r < e.nr; r++ {
			seen = e.seen(p, r, lna)
			sum += seen
		}
		own[p] = e.total[p]
		if present && last >= 0 && e.opp[e.at(p, last)] >= 0 {
			sum += e.draw - seen
			own[p] += e.draw - e.pts[e.at(p, last)]
		}
		adj[p] = sum
	}
	return adj, own
}

// seen returns what player p's round r (from 0) adds to p's score as the
// opponents see it, lna being p's last round (1-based) that was not
// voluntarily unplayed, or the number of rounds when p counts as present
// to the end.
func (e *engine) seen(p, r, lna int) float64 {
	k := e.at(p, r)
	switch {
	case e.rules == Rules2009 && !e.t.RoundRobin:
		// Unplayed games count as draws for everyone else.
		if e.res[k].Played() {
			return e.pts[k]
		}
		return e.draw
	case r < lna || e.opp[k] >= 0:
		return e.pts[k]
	case !e.t.RoundRobin:
		return e.draw
	}
	return 0
}

// contribs lists player p's Buchholz contributions into e.scratch.
func (e *engine) contribs(p int, adj, own []float64, fore, sb bool) []contrib {
	cs := e.scratch[:0]
	half := e.draw * float64(e.nr)
	before := 0.0 // the player's score before round r
	for r := 0; r < e.nr; r++ {
		k := e.at(p, r)
		sofar := before
		before += e.pts[k]
		o := e.opp[k]
		played := e.res[k].Played() || e.t.RoundRobin || (fore && r == e.nr-1)
		c := contrib{vur: e.res[k].voluntary()}
		switch {
		case played && o >= 0:
			c.vur = false
			c.score = adj[o]
		case e.t.RoundRobin:
			continue // byes in a round robin have no dummy
		case e.rules == Rules2009:
			c.vur = false
			c.score = sofar + (e.win - e.pts[k]) + e.draw*float64(e.nr-r-1)
		default:
			// 16.4: a dummy opponent with the player's own score, capped
			// under the 2026 rules.
			c.score = own[p]
			if e.rules == Rules2026 {
				if o >= 0 {
					c.score = min(c.score, adj[o])
				} else {
					c.score = min(c.score, half)
				}
			}
		}
		c.value = c.score
		if sb {
			c.value = c.score * e.pts[k]
		}
		cs = append(cs, c)
	}
	e.scratch = cs
	return cs
}

// cut removes the lowest and highest contributions (16.5). For the low cut
// the voluntarily unplayed rounds go first, lowest score first. As in the
// reference implementation, the contribution with the lowest score overall
// is cut instead when it adds more than that VUR does, which only happens
// in SB (a VUR worth nothing against a low opponent the player beat). Ties
// go to the earlier round.
func cut(cs []contrib, low, high, rounds int) []contrib {
	low = min(low, rounds)
	high = min(high, rounds-low)
	byScore := func(a, b contrib) int {
		if a.score != b.score {
			return cmpFloat(a.score, b.score)
		}
		return cmpFloat(a.value, b.value)
	}
	vurFirst := func(a, b contrib) int {
		if a.vur != b.vur {
			if a.vur {
				return -1
			}
			return 1
		}
		return byScore(a, b)
	}
	for ; low > 0 && len(cs) > 0; low-- {
		all := slices.Clone(cs)
		slices.SortStableFunc(all, byScore)
		slices.SortStableFunc(cs, vurFirst)
		if all[0].value > cs[0].value {
			cs = all
		}
		cs = cs[1:]
	}
	for ; high > 0 && len(cs) > 0; high-- {
		slices.SortStableFunc(cs, func(a, b contrib) int { return byScore(b, a) })
		cs = cs[1:]
	}
	return cs
}

func cmpFloat(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// buchholz computes BH, FB and SB with their cuts.
func (e *engine) buchholz(s Spec) []Value {
	fore := s.Kind == FB
	adj, own := e.adjusted(fore)
	if fore && !e.isolateFB {
		e.foreSeen = true
	}
	return e.each(func(p int) float64 {
		cs := e.contribs(p, adj, own, fore, s.Kind == SB)
		if s.CutLow > 0 || s.CutHigh > 0 {
			cs = cut(cs, s.CutLow, s.CutHigh, e.nr)
		}
		sum := 0.0
		for _, c := range cs {
			sum += c.value
		}
		return sum
	})
}

// averageOfBuchholz averages the plain Buchholz of the opponents met over
// the board, rounded half up to two decimals.
func (e *engine) averageOfBuchholz(Spec) []Value {
	bh := e.buchholz(Spec{Kind: BH})
	return e.averageOver(bh, 2)
}

// averageOver averages, for each player, vals of the opponents met over the
// board, skipping values that are not applicable, rounded half up to the
// given number of decimals.
func (e *engine) averageOver(vals []Value, decimals int) []Value {
	out := make([]Value, e.n)
	for p := 0; p < e.n; p++ {
		sum, num := 0.0, 0
		for r := 0; r < e.nr; r++ {
			k := e.at(p, r)
			if !e.overBoard(k) || !vals[e.opp[k]].OK {
				continue
			}
			sum += vals[e.opp[k]].Num
			num++
		}
		if num > 0 {
			out[p] = Value{Num: roundHalfUp(sum, num, decimals), OK: true}
		}
	}
	return out
}

// roundHalfUp returns sum/num rounded half up to the given decimals (at
// most 4). sum is taken at a precision of 1/10000, which is exact for the
// sums of halves and quarters that tie-breaks produce, so the rounding is
// decided on integers rather than on inexact binary fractions.
func roundHalfUp(sum float64, num, decimals int) float64 {
	const unit = 10000
	scale := int64(1)
	for range decimals {
		scale *= 10
	}
	s := int64(math.Round(sum * unit))
	neg := s < 0
	if neg {
		s = -s
	}
	den := int64(num) * unit
	q := (2*s*scale + den) / (2 * den)
	if neg {
		q = -q
	}
	return float64(q) / float64(scale)
}
