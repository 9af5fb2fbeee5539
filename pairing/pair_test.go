package pairing

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"arbiter/internal/scenariotest"
	"arbiter/pairing/trf"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// line builds a 001 record with the given round entries (opp, colour, result).
func line(id int, rating int, games ...string) string {
	var b strings.Builder
	b.WriteString("001 ")
	pad := func(s string, w int) string { return strings.Repeat(" ", w-len(s)) + s }
	b.WriteString(pad(itoa(id), 4))
	b.WriteString(strings.Repeat(" ", 6))
	name := "Player " + itoa(id)
	b.WriteString(name + strings.Repeat(" ", 34-len(name)))
	b.WriteString(pad(itoa(rating), 4))
	b.WriteString(strings.Repeat(" ", 28))
	b.WriteString(" 0.0")
	b.WriteString("     ")
	for _, g := range games {
		b.WriteString("  " + g)
	}
	return b.String()
}

func itoa(n int) string { return strconv.Itoa(n) }

func parse(t *testing.T, lines ...string) *trf.Tournament {
	t.Helper()
	tour, err := trf.Parse([]byte(strings.Join(lines, "\n")))
	require.NoError(t, err)
	return tour
}

func TestNoValidPairing(t *testing.T) {
	// Two players who have already played each other cannot meet again.
	tour := parse(t, "XXR 3", "XXC white1", line(1, 2000, "   2 w 1"), line(2, 1900, "   1 b 0"))
	_, err := Pair(tour, Options{})
	var nv *NoValidPairingError
	require.ErrorAs(t, err, &nv)
	assert.Equal(t, 2, nv.Round)
	assert.Contains(t, err.Error(), "round 2")

	// Three players who have all met: two would be left unpaired.
	tour = parse(t, "XXR 4", "XXC white1",
		line(1, 2000, "   2 w 1", "   3 b 1", "0000 - U"),
		line(2, 1900, "   1 b 0", "0000 - U", "   3 w 1"),
		line(3, 1800, "0000 - U", "   1 w 0", "   2 b 0"))
	_, err = Pair(tour, Options{})
	require.ErrorAs(t, err, &nv)
	assert.Equal(t, 4, nv.Round)
	assert.Contains(t, nv.Reason, "cannot all be paired")
}

// TestRematchesBefore: when no valid pairing exists, the arbiter's last
// resort lets players who met only in early rounds meet again, and no
// others.
func TestRematchesBefore(t *testing.T) {
	// Two players who met in round 1 may meet again in round 2 only when
	// round 1's games are released.
	tour := parse(t, "XXR 3", "XXC white1", line(1, 2000, "   2 w 1"), line(2, 1900, "   1 b 0"))
	_, err := Pair(tour, Options{RematchesBefore: 1})
	var nv *NoValidPairingError
	require.ErrorAs(t, err, &nv, "round 1's game still forbids the rematch")
	p, err := Pair(tour, Options{RematchesBefore: 2})
	require.NoError(t, err)
	require.Len(t, p.Boards, 1)
	assert.ElementsMatch(t, []int{1, 2}, []int{p.Boards[0].White, p.Boards[0].Black})

	// Four players, all of whom met in rounds 1-3 but 1-4 and 2-3 only
	// in round 1: releasing round 1 allows exactly those rematches.
	tour = parse(t, "XXR 4", "XXC white1",
		line(1, 2000, "   4 w 1", "   2 b 1", "   3 w 1"),
		line(2, 1900, "   3 b 1", "   1 w 0", "   4 b 1"),
		line(3, 1800, "   2 w 0", "   4 b 1", "   1 b 0"),
		line(4, 1700, "   1 b 0", "   3 w 0", "   2 w 0"))
	_, err = Pair(tour, Options{})
	require.ErrorAs(t, err, &nv)
	p, err = Pair(tour, Options{RematchesBefore: 2})
	require.NoError(t, err)
	require.Len(t, p.Boards, 2)
	for _, b := range p.Boards {
		pair := []int{min(b.White, b.Black), max(b.White, b.Black)}
		assert.Contains(t, [][]int{{1, 4}, {2, 3}}, pair)
	}
}

