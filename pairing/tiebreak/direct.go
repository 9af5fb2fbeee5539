package tiebreak

import (
	"iter"
	"slices"
)

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
	order := slices.Clone(e.order)
	e.refineEncounters(order, val, s.Forfeits)
	return e.encounterPositions(order, val)
}

// refineEncounters separates the tied groups of order (players sharing a
// value of val) by their encounters, sorting order by the new values,
// until nothing changes or maxEncounterLoops passes are made. Only groups
// whose last pass separated someone are refined again.
func (e *engine) refineEncounters(order, val []int, forfeits bool) {
	more := make([]bool, e.n)
	for p := range more {
		more[p] = true
	}
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
		for group := range runs(order, val) {
			if !more[group[0]] {
				continue
			}
			c := 0
			if len(group) > 1 {
				c = e.encounterGroup(group, val, forfeits)
			}
			for _, p := range group {
				more[p] = c > 0
			}
			changes += c
		}
		slices.SortStableFunc(order, byVal)
		if changes == 0 {
			break
		}
	}
}

// runs yields the runs of players with the same key in order, in turn.
func runs(order, key []int) iter.Seq[[]int] {
	return func(yield func([]int) bool) {
		for start := 0; start < len(order); {
			stop := start + 1
			for stop < len(order) && key[order[stop]] == key[order[start]] {
				stop++
			}
			if !yield(order[start:stop]) {
				return
			}
			start = stop
		}
	}
}

// encounterPositions normalises the refined values: 0 for the players of
// an undivided group, else 1, 2, … from the group's top.
func (e *engine) encounterPositions(order, val []int) []Value {
	out := make([]Value, e.n)
	for group := range runs(order, e.rank) {
		offset := val[group[0]]
		if offset != val[group[len(group)-1]] {
			offset--
		}
		for _, p := range group {
			out[p] = Value{Num: float64(val[p] - offset), OK: true}
		}
	}
	return out
}

// encounterStanding is one player's result against the others of a tied
// group.
type encounterStanding struct {
	p         int
	score     float64 // points against group members (averaged per opponent)
	max       float64 // score plus wins in the encounters not played
	opponents int
}

// encounterGroup ranks one group of players sharing the value val (a rank
// position) by their games among themselves, writes the new positions into
// val and returns how many players were separated.
func (e *engine) encounterGroup(group []int, val []int, forfeits bool) int {
	current := val[group[0]]
	sts := make([]encounterStanding, len(group))
	metAll := true
	for i, p := range group {
		st := e.encounterScore(p, val, forfeits)
		st.max = st.score
		if missing := len(group) - 1 - st.opponents; missing > 0 && !e.t.RoundRobin {
			metAll = false
			st.max += float64(missing) * e.win
		}
		sts[i] = st
	}
	if metAll {
		return e.rankMetAll(sts, val, current)
	}
	return e.rankPartlyMet(sts, val, current)
}

// encounterScore returns player p's points against the players sharing
// p's value of val and rank, averaged per opponent, and how many of them
// p met. Unplayed games count only with forfeits set or in a round robin.
func (e *engine) encounterScore(p int, val []int, forfeits bool) encounterStanding {
	current := val[p]
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
	st := encounterStanding{p: p, opponents: len(sum)}
	for o, s := range sum {
		st.score += s / float64(cnt[o])
	}
	return st
}

// rankMetAll ranks a group whose members all met by their scores, from
// position current; equal scores share a position.
func (e *engine) rankMetAll(sts []encounterStanding, val []int, current int) int {
	slices.SortStableFunc(sts, func(a, b encounterStanding) int {
		if a.score != b.score {
			return cmpFloat(b.score, a.score)
		}
		return e.ids[a.p] - e.ids[b.p]
	})
	changes := 0
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

// rankPartlyMet ranks a group whose members did not all meet: from the
// top, a player is separated from those below only while each is ahead
// of what anyone below could still reach.
func (e *engine) rankPartlyMet(sts []encounterStanding, val []int, current int) int {
	slices.SortStableFunc(sts, func(a, b encounterStanding) int {
		if a.score != b.score {
			return cmpFloat(b.score, a.score)
		}
		if a.max != b.max {
			return cmpFloat(b.max, a.max)
		}
		return e.ids[a.p] - e.ids[b.p]
	})
	changes := 0
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
