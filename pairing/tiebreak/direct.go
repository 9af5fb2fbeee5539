package tiebreak

import "slices"

// maxEncounterLoops bounds the refinement of direct-encounter groups, as the
// reference implementation does.
const maxEncounterLoops = 30

// directEncounter computes DE for the players still tied on everything
// computed so far. Within a tied group, the points scored against the other
// members decide. When not all members have met (Swiss events), a player is
// separated only if their score exceeds what anyone below could still reach
// by winning every missing encounter. Groups are refined until nothing
// changes. The value is 0 for a player DE does not separate from anyone, and
// otherwise the position inside the group (1 is best).
func (e *engine) directEncounter(s Spec) []Value {
	val := slices.Clone(e.rank)
	more := make([]bool, e.n)
	for p := range more {
		more[p] = true
	}
	order := slices.Clone(e.order)
	byVal := func(a, b int) int {
		if d := e.rank[a] - e.rank[b]; d != 0 {
			return d
		}
		if d := val[a] - val[b]; d != 0 {
			return d
		}
		return e.ids[a] - e.ids[b]
	}
	for loop := 1; loop < maxEncounterLoops; loop++ {
		changes := 0
		for start := 0; start < len(order); {
			stop := start + 1
			for stop < len(order) && val[order[stop]] == val[order[start]] {
				stop++
			}
			if more[order[start]] {
				group := order[start:stop]
				c := 0
				if len(group) > 1 {
					c = e.encounterGroup(group, val, s.Forfeits)
				}
				for _, p := range group {
					more[p] = c > 0
				}
				changes += c
			}
			start = stop
		}
		slices.SortStableFunc(order, byVal)
		if changes == 0 {
			break
		}
	}
	// Normalise: 0 for undivided groups, else 1, 2, … from the group's top.
	out := make([]Value, e.n)
	for start := 0; start < len(order); {
		stop := start + 1
		for stop < len(order) && e.rank[order[stop]] == e.rank[order[start]] {
			stop++
		}
		offset := val[order[start]]
		if offset != val[order[stop-1]] {
			offset--
		}
		for _, p := range order[start:stop] {
			out[p] = Value{Num: float64(val[p] - offset), OK: true}
		}
		start = stop
	}
	return out
}

// encounterGroup ranks one group of players sharing the value val (a rank
// position) by their games among themselves, writes the new positions into
// val and returns how many players were separated.
func (e *engine) encounterGroup(group []int, val []int, forfeits bool) int {
	current := val[group[0]]
	type standing struct {
		p         int
		score     float64 // points against group members (averaged per opponent)
		max       float64 // score plus wins in the encounters not played
		opponents int
	}
	sts := make([]standing, len(group))
	metAll := true
	for i, p := range group {
		sum := map[int32]float64{}
		cnt := map[int32]int{}
		for r := 0; r < e.nr; r++ {
			k := e.at(p, r)
			o := e.opp[k]
			if o < 0 || val[o] != current || e.rank[o] != e.rank[p] {
				continue
			}
			if !(e.res[k].Played() || forfeits || e.t.RoundRobin) {
				continue
			}
			sum[o] += e.pts[k]
			cnt[o]++
		}
		st := standing{p: p, opponents: len(sum)}
		for o, s := range sum {
			st.score += s / float64(cnt[o])
		}
		st.max = st.score
		if missing := len(group) - 1 - st.opponents; missing > 0 && !e.t.RoundRobin {
			metAll = false
			st.max += float64(missing) * e.win
		}
		sts[i] = st
	}
	changes := 0
	if metAll {
		slices.SortStableFunc(sts, func(a, b standing) int {
			if a.score != b.score {
				return cmpFloat(b.score, a.score)
			}
			return e.ids[a.p] - e.ids[b.p]
		})
		pos := current
		for i := range sts {
			if i > 0 && sts[i].score != sts[i-1].score {
				pos = current + i
				changes++
			}
			val[sts[i].p] = pos
		}
		return changes
	}
	slices.SortStableFunc(sts, func(a, b standing) int {
		if a.score != b.score {
			return cmpFloat(b.score, a.score)
		}
		if a.max != b.max {
			return cmpFloat(b.max, a.max)
		}
		return e.ids[a.p] - e.ids[b.p]
	})
	pos, unique := current, true
	val[sts[0].p] = pos
	for i := 1; i < len(sts); i++ {
		best := sts[i].max
		for _, st := range sts[i+1:] {
			best = max(best, st.max)
		}
		if unique && sts[i-1].score > best {
			pos = current + i
			changes++
		} else {
			unique = false
		}
		val[sts[i].p] = pos
	}
	return changes
}