func TestRoundOneWithAbsentPlayers(t *testing.T) {
	// bbpPairings issue #30: players 1 and 9 are absent in round 1, so
	// player 2 has the first effective pairing number and gets the initial
	// colour; by C.04.3 Art. 5.2.5 the colours then alternate down S1.
	data, err := os.ReadFile(filepath.Join("testdata", "absent-round1.trf"))
	require.NoError(t, err)
	tour, err := trf.Parse(data)
	require.NoError(t, err)
	res, err := Pair(tour, Options{})
	require.NoError(t, err)
	assert.Equal(t, 1, res.Round)
	assert.Equal(t, []Board{{2, 6}, {7, 3}, {4, 8}, {10, 5}}, res.Boards)
	assert.Zero(t, res.Bye)

	tour.InitialColour = 'b'
	res, err = Pair(tour, Options{})
	require.NoError(t, err)
	assert.Equal(t, []Board{{6, 2}, {3, 7}, {8, 4}, {5, 10}}, res.Boards)
}

func TestByeGoesToLowestEligible(t *testing.T) {
	// Five players after one round: 5 had the PAB, so the lowest-ranked
	// eligible player on the lowest score gets it now (C2, C5).
	tour := parse(t, "XXR 4", "XXC white1",
		line(1, 2400, "   3 w 1"), line(2, 2300, "   4 b 1"), line(3, 2200, "   1 b 0"),
		line(4, 2100, "   2 w 0"), line(5, 2000, "0000 - U"))
	res, err := Pair(tour, Options{Trace: true})
	require.NoError(t, err)
	assert.Equal(t, 4, res.Bye)
	require.NotNil(t, res.Trace.Bye)
	assert.Equal(t, []int{3, 4}, res.Trace.Bye.Eligible)
}

func TestWritePairs(t *testing.T) {
	var buf bytes.Buffer
	require.NoError(t, WritePairs(&buf, &Pairing{Boards: []Board{{3, 1}, {2, 5}}, Bye: 4}))
	assert.Equal(t, "3\n3 1\n2 5\n4 0\n", buf.String())
	buf.Reset()
	require.NoError(t, WritePairs(&buf, &Pairing{Boards: []Board{{1, 2}}}))
	assert.Equal(t, "1\n1 2\n", buf.String())
}

func TestTraceGolden(t *testing.T) {
	files := corpusFiles(t)
	tour := loadCorpus(t, files[0])
	res, err := Pair(BeforeRound(tour, 4), Options{Round: 4, Trace: true})
	require.NoError(t, err)
	require.True(t, Same(res, Played(tour, 4)))
	got := res.Trace.String()
	scenariotest.Golden(t, filepath.Join("testdata", "trace.golden"), []byte(got))
	// Every board and every player appears in the explanation.
	assert.Len(t, res.Trace.Boards, len(res.Boards))
	n := 0
	for _, b := range res.Trace.Brackets {
		n += 2 * len(b.Pairs)
	}
	if res.Bye != 0 {
		n++
	}
	assert.Equal(t, 2*len(res.Boards)+map[bool]int{true: 1}[res.Bye != 0], n)
}

func TestColourPolicies(t *testing.T) {
	tour := loadCorpus(t, corpusFiles(t)[0])
	before := BeforeRound(tour, 3)
	chess, err := Pair(before, Options{Round: 3})
	require.NoError(t, err)
	shogi, err := Pair(before, Options{Round: 3, Colours: ShogiColours})
	require.NoError(t, err)
	assert.Equal(t, chess, shogi, "sente/gote follow the same rules")
	lot1, err := Pair(before, Options{Round: 3, Colours: FirstPlayerByLot, LotSeed: 1, Trace: true})
	require.NoError(t, err)
	lot2, err := Pair(before, Options{Round: 3, Colours: FirstPlayerByLot, LotSeed: 1, Trace: true})
	require.NoError(t, err)
	assert.Equal(t, lot1.Boards, lot2.Boards, "the lot is reproducible from its seed")
	for _, b := range lot1.Trace.Boards {
		assert.Equal(t, RuleLot, b.Rule)
	}
	lot3, err := Pair(before, Options{Round: 3, Colours: FirstPlayerByLot, LotSeed: 2})
	require.NoError(t, err)
	assert.NotEqual(t, lot1.Boards, lot3.Boards)
}

func TestCheckReportsDifferences(t *testing.T) {
	tour := loadCorpus(t, corpusFiles(t)[0])
	diffs, err := Check(tour, Options{})
	require.NoError(t, err)
	require.Empty(t, diffs)
	// Swap the colours of one board of round 2.
	for i := range tour.Players {
		g := &tour.Players[i].Games[1]
		if g.Opponent != 0 {
			opp := tour.PlayerByID(g.Opponent)
			g.Colour ^= 'w' ^ 'b'
			opp.Games[1].Colour ^= 'w' ^ 'b'
			break
		}
	}
	diffs, err = Check(tour, Options{})
	require.NoError(t, err)
	require.NotEmpty(t, diffs)
	assert.Equal(t, 2, diffs[0].Round)
	assert.Contains(t, diffs[0].String(), "round 2")
}

