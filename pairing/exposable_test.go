package pairing

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arbiter/pairing/internal/matching"
	"arbiter/pairing/trf"
)

// oddRound is a round of tour with an odd number of players to pair.
type oddRound struct {
	tour  *trf.Tournament
	round int
}

// state returns the engine's state before the round, set up.
func (o oddRound) state(t *testing.T) *dutch {
	s, err := newState(BeforeRound(o.tour, o.round), o.round, Options{Round: o.round})
	require.NoError(t, err)
	d := &dutch{s: s}
	d.setup()
	return d
}

// oddRounds returns rounds with an odd number of players to pair: from
// corpus files and synthetic histories, small ones with many rounds among
// them, where many players have had the bye.
func oddRounds(t *testing.T) []oddRound {
	var out []oddRound
	add := func(tour *trf.Tournament, r int) {
		if o := (oddRound{tour, r}); len(o.state(t).sorted)%2 == 1 {
			out = append(out, o)
		}
	}
	files := corpusFiles(t)
	step := 1
	if testing.Short() || raceEnabled {
		step = 10
	}
	for i := 0; i < len(files); i += step {
		tour := loadCorpus(t, files[i])
		for r := 1; r <= tour.PlayedRounds(); r++ {
			add(tour, r)
		}
	}
	for n := 3; n <= 25; n += 2 {
		for rounds := range min(n, 9) {
			for seed := range uint64(3) {
				tour := syntheticHistory(n, rounds, seed)
				tour.Rounds = rounds + 1
				add(tour, rounds+1)
			}
		}
	}
	return out
}

// The bye's score and the single-bye rule come out of the cardinality
// matching as out of the weighted first matching it replaces.
func TestByeByCardinality(t *testing.T) {
	var decided, fromTop, single, ineligible, impossible int
	for _, o := range oddRounds(t) {
		d1, d2 := o.state(t), o.state(t)
		err1 := d1.byeByCardinality()
		err2 := d2.byeByWeight(matching.NewOdd(len(d2.sorted), d2.words))
		if err2 != nil {
			var nv *NoValidPairingError
			require.ErrorAs(t, err2, &nv)
			require.ErrorAs(t, err1, &nv, "the weighted matching found no pairing")
			impossible++
			continue
		}
		require.NoError(t, err1)
		decided++
		assert.Equal(t, d2.byeScore, d1.byeScore, "the bye's score")
		assert.Equal(t, d2.singleBye, d1.singleBye, "the single-bye rule")
		// The bye from the top score group, with lower groups: C9 then
		// takes the second cardinality matching.
		if d1.byeScore == d1.score(d1.sorted[0]) && d1.groupEnd(0) < len(d1.sorted) {
			fromTop++
			if d1.singleBye {
				single++
			}
		}
		eligible := false
		for _, p := range d1.sorted {
			eligible = eligible || (d1.s.eligibleForBye(p) && d1.score(p) == d1.byeScore)
		}
		if !eligible {
			ineligible++
		}
	}
	t.Logf("%d decided (%d with the bye from the top group, %d of them single-bye; %d with no eligible player), %d impossible",
		decided, fromTop, single, ineligible, impossible)
	assert.Positive(t, decided)
	assert.Positive(t, fromTop, "no case whose bye comes from the top score group")
	assert.Positive(t, ineligible, "no case without an eligible player")
	assert.Positive(t, impossible, "no impossible case")
}

