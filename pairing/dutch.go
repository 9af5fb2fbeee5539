package pairing

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"sort"

	"arbiter/pairing/internal/matching"
)

// dutch pairs one round by the FIDE Dutch system. The criteria are turned
// into bit fields of an edge weight, most important first, and a maximum
// weight matching over all remaining players settles one bracket at a time,
// from the top score group down; this keeps every later bracket pairable
// (Completion, C4) while optimising the current one. The decisions that the
// rules make by generation order (which MDPs, which exchanges, which
// opponent) are taken by small weight nudges and re-matching, one player at
// a time, as in bbpPairings, whose results this engine reproduces.
type dutch struct {
	s      *state
	sorted []*player
	trace  *Trace

	sgBits int // bits to count the players of the largest score group
	// A per-score-group field holds a counter for each score present in
	// the bracket (layOut), not for every score of the round: the weights
	// stay words narrower, and the matcher's arithmetic on them is that
	// much faster.
	width layout
	// fields lists the fields of the edge weights below the top one
	// (fieldsWith(width)).
	fields []field
	// shifts: score -> bit offset of its counter in the fields about
	// pairs in the current bracket; nextShifts: the same in the field
	// about pairs in the next one.
	shifts, nextShifts map[int]int
	// roundShifts places every score group of the round in one field,
	// each as wide as its group, roundShift wide in all: an odd round's
	// weighted first matching (byeByWeight) weighs scores by these offsets.
	roundShifts map[int]int
	roundShift  int
	groupBits   []int // bits to count each score group, lowest score first
	words       int
	byeScore    int
	// byeMay, when set, has a true for each player that may receive the
	// pairing-allocated bye in some complete pairing: only those are
	// joined to the matcher's phantom.
	byeMay []bool
	// singleBye is set when the bracket downfloats exactly one player who
	// will receive the PAB (ByeUnplayed applies).
	singleBye   bool
	playedRanks map[int]int
	meet        meetings // who may meet whom
	matchings   int      // maximum weight matchings computed
}

func b2u(b bool) uint64 {
	if b {
		return 1
	}
	return 0
}

func (d *dutch) score(p *player) int { return p.pscore }

// float returns the cached float of p `back` rounds before (1 or 2).
func (d *dutch) float(p *player, back int) floatKind { return p.floats[back-1] }

func (d *dutch) isByeCandidate(p *player) bool {
	return d.s.eligibleForBye(p) && d.score(p) <= d.byeScore
}

// layout gives the widths of the per-score-group fields. The fields
// about pairs in the current bracket (DownfloaterScores and the
// Repeat*Score criteria) count by the scores of its players; the one about
// pairs in the next bracket (NextBracket) also by the next score group's.
type layout struct{ cur, next int }

// fieldBits returns the width of the edge weight below its top field.
func (d *dutch) fieldBits() int { return sumBits(d.fields) }

// fieldBitsWith is fieldBits with the per-score-group fields of l.
func (d *dutch) fieldBitsWith(l layout) int {
	var buf [24]field // more than the most fields, to stay off the heap
	return sumBits(d.appendFields(buf[:0], l))
}

// wordsFor returns the words of a weight with the fields of l. The
// weights of an odd round's weighted first matching (byeByWeight) must
// fit as well: with many small score groups they can be the wider ones.
func (d *dutch) wordsFor(l layout) int {
	bits := max(2+d.fieldBitsWith(l), 2+d.roundShift+d.sgBits)
	// Four spare bits above the top field: weights may carry one bit
	// past it, the matcher doubles them, and it adds two duals.
	return (bits + 4 + 63) / 64
}

// narrowLayout returns per-score-group fields for brackets of one or two
// score groups with a few downfloaters, widened as far as the same number
// of words allows. A bracket needing more fails with errNarrow, and the
// round is paired again with the round-wide fields.
func (d *dutch) narrowLayout() layout {
	var l layout
	for k, b := range d.groupBits {
		l.cur = max(l.cur, b)
		if k > 0 {
			l.next = max(l.next, d.groupBits[k-1]+b)
		}
	}
	// Room for downfloaters of two higher scores.
	const margin = 4
	wide := layout{d.roundShift, d.roundShift}
	l = layout{min(l.cur+margin, wide.cur), min(l.next+margin, wide.next)}
	for words := d.wordsFor(l); l != wide; {
		m := layout{min(l.cur+1, wide.cur), min(l.next+1, wide.next)}
		if d.wordsFor(m) > words {
			break
		}
		l = m
	}
	return l
}

