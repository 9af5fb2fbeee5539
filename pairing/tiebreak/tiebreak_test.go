package tiebreak

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// small has a withdrawal (2 after round 1), a PAB (4 in round 2) and a
// half-point bye (3 in round 3). The expected numbers below were worked out
// by hand from the C.07 text, see the comments.
const small = `
1 2000: 2w1 3b1 4b=
2 1900: 1b0 Z Z
3 1800: 4w= 1w0 H
4 1700: 3b= U 1w=
`

func TestSmallByHand(t *testing.T) {
	tour := build(t, small)
	specs := MustParseSpecs("PTS BH BH/C1 SB FB AOB PS WIN WON BPG BWG REP ARO TPR PTP")
	st, err := Compute(tour, specs, Options{})
	require.NoError(t, err)
	// Adjusted scores (16.3): 1: 2.5; 2: 0 + ½ + ½ (rounds after the
	// withdrawal are draws) = 1; 3: ½ + 0 + ½ = 1; 4: 2.
	// Dummy (16.4.2): own score capped at ½ × 3 rounds = 1.5.
	want := map[string]map[int]float64{
		"PTS":   {1: 2.5, 2: 0, 3: 1, 4: 2},
		"BH":    {1: 1 + 1 + 2, 2: 2.5 + 0 + 0, 3: 2 + 2.5 + 1, 4: 1 + 1.5 + 2.5},
		"BH/C1": {1: 1 + 2, 2: 2.5 + 0, 3: 2 + 2.5, 4: 1.5 + 2.5},
		"SB":    {1: 1 + 1 + 1, 2: 0, 3: 1 + 0 + 0.5, 4: 0.5 + 1.5 + 1.25},
		"FB":    {1: 4, 2: 2.5, 3: 5.5, 4: 5},
		"AOB":   {1: 4.33, 2: 4, 3: 4.5, 4: 4.75},
		"PS":    {1: 1 + 2 + 2.5, 2: 0, 3: 0.5 + 0.5 + 1, 4: 0.5 + 1.5 + 2},
		"WIN":   {1: 2, 2: 0, 3: 0, 4: 1},
		"WON":   {1: 2, 2: 0, 3: 0, 4: 0},
		"BPG":   {1: 2, 2: 1, 3: 0, 4: 1},
		"BWG":   {1: 1, 2: 0, 3: 0, 4: 0},
		"REP":   {1: 3, 2: 1, 3: 2, 4: 3},
		"ARO":   {1: 1800, 2: 2000, 3: 1850, 4: 1900},
		// TPR = ARO + dp: 83 % → 273, 0 % → −800, 25 % → −193, 50 % → 0.
		"TPR": {1: 2073, 2: 1200, 3: 1657, 4: 1900},
	}
	for c, s := range st.Tiebreaks {
		if w, ok := want[s.String()]; ok {
			assert.Equal(t, w, column(st, c), s.String())
		}
	}
	// PTP of a zero score is the lowest opponent minus 800.
	assert.Equal(t, 1200.0, column(st, 14)[2])
	ids := []int{}
	for _, r := range st.Rows {
		ids = append(ids, r.ID)
	}
	assert.Equal(t, []int{1, 4, 3, 2}, ids)
}

// TestDummyRules checks the example of 16.4: a score of 3.5 in 5 rounds
// gives a dummy worth 2.5 under the 2026 rules and 3.5 before.
func TestDummyRules(t *testing.T) {
	tour := build(t, `
1 0: 2w1 3b1 Z 4w1 5b=
2 0: 1b0 5w0 4w0 3w0 U
3 0: 4w= 1w0 5b0 2b1 6w1
4 0: 3b= 6w= 2b1 1b0 Z
5 0: 6w1 2b1 3w1 6b1 1w=
6 0: 5b0 4b= U 5w0 3b0
`)
	bh := func(r Rules) (full, cut float64) {
		st, err := Compute(tour, MustParseSpecs("BH BH/C1"), Options{Rules: r})
		require.NoError(t, err)
		return column(st, 1)[1], column(st, 2)[1]
	}
	full26, cut26 := bh(Rules2026)
	full24, cut24 := bh(Rules2024)
	assert.Equal(t, 1.0, full24-full26, "dummy 3.5 before 2026, 2.5 after")
	// The cut removes the voluntarily unplayed round first (16.5), although
	// opponent 2 (score 1) is lower than the dummy.
	assert.Equal(t, 2.5, full26-cut26)
	assert.Equal(t, 3.5, full24-cut24)
}