// byeByWeight decides the bye by a maximum weight matching of the round
// whose weights count pairs first, then eligible byes, then the scores
// paired, then pairs within the top score group.
func (d *dutch) byeByWeight(mc *matching.Matcher) error {
	s := d.s
	w := matching.NewWeight(d.words)
	top := d.score(d.sorted[0])
	for i, p := range d.sorted {
		for j, o := range d.sorted[:i] {
			w.SetZero()
			if d.meet.may(i, j) {
				w.AddSmall(1 + b2u(!s.eligibleForBye(p)) + b2u(!s.eligibleForBye(o)))
				w.Shl(d.roundShift)
				w.AddSmall(uint64(d.roundShifts[d.score(p)] + d.roundShifts[d.score(o)]))
				w.Shl(d.sgBits)
				w.AddSmall(b2u(d.score(p) >= top))
			}
			mc.Set(i, j, w)
		}
	}
	w.SetZero()
	w.AddSmall(1)
	w.Shl(d.roundShift + d.sgBits)
	mc.SetUnpaired(w, nil)
	first := mc.Compute()
	if err := checkComplete(first); err != nil {
		return err
	}
	for v, u := range first {
		if u == v {
			d.byeScore = d.score(d.sorted[v])
			break
		}
	}
	d.singleBye = d.byeScore >= top
	for v, p := range d.sorted {
		if !d.singleBye || d.score(p) < top {
			break
		}
		if d.score(d.sorted[first[v]]) < top {
			d.singleBye = false
			break
		}
	}
	return nil
}

// Whole rounds come out the same when every odd round decides its bye by
// the weighted first matching, whose weights the brackets then replace on
// a solver that has started.
func TestByeByWeightPairs(t *testing.T) {
	weighed := 0
	for _, o := range oddRounds(t) {
		opts := Options{Round: o.round}
		before := BeforeRound(o.tour, o.round)
		want, err1 := Pair(before, opts)
		byeHook = func(d *dutch, mc *matching.Matcher) error {
			weighed++
			return d.byeByWeight(mc)
		}
		got, err2 := Pair(before, opts)
		byeHook = nil
		if err1 != nil {
			require.Error(t, err2)
			continue
		}
		require.NoError(t, err2)
		assert.Equal(t, want.Boards, got.Boards, "round %d", o.round)
		assert.Equal(t, want.Bye, got.Bye, "round %d", o.round)
	}
	require.Positive(t, weighed)
}

// TestSingleByeNeedsEligible: in round 4 of this five-player event the
// bye comes from the top group (A, B, C on 2 points; D and E, below,
// have had byes), since A may take it: B-D and C-E pair the rest. Apart
// from the rest, though, the top group can only pair A-B and leave C, who
// has had a bye (a forfeit win) and may not take another. C9 does not
// apply.
func TestSingleByeNeedsEligible(t *testing.T) {
	g := func(opp int, col, res byte) trf.Game { return trf.Game{Opponent: opp, Colour: col, Result: res} }
	bye := func(res byte) trf.Game { return trf.Game{Colour: '-', Result: res} }
	tour := &trf.Tournament{Rounds: 5, InitialColour: 'w', Scoring: trf.DefaultScoring, Players: []trf.Player{
		{ID: 1, Rating: 2000, Games: []trf.Game{g(3, 'w', '='), g(4, 'b', '1'), g(5, 'w', '=')}},
		{ID: 2, Rating: 1990, Games: []trf.Game{g(5, 'w', '1'), g(3, 'b', '='), bye('H')}},
		{ID: 3, Rating: 1980, Games: []trf.Game{g(1, 'b', '='), g(2, 'w', '='), g(4, 'w', '+')}},
		{ID: 4, Rating: 1970, Games: []trf.Game{bye('U'), g(1, 'w', '0'), g(3, 'b', '-')}},
		{ID: 5, Rating: 1960, Games: []trf.Game{g(2, 'b', '0'), bye('U'), g(1, 'b', '=')}},
	}}
	state := func() *dutch {
		s, err := newState(tour, 4, Options{Round: 4})
		require.NoError(t, err)
		d := &dutch{s: s}
		d.setup()
		return d
	}
	d := state()
	require.NoError(t, d.byeByCardinality())
	top := d.score(d.sorted[0])
	require.Equal(t, 3, d.groupEnd(0), "A, B and C on top")
	assert.Equal(t, top, d.byeScore, "the bye from the top group")
	assert.False(t, d.singleBye, "the only one the top group can spare may not take the bye")
	oracle := state()
	require.NoError(t, oracle.byeByWeight(matching.NewOdd(len(oracle.sorted), oracle.words)))
	assert.Equal(t, oracle.byeScore, d.byeScore)
	assert.Equal(t, oracle.singleBye, d.singleBye)
}