// errNarrow reports a bracket whose scores need wider per-score-group
// fields than the round's weights have.
var errNarrow = errors.New("per-score-group fields too narrow for the bracket")

// layOut places a counter for each score among the bracket's players in
// the per-score-group fields, higher scores above lower ones, each wide
// enough to count its players, which bounds every sum the fields take in
// a matching. cur holds the current bracket's players, next the next
// score group's.
func (d *dutch) layOut(cur, next []int) error {
	counts := map[int]int{}
	for _, v := range cur {
		counts[d.score(d.sorted[v])]++
	}
	d.shifts = make(map[int]int, len(counts))
	off := 0
	for _, sc := range slices.Sorted(maps.Keys(counts)) {
		d.shifts[sc] = off
		off += matching.BitLen(counts[sc])
	}
	if off > d.width.cur {
		return fmt.Errorf("%w: %s needs %d bits for the current bracket, %d available",
			errNarrow, field{crit: DownfloaterScores}.label(d.s.edition), off, d.width.cur)
	}
	// The next score group's players rank below the bracket's.
	nextBits := matching.BitLen(len(next))
	d.nextShifts = make(map[int]int, len(counts)+1)
	for sc, o := range d.shifts {
		d.nextShifts[sc] = nextBits + o
	}
	if len(next) > 0 {
		d.nextShifts[d.score(d.sorted[next[0]])] = 0
	}
	if off += nextBits; off > d.width.next {
		return fmt.Errorf("%w: %s needs %d bits for the next bracket, %d available",
			errNarrow, field{crit: NextBracket}.label(d.s.edition), off, d.width.next)
	}
	return nil
}

// edgeWeightInto writes into w, which must be zero, the weight of pairing
// hi (ranked higher) with lo. inCur: lo is a resident of the current
// bracket; inNext: lo belongs to the next score group. A zero weight means
// the pair is not allowed. Besides whether the two may meet, it may read of
// a player only what playerKind (weightcache.go) holds: weights are shared
// by players of one kind.
func (d *dutch) edgeWeightInto(w matching.Weight, hi, lo *player, inCur, inNext bool) {
	if !d.meet.may(hi.place, lo.place) {
		return
	}
	// The fields are added in place at their bit offsets, top first,
	// rather than by shifting the whole multi-word weight for each.
	f := fieldWriter{w: w, pos: d.fieldBits(), fields: d.fields}
	d.bracketBits(&f, hi, lo, inCur, inNext)
	d.byeUnplayedBits(&f, hi, lo)
	d.colourBits(&f, lo, hi, inCur)
	d.floatBits(&f, hi, lo, inCur)
	d.floatScoreBits(&f, hi, lo, inCur)
	// Room for the ordering rules of homogeneous brackets and remainders.
	f.next(0)
}

// bracketBits appends the fields from the top one to NextBracket for hi
// against lo.
func (d *dutch) bracketBits(f *fieldWriter, hi, lo *player, inCur, inNext bool) {
	// The top field, Completion and ByeScore: pairs of players who cannot
	// take the bye are worth most.
	f.add(1 + b2u(!d.isByeCandidate(hi)) + b2u(!d.isByeCandidate(lo)))
	// Maximise pairs in the current bracket.
	f.next(MaxPairs)
	f.add(b2u(inCur))
	// Maximise the scores paired in the current bracket.
	f.next(DownfloaterScores)
	if inCur {
		f.bit(d.shifts[d.score(hi)])
	}
	// The same for the next bracket: its pairs, then their scores.
	f.next(NextBracket)
	f.add(b2u(inNext))
	f.next(NextBracket)
	if inNext {
		f.bit(d.nextShifts[d.score(hi)])
	}
}

// byeUnplayedBits appends the field of ByeUnplayed, the unplayed games of
// the bye assignee (2026 only), for hi against lo.
func (d *dutch) byeUnplayedBits(f *fieldWriter, hi, lo *player) {
	f.next(ByeUnplayed)
	if !d.singleBye || d.s.edition == Dutch2017 {
		return
	}
	if d.score(hi) == d.byeScore {
		f.add(uint64(d.playedRanks[hi.playedGames]))
	}
	if d.score(lo) == d.byeScore {
		f.add(uint64(d.playedRanks[lo.playedGames]))
	}
}