func TestDirectEncounter(t *testing.T) {
	// 1 and 2 tie on points and 1 won their game.
	tour := build(t, `
1 0: 2w1 3b0
2 0: 1b0 4w1
3 0: 4w1 1w1
4 0: 3b0 2b0
`)
	st, err := Compute(tour, MustParseSpecs("PTS DE"), Options{})
	require.NoError(t, err)
	assert.Equal(t, map[int]float64{1: 1, 2: 2, 3: 0, 4: 0}, column(st, 1))
	var ranks []int
	for _, r := range st.Rows {
		ranks = append(ranks, r.ID, r.Rank)
	}
	assert.Equal(t, []int{3, 1, 1, 2, 2, 3, 4, 4}, ranks)

	// Three players on one point: 1 beat 2, 3 met neither. 3 could still
	// reach 1's score against the group, so nobody is separated.
	tour = build(t, `
1 0: 2w1 5b0
2 0: 1b0 6w1
3 0: 4w1 7b0
4 0: 3b0 8w0
5 0: 6w1 1w1
6 0: 5b0 2b0
7 0: 8w1 3w1
8 0: 7b0 4b1
`)
	st, err = Compute(tour, MustParseSpecs("PTS DE"), Options{})
	require.NoError(t, err)
	de := column(st, 1)
	assert.Equal(t, 0.0, de[1])
	assert.Equal(t, 0.0, de[2])
	assert.Equal(t, 0.0, de[3])
}

func TestSharedRanks(t *testing.T) {
	tour := build(t, `
1 0: 2w=
2 0: 1b=
3 0: U
`)
	st, err := Compute(tour, MustParseSpecs("PTS"), Options{})
	require.NoError(t, err)
	require.Len(t, st.Rows, 3)
	assert.Equal(t, Row{Rank: 1, ID: 3, Values: []Value{{1, true}}}, st.Rows[0])
	assert.Equal(t, 2, st.Rows[1].Rank)
	assert.Equal(t, 2, st.Rows[2].Rank)
	assert.True(t, st.Rows[1].Shared && st.Rows[2].Shared)
	assert.Equal(t, []int{1, 2}, []int{st.Rows[1].ID, st.Rows[2].ID})
}

func TestUnratedDropsRatingTiebreaks(t *testing.T) {
	tour := build(t, `
1 2000: 2w1
2 0: 1b0
`)
	st, err := Compute(tour, MustParseSpecs("ARO TPR RTNG APRO"), Options{})
	require.NoError(t, err)
	for _, r := range st.Rows {
		for _, v := range r.Values[1:] {
			assert.False(t, v.OK)
			assert.Equal(t, "-", v.Format(ARO))
		}
	}
	st, err = Compute(tour, MustParseSpecs("ARO/U1000"), Options{})
	require.NoError(t, err)
	assert.Equal(t, map[int]float64{1: 1000, 2: 2000}, column(st, 1))
}

func TestValidate(t *testing.T) {
	tests := []struct {
		name, text, err string
	}{
		{"one-sided", "1 0: 2w1\n2 0: Z", "does not list the game"},
		{"unknown opponent", "1 0: 9w1\n2 0: Z", "opponent 9 does not exist"},
		{"self", "1 0: 1w1", "paired with itself"},
		{"played vs forfeit", "1 0: 2w1\n2 0: 1b-", "but opponent 2 has"},
		{"duplicate", "1 0: Z\n1 0: Z", "used twice"},
		{"zero id", "0 0: Z", "not positive"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Compute(build(t, tc.text), nil, Options{})
			require.ErrorContains(t, err, tc.err)
		})
	}
	_, err := Compute(&Tournament{}, nil, Options{})
	require.ErrorIs(t, err, ErrNoPlayers)
	bad := build(t, "1 0: U\n2 0: Z")
	bad.Players[0].Games[0].Opponent = 2
	bad.Players[1].Games[0].Opponent = 1
	_, err = Compute(bad, nil, Options{})
	require.ErrorContains(t, err, "pairing bye against opponent 2")
	bad = build(t, "1 0: U Z")
	bad.Rounds = 1
	_, err = Compute(bad, nil, Options{})
	require.ErrorContains(t, err, "has 2 rounds, the event has 1")
	bad = build(t, "1 0: U")
	bad.Players[0].Games[0] = Game{Result: Win}
	_, err = Compute(bad, nil, Options{})
	require.ErrorContains(t, err, "win without an opponent")
}

func TestPTSPrepended(t *testing.T) {
	st, err := Compute(build(t, "1 0: U\n2 0: Z"), MustParseSpecs("BH"), Options{})
	require.NoError(t, err)
	require.Equal(t, []Spec{{Kind: PTS}, {Kind: BH}}, st.Tiebreaks)
}