func TestBakuAcceleration(t *testing.T) {
	var lines []string
	lines = append(lines, "XXR 9")
	for id := 1; id <= 10; id++ {
		lines = append(lines, line(id, 2500-id))
	}
	s, err := newState(parse(t, lines...), 1, Options{Baku: true})
	require.NoError(t, err)
	// Group A: half of 10 rounded up to even = 6 players. With 9 rounds,
	// rounds 1-3 give 1 point and rounds 4-5 half a point (C.04.7).
	for i, p := range s.players {
		if i < 6 {
			assert.Equal(t, []int{10}, p.accel, "player %d", p.id)
		} else {
			assert.Empty(t, p.accel, "player %d", p.id)
		}
	}
	s, err = newState(parse(t, lines...), 4, Options{Baku: true})
	require.NoError(t, err)
	assert.Equal(t, []int{10, 10, 10, 5}, s.players[0].accel)
	assert.Equal(t, 5, s.pairScore(s.players[0]), "no points yet, plus the half virtual point of round 4")
}

func TestCriteriaTables(t *testing.T) {
	assert.Len(t, Criteria(Dutch2026), 21)
	assert.Len(t, Criteria(Dutch2017), 19)
	assert.Equal(t, "C5", ByeScore.Number(Dutch2026))
	assert.Equal(t, "C9", ByeUnplayed.Number(Dutch2026))
	assert.Equal(t, "", ByeScore.Number(Dutch2017))
	assert.Equal(t, "C5", MaxPairs.Number(Dutch2017))
	assert.Equal(t, "C12", RepeatDownfloat1.Number(Dutch2017))
	assert.Equal(t, "C14", RepeatDownfloat1.Number(Dutch2026))
	assert.Equal(t, "C21", RepeatUpfloatScore2.Number(Dutch2026))
}

func TestNextRound(t *testing.T) {
	tour := parse(t, "XXR 3", line(1, 2000, "   2 w 1", "0000 - H"), line(2, 1900, "   1 b 0"))
	assert.Equal(t, 2, NextRound(tour), "round 2 holds only an announced bye")
	tour = parse(t, "XXR 3", line(1, 2000, "   2 w 1"), line(2, 1900, "   1 b 0"))
	assert.Equal(t, 2, NextRound(tour))
	assert.Equal(t, 1, NextRound(parse(t, line(1, 2000))))
}

func TestEditionDifferences(t *testing.T) {
	// Player 1 had a full-point bye, player 2 a forfeit win against 3,
	// player 4 a half-point bye, 5 and 6 played.
	tour := parse(t, "XXR 5",
		line(1, 2500, "0000 - F"), line(2, 2400, "   3 w +"), line(3, 2300, "   2 b -"),
		line(4, 2200, "0000 - H"), line(5, 2100, "   6 w 1"), line(6, 2000, "   5 b 0"))
	elig := func(e Edition) []bool {
		s, err := newState(tour, 2, Options{Edition: e})
		require.NoError(t, err)
		var out []bool
		for _, p := range s.players {
			out = append(out, s.eligibleForBye(p))
		}
		return out
	}
	// 2026 (C2): no PAB after scoring a win without playing (FPB, forfeit win).
	assert.Equal(t, []bool{false, false, true, true, true, true}, elig(Dutch2026))
	// 2017: only an earlier PAB or forfeit win blocks it.
	assert.Equal(t, []bool{true, false, true, true, true, true}, elig(Dutch2017))

	floats := func(e Edition) []floatKind {
		s, err := newState(tour, 2, Options{Edition: e})
		require.NoError(t, err)
		var out []floatKind
		for _, p := range s.players {
			out = append(out, s.floatAt(p, 1))
		}
		return out
	}
	// 2026: a downfloat for scoring more than a loss without playing; a
	// forfeit loss or a played game between equal scores is no float.
	assert.Equal(t, []floatKind{floatDown, floatDown, floatNone, floatDown, floatNone, floatNone}, floats(Dutch2026))
	// 2017: every unplayed round is a downfloat.
	assert.Equal(t, []floatKind{floatDown, floatDown, floatDown, floatDown, floatNone, floatNone}, floats(Dutch2017))
}