// floatBits appends the fields of the repeated floats (RepeatDownfloat1
// to RepeatUpfloat2) for hi against lo.
func (d *dutch) floatBits(f *fieldWriter, hi, lo *player, inCur bool) {
	for back := 1; back <= min(2, d.s.playedRounds); back++ {
		// Downfloaters repeated from `back` rounds before.
		f.next([...]Criterion{RepeatDownfloat1, RepeatDownfloat2}[back-1])
		if inCur {
			f.add(b2u(d.float(lo, back) == floatDown))
			f.add(b2u(d.score(hi) <= d.score(lo) && d.float(hi, back) == floatDown))
		}
		// Upfloaters repeated.
		f.next([...]Criterion{RepeatUpfloat1, RepeatUpfloat2}[back-1])
		if inCur {
			f.add(b2u(!(d.score(hi) > d.score(lo) && d.float(lo, back) == floatUp)))
		}
	}
}

// floatScoreBits appends the fields of the scores of repeated floaters
// (RepeatDownfloatScore1 to RepeatUpfloatScore2) for hi against lo.
func (d *dutch) floatScoreBits(f *fieldWriter, hi, lo *player, inCur bool) {
	for back := 1; back <= min(2, d.s.playedRounds); back++ {
		// Scores of repeated downfloaters.
		f.next([...]Criterion{RepeatDownfloatScore1, RepeatDownfloatScore2}[back-1])
		if inCur {
			if d.float(lo, back) == floatDown {
				f.bit(d.shifts[d.score(lo)])
			}
			if d.float(hi, back) == floatDown {
				f.bit(d.shifts[d.score(hi)])
			}
		}
		// Scores of opponents of repeated upfloaters.
		f.next([...]Criterion{RepeatUpfloatScore1, RepeatUpfloatScore2}[back-1])
		if inCur && !(d.float(lo, back) == floatUp && d.score(hi) > d.score(lo)) {
			f.bit(d.shifts[d.score(hi)])
		}
	}
}

// colourBits appends the fields of the colour criteria
// (TopscorerColourDifference to StrongColourPreference) for p against o.
func (d *dutch) colourBits(f *fieldWriter, p, o *player, inCur bool) {
	f.next(TopscorerColourDifference)
	f.add(b2u(inCur && (!p.absoluteImbalance() || !o.absoluteImbalance() || p.colourPref != o.colourPref)))
	f.next(TopscorerColourRun)
	f.add(b2u(inCur && noTopscorerRun(p, o)))
	f.next(ColourPreference)
	f.add(b2u(inCur && prefsCompatible(p.colourPref, o.colourPref)))
	f.next(StrongColourPreference)
	f.add(b2u(inCur && strongPrefsCompatible(p, o)))
}

// noTopscorerRun reports whether p and o may meet without one of them
// getting the same colour three times in a row (TopscorerColourRun).
func noTopscorerRun(p, o *player) bool {
	if !p.absolutePref() || !o.absolutePref() || p.colourPref != o.colourPref {
		return true
	}
	if p.colourImbalance == o.colourImbalance {
		return p.repeatedColour == NoColour || p.repeatedColour != o.repeatedColour
	}
	q := p
	if p.colourImbalance > o.colourImbalance {
		q = o
	}
	return q.repeatedColour != p.colourPref.invert()
}

// strongPrefsCompatible reports whether p and o may meet with both
// getting their strong (or absolute) colour preferences.
func strongPrefsCompatible(p, o *player) bool {
	return (!p.strongPref && !p.absolutePref()) || (!o.strongPref && !o.absolutePref()) ||
		(p.absolutePref() && o.absolutePref()) || p.colourPref != o.colourPref
}

func prefsCompatible(a, b Colour) bool { return a != b || a == NoColour || b == NoColour }