// TestRoundRobin uses the Berger table for 4 players with a forfeit in
// round 2. In a round robin the forfeit counts as a game against the
// scheduled opponent (predetermined pairings); in Swiss mode it is a dummy
// capped at the opponent's score.
func TestRoundRobin(t *testing.T) {
	const text = `
1 0: 4w1 2w+ 3b=
2 0: 3w= 1b- 4w1
3 0: 2b= 4b1 1w=
4 0: 1b0 3w0 2b0
`
	rr := build(t, text)
	rr.RoundRobin = true
	st, err := Compute(rr, MustParseSpecs("PTS BH SB KS DE"), Options{})
	require.NoError(t, err)
	assert.Equal(t, map[int]float64{1: 2.5, 2: 1.5, 3: 2, 4: 0}, column(st, 0))
	assert.Equal(t, 4.5, column(st, 1)[2], "BH of 2: 2 + 2.5 + 0")
	assert.Equal(t, map[int]float64{1: 2.5, 2: 1, 3: 2, 4: 0}, column(st, 2))
	// Koya: points against the players on at least 1.5 of 3.
	assert.Equal(t, map[int]float64{1: 1.5, 2: 0.5, 3: 1, 4: 0}, column(st, 3))

	swiss := build(t, text)
	st, err = Compute(swiss, MustParseSpecs("PTS BH"), Options{})
	require.NoError(t, err)
	assert.Equal(t, 3.5, column(st, 1)[2], "BH of 2: 2 + min(1.5, 2.5) + 0")
}

// TestIsolateFB shows the effect of FB on later columns in the reference
// implementation: player 2 is absent in round 2 and loses round 3 by
// forfeit; after FB, the absence counts at face value (0) in the score
// player 1 sees instead of as a draw.
func TestIsolateFB(t *testing.T) {
	tour := build(t, `
1 0: 2w1 3w1 4b=
2 0: 1b0 Z 3w-
3 0: 4w= 1b0 2b+
4 0: 3b= U 1w=
`)
	specs := MustParseSpecs("PTS BH FB BH")
	ref, err := Compute(tour, specs, Options{})
	require.NoError(t, err)
	iso, err := Compute(tour, specs, Options{IsolateFB: true})
	require.NoError(t, err)
	assert.Equal(t, column(ref, 1), column(iso, 1))
	assert.Equal(t, column(iso, 1), column(iso, 3))
	assert.Equal(t, column(iso, 1)[1]-0.5, column(ref, 3)[1])
}

func TestStandardPoints(t *testing.T) {
	classic := build(t, small)
	football := build(t, small)
	football.Scoring = Scoring{Win: 3, Draw: 1, PAB: 3}
	specs := MustParseSpecs("PTS BH BH/C1 SB FB AOB PS WIN REP TPR")
	want, err := Compute(classic, specs, Options{})
	require.NoError(t, err)
	got, err := Compute(football, specs, Options{StandardPoints: true})
	require.NoError(t, err)
	assert.Equal(t, map[int]float64{1: 7, 2: 0, 3: 2, 4: 5}, column(got, 0))
	for c := 1; c < len(specs); c++ {
		assert.Equal(t, column(want, c), column(got, c), specs[c].String())
	}
	plain, err := Compute(football, specs, Options{})
	require.NoError(t, err)
	// Without standard points, adjusted scores are 2 (0 + two draws of 1),
	// 2 (1 + 0 + 1) and 5 (1 + 3 + 1).
	assert.Equal(t, 9.0, column(plain, 1)[1], "BH on 3-1-0 points")
}

func TestDirectEncounterGroups(t *testing.T) {
	// Five players, Berger table of six (6 = bye). 1, 2 and 3 finish on 2.5
	// and all met: among themselves 1 scored 1.5, 2 scored 1 and 3 scored ½.
	const rr = `
1 0: Z 2w1 3b= 4w0 5b1
2 0: 5w= 1b0 Z 3w1 4b1
3 0: 4w1 5b1 1w= 2b0 Z
4 0: 3b0 Z 5w= 1b1 2w0
5 0: 2b= 3w0 4b= Z 1w0
`
	for _, roundRobin := range []bool{true, false} {
		tour := build(t, rr)
		tour.RoundRobin = roundRobin
		st, err := Compute(tour, MustParseSpecs("PTS DE"), Options{})
		require.NoError(t, err)
		assert.Equal(t, map[int]float64{1: 1, 2: 2, 3: 3, 4: 0, 5: 0}, column(st, 1), "round robin %v", roundRobin)
	}

	// Swiss: 1, 2 and 3 finish on 2; 1 beat both others, who never met. 1 is
	// separated (2 and 3 can reach at most 1 against the group); 2 and 3
	// stay tied.
	tour := build(t, `
1 0: 2w1 3w1 6b0
2 0: 1b0 5w1 4w1
3 0: 4w1 1b0 5w1
4 0: 3b0 6w= 2b0
5 0: 6w1 2b0 3b0
6 0: 5b0 4b= 1w1
`)
	st, err := Compute(tour, MustParseSpecs("PTS DE"), Options{})
	require.NoError(t, err)
	assert.Equal(t, map[int]float64{1: 1, 2: 2, 3: 2, 4: 0, 5: 0, 6: 0}, column(st, 1))
	var got [][2]int
	for _, r := range st.Rows {
		got = append(got, [2]int{r.ID, r.Rank})
	}
	assert.Equal(t, [][2]int{{1, 1}, {2, 2}, {3, 2}, {6, 4}, {5, 5}, {4, 6}}, got)
}