// setup sorts the players and sizes the weight fields.
func (d *dutch) setup() {
	s := d.s
	for _, p := range s.players {
		if p.valid && p.present {
			d.sorted = append(d.sorted, p)
			for r, m := range p.matches[:s.playedRounds] {
				if m.played && r+1 >= s.rematchesBefore {
					p.forbid(m.opponent)
				}
			}
		}
	}
	// Cache what the edge weights ask for again and again.
	for _, p := range s.players {
		if !p.valid {
			continue
		}
		p.pscore = s.pairScore(p)
		p.floats = [2]floatKind{floatNone, floatNone}
		if p.present {
			for back := 1; back <= min(2, s.playedRounds); back++ {
				p.floats[back-1] = s.floatAt(p, back)
			}
		}
	}
	sort.SliceStable(d.sorted, func(i, j int) bool { return s.ranksAbove(d.sorted[i], d.sorted[j]) })
	d.setMeetings()
	d.roundShifts = map[int]int{}
	maxGroup, repeated := 0, 0
	for i := len(d.sorted) - 1; i >= 0; i-- {
		repeated++
		sc := d.score(d.sorted[i])
		if i == 0 || sc < d.score(d.sorted[i-1]) {
			d.roundShifts[sc] = d.roundShift
			maxGroup = max(maxGroup, repeated)
			d.groupBits = append(d.groupBits, matching.BitLen(repeated))
			d.roundShift += matching.BitLen(repeated)
			repeated = 0
		}
	}
	d.sgBits = matching.BitLen(maxGroup)
	d.setWidth(layout{d.roundShift, d.roundShift})
}

// setWidth sizes the weights for the per-score-group fields of l.
func (d *dutch) setWidth(l layout) {
	d.width, d.words, d.fields = l, d.wordsFor(l), d.fieldsWith(l)
}

// pairRound returns the pairs as vertex index pairs (into d.sorted) and the
// index of the player left without an opponent, or -1.
func (d *dutch) pairRound() (pairs [][2]int, bye int, err error) {
	d.setup()
	n := len(d.sorted)
	if n == 0 {
		return nil, -1, nil
	}
	if n > 65535 {
		return nil, -1, fmt.Errorf("%d players to pair; at most 65535 are supported", n)
	}
	narrow := d.narrowLayout()
	if narrowHook != nil {
		narrow = narrowHook(narrow)
	}
	pairs, bye, err = d.pairIn(narrow)
	if errors.Is(err, errNarrow) {
		pairs, bye, err = d.pairIn(layout{d.roundShift, d.roundShift})
	}
	return pairs, bye, err
}

// narrowHook, if set, replaces the layout narrowLayout returns: tests use
// it to make brackets fail with errNarrow.
var narrowHook func(layout) layout

// pairIn pairs the round with the per-score-group fields of l.
func (d *dutch) pairIn(l layout) (pairs [][2]int, bye int, err error) {
	n := len(d.sorted)
	d.setWidth(l)
	d.byeScore, d.singleBye, d.playedRanks, d.byeMay = 0, false, map[int]int{}, nil
	if d.trace != nil {
		d.trace.Brackets = nil
	}
	var mc *matching.Matcher
	if n%2 == 0 {
		mc = matching.New(n, d.words)
	} else {
		mc = matching.NewOdd(n, d.words)
		if err := d.chooseBye(mc); err != nil {
			return nil, -1, err
		}
		// The bye is worth a pair of two bye candidates, and nothing below.
		w := matching.NewWeight(d.words)
		w.AddSmall(1)
		w.Shl(d.fieldBits())
		mc.SetUnpaired(w, d.byeMay)
	}
	// The first matching proves that all can be paired (with an odd
	// number, all but one: chooseBye did that), and the first bracket's
	// does that as well. When that bracket (the top score group and the
	// next) holds everyone, as in round 1, its weights are all there is:
	// none are set here, and no matching is computed. Otherwise the
	// matching of these weights is a better start for the first bracket's
	// than none. (They replace those of byeByWeight, if it ran.)
	if d.firstBracketEnd() < n {
		d.setFlat(mc)
		if err := checkComplete(mc.Compute()); err != nil {
			return nil, -1, err
		}
	}
	return d.brackets(mc)
}

// chooseBye decides the score of the bye of a round with an odd number of
// players, and whether the single-bye rule (ByeUnplayed) applies from the first
// bracket.
func (d *dutch) chooseBye(mc *matching.Matcher) error {
	var err error
	if byeHook != nil {
		err = byeHook(d, mc)
	} else {
		err = d.byeByCardinality()
	}
	if err != nil {
		return err
	}
	d.setPlayedRanks()
	return nil
}

// byeHook, if set, decides the bye instead of byeByCardinality: tests
// compare whole rounds with the weighted first matching it replaced.
var byeHook func(d *dutch, mc *matching.Matcher) error

// byeByCardinality sets the score of the bye to the lowest among the
// players that a maximum matching may leave unpaired, eligible players
// first (Completion, ByeScore), and says whether the single-bye rule (ByeUnplayed) applies from
// the first bracket.
func (d *dutch) byeByCardinality() error {
	n := len(d.sorted)
	c := matching.NewCardinality(n, d.meet.bits)
	if c.Maximize() > 1 {
		return errIncomplete()
	}
	exposable := c.Exposable()
	eligible := d.s.eligibleForBye
	var found bool
	if d.byeScore, found = d.lowestExposable(exposable, eligible); !found {
		eligible = func(*player) bool { return true }
		d.byeScore, _ = d.lowestExposable(exposable, eligible)
	} else {
		// Any other bye loses a pair of a player who cannot take it
		// (ByeScore): no maximum weight matching leaves one of those unpaired,
		// and the phantom needs no edge to them. Fewer edges there keep
		// it from joining the whole graph in one blossom.
		d.byeMay = make([]bool, n)
		for v, p := range d.sorted {
			d.byeMay[v] = exposable[v] && d.isByeCandidate(p)
		}
	}
	if d.byeScore < d.score(d.sorted[0]) {
		return nil
	}
	d.singleBye = d.topGroupSingleBye(eligible)
	return nil
}

// lowestExposable returns the lowest score of the players ok accepts that
// a maximum matching may leave unpaired (exposable, by place), and whether
// there is one.
func (d *dutch) lowestExposable(exposable []bool, ok func(*player) bool) (int, bool) {
	// d.sorted ranks higher scores first.
	for v := len(d.sorted) - 1; v >= 0; v-- {
		if exposable[v] && ok(d.sorted[v]) {
			return d.score(d.sorted[v]), true
		}
	}
	return 0, false
}

// topGroupSingleBye reports, for a bye from the top score group, whether
// ByeUnplayed applies: when every other player of the group can be paired
// within it, the rest among themselves, and the bye be one it may be
// (eligible): a maximum matching of the graph without the edges between
// the group and the rest leaves one such player unpaired.
func (d *dutch) topGroupSingleBye(eligible func(*player) bool) bool {
	k := d.groupEnd(0)
	if k == len(d.sorted) {
		return true // round 1, or a field of one score
	}
	sc := matching.NewCardinality(len(d.sorted), d.meet.withoutEdgesAcross(len(d.sorted), k))
	if sc.Maximize() != 1 {
		return false
	}
	for v, ok := range sc.Exposable()[:k] {
		if ok && eligible(d.sorted[v]) {
			return true
		}
	}
	return false
}

// setPlayedRanks ranks the numbers of games played by the players with
// the bye's score, most first, for ByeUnplayed.
func (d *dutch) setPlayedRanks() {
	var counts []int
	for _, p := range d.sorted {
		if d.score(p) == d.byeScore {
			counts = append(counts, p.playedGames)
		}
	}
	sort.Sort(sort.Reverse(sort.IntSlice(counts)))
	for r, c := range counts {
		d.playedRanks[c] = r
	}
}

// setFlat sets every edge to its weight outside any bracket.
func (d *dutch) setFlat(mc *matching.Matcher) {
	c := newWeightCache(d, mc, d.sorted)
	d.setFlatFrom(mc, c)
	c.release()
}

// setFlatFrom is setFlat with the weights of c.
func (d *dutch) setFlatFrom(mc *matching.Matcher, c *weightCache) {
	row := make([]uint32, len(d.sorted))
	for i := range d.sorted {
		c.flatRow(i, row)
		mc.SetRow(i, row[:i])
	}
}

// firstBracketEnd returns the number of players in the top score group and
// the next, whose edges the first bracket sets.
func (d *dutch) firstBracketEnd() int { return d.groupEnd(d.groupEnd(0)) }

// groupEnd returns the place after the score group that starts at place
// from (len(d.sorted) if from is).
func (d *dutch) groupEnd(from int) int {
	end := from
	for end < len(d.sorted) && d.score(d.sorted[end]) >= d.score(d.sorted[from]) {
		end++
	}
	return end
}

// checkComplete reports the round as impossible to pair when the maximum
// weight matching mate, whose heaviest field counts pairs, leaves more than
// one player unpaired.
func checkComplete(mate []int) error {
	unmatched := 0
	for v, u := range mate {
		if u == v {
			unmatched++
		}
	}
	if unmatched > 1 {
		return errIncomplete()
	}
	return nil
}

// errIncomplete reports a round in which more than one player would be
// left unpaired.
func errIncomplete() error {
	return &NoValidPairingError{Reason: "the players cannot all be paired (all but one) without a rematch, an ineligible bye or a clash of absolute colour preferences"}
}