// TestRules2009 works the virtual opponent of the 2009 rules by hand on the
// small event: opponents' unplayed rounds are draws, so the adjusted scores
// are 2.5, 1, 1 and 1.5; an own unplayed round R is a virtual opponent with
// SPR + (1 − SfPR) + ½·(3 − R).
func TestRules2009(t *testing.T) {
	st, err := Compute(build(t, small), MustParseSpecs("BH BH/C1 SB"), Options{Rules: Rules2009})
	require.NoError(t, err)
	assert.Equal(t, map[int]float64{
		1: 1 + 1 + 1.5,
		2: 2.5 + (0 + 1 + 0.5) + (0 + 1 + 0),
		3: 1.5 + 2.5 + (0.5 + 0.5 + 0),
		4: 1 + (0.5 + 0 + 0.5) + 2.5,
	}, column(st, 1))
	assert.Equal(t, map[int]float64{1: 2.5, 2: 4, 3: 4, 4: 3.5}, column(st, 2))
	assert.Equal(t, map[int]float64{1: 2.75, 2: 0, 3: 1.25, 4: 2.75}, column(st, 3))

	_, err = Compute(build(t, small), nil, Options{Rules: 9})
	require.ErrorContains(t, err, "unknown rules edition")
}

func TestCut(t *testing.T) {
	sum := func(cs []contrib) (s float64) {
		for _, c := range cs {
			s += c.value
		}
		return s
	}
	bh := func(vur bool, score float64) contrib { return contrib{vur: vur, score: score, value: score} }
	tests := []struct {
		name      string
		cs        []contrib
		low, high int
		want      float64
	}{
		{"lowest", []contrib{bh(false, 3), bh(false, 1), bh(false, 2)}, 1, 0, 5},
		{"vur first", []contrib{bh(false, 1), bh(true, 2.5), bh(false, 3)}, 1, 0, 4},
		{"two vurs then lowest", []contrib{bh(true, 2), bh(false, 1), bh(true, 3), bh(false, 4)}, 3, 0, 4},
		{"median", []contrib{bh(false, 3), bh(false, 1), bh(false, 2), bh(false, 5)}, 1, 1, 5},
		{"median with vur", []contrib{bh(false, 0.5), bh(true, 2), bh(false, 4)}, 1, 1, 0.5},
		{"more cuts than rounds", []contrib{bh(false, 1), bh(false, 2)}, 5, 5, 0},
		// SB: a won game against the lowest opponent (value 1) beats a VUR
		// that scored nothing (value 0), so the game is cut.
		{"sb exception", []contrib{{score: 1, value: 1}, {vur: true, score: 2, value: 0}, {score: 3, value: 1.5}}, 1, 0, 1.5},
	}
	for _, tc := range tests {
		got := cut(tc.cs, tc.low, tc.high, len(tc.cs))
		assert.Equal(t, tc.want, sum(got), tc.name)
	}
}

// TestEveryKind computes every tie-break on a synthetic event: each must
// produce a value for every player and never panic.
func TestEveryKind(t *testing.T) {
	tour := synthetic(41, 7, 11)
	var specs []Spec
	for k := range kindNames {
		specs = append(specs, Spec{Kind: k})
	}
	for _, rr := range []bool{false, true} {
		tour.RoundRobin = rr
		for _, rules := range []Rules{Rules2026, Rules2024, Rules2009} {
			st, err := Compute(tour, specs, Options{Rules: rules})
			require.NoError(t, err)
			require.Len(t, st.Rows, 41)
			for _, r := range st.Rows {
				require.Len(t, r.Values, len(st.Tiebreaks))
			}
		}
	}
}