// brackets pairs the round bracket by bracket, from the top score group
// down (C.04.3 Art. 1.3, 2017 A.3): each bracket holds the players its
// predecessor floated down (the MDPs) and the next score group (the
// residents). bracket.go pairs each in the order of the text.
func (d *dutch) brackets(mc *matching.Matcher) (pairs [][2]int, bye int, err error) {
	n := len(d.sorted)
	partner := make([]int, n)
	for i := range partner {
		partner[i] = -1
	}
	var vi []int
	next := d.groupEnd(0)
	for v := range next {
		vi = append(vi, v)
	}
	b := &bracket{d: d, mc: mc, matched: make([]bool, n), w: matching.NewWeight(d.words), delta: matching.NewWeight(d.words)}
	sgBegin, sgBeginVertex := 0, 0
	for len(vi) > 1 || next != n {
		nextBegin := len(vi)
		sgIt := next
		for end := d.groupEnd(next); next < end; next++ {
			vi = append(vi, vi[len(vi)-1]+1)
		}
		bt, err := d.pairBracket(b, vi, sgBegin, nextBegin, sgBeginVertex)
		if err != nil {
			return nil, -1, err
		}
		vi, sgBegin = d.carry(b, bt, vi, nextBegin, sgIt, partner)
		sgBeginVertex = b.nextBeginVertex
	}
	d.matchings += mc.Calls()
	return d.pairsOf(partner)
}

// pairBracket pairs the bracket of the players at vertices vi: the MDPs
// vi[:sgBegin], the residents vi[sgBegin:nextBegin] and, for the
// weights, the next score group vi[nextBegin:]. It returns the
// bracket's trace.
func (d *dutch) pairBracket(b *bracket, vi []int, sgBegin, nextBegin, sgBeginVertex int) (*bracketBuilder, error) {
	if err := d.layOut(vi[:nextBegin], vi[nextBegin:]); err != nil {
		return nil, err
	}
	bt := d.trace.openBracket(d, vi[:sgBegin], vi[sgBegin:nextBegin])
	b.open(vi, sgBegin, nextBegin, sgBeginVertex)
	if sgBeginVertex == 0 {
		// The first matching of all: see pairRound.
		if err := checkComplete(b.stable); err != nil {
			return nil, err
		}
	}
	b.chooseMDPs()
	b.pairMDPs()
	b.splitRemainder()
	exchanges := b.exchanges()
	b.exchangeFromS1(exchanges)
	b.exchangeFromS2(exchanges)
	b.fixExchanges()
	b.pairS1WithS2()
	return bt, nil
}

// carry records in partner the pairs of the bracket just paired, whose
// players are vi (its own up to nextBegin, then the score group that
// starts at place sgIt), and returns the unpaired players, carried into
// the next bracket, and how many of them float down from this one. It
// also says whether the single-bye rule (ByeUnplayed) applies to the
// next bracket.
func (d *dutch) carry(b *bracket, bt *bracketBuilder, vi []int, nextBegin, sgIt int, partner []int) (newVi []int, sgBegin int) {
	n := len(d.sorted)
	d.singleBye = n%2 == 1 && sgIt != n && d.byeScore == d.score(d.sorted[sgIt])
	for pi, pv := range vi {
		if pi < nextBegin && b.matched[pv] {
			partner[pv] = b.stable[pv]
			partner[b.stable[pv]] = pv
			continue
		}
		newVi = append(newVi, pv)
		if pi < nextBegin {
			sgBegin++
			bt.downfloat(pv)
		}
		if d.score(d.sorted[b.stable[pv]]) < d.byeScore {
			d.singleBye = false
		}
	}
	bt.close(partner)
	return newVi, sgBegin
}

// pairsOf returns the pairs (each lower place first, in the order of the
// lower) and the bye's place (-1 if none) that partner, the partner's
// place of each place or -1, gives.
func (d *dutch) pairsOf(partner []int) (pairs [][2]int, bye int, err error) {
	bye = -1
	for v := range d.sorted {
		if partner[v] < 0 {
			if bye >= 0 {
				return nil, -1, &NoValidPairingError{Reason: "more than one player left unpaired"}
			}
			bye = v
		} else if v < partner[v] {
			pairs = append(pairs, [2]int{v, partner[v]})
		}
	}
	return pairs, bye, nil
}

// warmMin is the smallest bracket (with the next score group) whose
// matching starts from a solution of its own (matching.Matcher.WarmStart).
const warmMin = 32
