package tavreli

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arbiter/rules"
)

const startTFEN = "rnbqkbnr/prpnpbpqphpbpnpr/8/8/8/8/PRPNPBPQPHPBPNPR/RNBQKBNR w KQkq - ABCDEFGHabcdefgh 0 1"

func isCheck(s string) bool { return strings.HasSuffix(s, "+") }

func TestInitialPosition(t *testing.T) {
	b := ptr(StartBoard())
	assert.Equal(t, startTFEN, b.TFEN())
	ms := formatted(b)
	assert.Len(t, filter(ms, func(s string) bool { return strings.Contains(s, "x") }), 19)
	assert.Len(t, filter(ms, func(s string) bool { return strings.Contains(s, "-") }), 20)
	assert.Subset(t, ms, []string{"a1xa2", "a1xb1", "h1xh2", "h1xg1", "b1-a3", "b1-c3", "b1xd2", "g1-f3", "g1-h3", "g1xe2",
		"c1xb2", "c1xd2", "f1xe2", "f1xg2", "d1xc1", "d1xc2", "d1xd2", "d1xe2", "e1xd1", "e1xf1", "e1xd2", "e1xe2", "e1xf2"})
	assert.NotContains(t, ms, "d1xe1")
	// By symmetry Black also has 39 replies.
	assert.Len(t, play(t, b, "a2-a3").GenerateLegal(nil), 39)
}

func TestSpecExamplesTFEN(t *testing.T) {
	start := ptr(StartBoard())
	assert.Equal(t, "rnbqkbnr/prpnpbpqphpbpnpr/8/8/4PH3/8/PRPNPBPQ1PBPNPR/RNBQKBNR b KQkq e3 ABCDFGHabcdefgh 0 1",
		play(t, start, "e2-e4").TFEN())
	assert.Equal(t, "rnbqkbnr/prpnpbpqphpbpnpr/8/8/8/8/PRPNPBPQ[PHN]PBPNPR/RNBQKB1R b KQkq - ABCDEFGHabcdefgh 0 1",
		play(t, start, "g1xe2").TFEN())
	// 4.6 #4: the Volkhv steps onto its own Ratnik and loses both rights.
	assert.Equal(t, "rnbqkbnr/prpnpbpqphpbpnpr/8/8/8/8/PRPNPB[PQK]PHPBPNPR/RNBQ1BNR b kq - ABCDEFGHabcdefgh 0 1",
		play(t, start, "e1xd2").TFEN())
	// 4.6 #2: д is the e-file.
	assert.Equal(t, play(t, start, "e2-e4").TFEN(), play(t, start, "д2-д4").TFEN())
}

func TestT2T3Pins(t *testing.T) {
	b := board(t, "k3r3/8/8/8/4[rN]3/8/8/4K3 w - - - 0 1")
	assert.ElementsMatch(t, []string{"e1-d1", "e1-d2", "e1-e2", "e1-f1", "e1-f2"}, formatted(b))
	b = board(t, "k3r3/8/8/8/4[RN]3/8/8/4K3 w - - - 0 1")
	ms := formatted(b)
	assert.Len(t, filter(ms, func(s string) bool { return strings.HasPrefix(s, "(1)e4") }), 8)
	assert.Len(t, filter(ms, func(s string) bool { return strings.HasPrefix(s, "e4") }), 0)
}

func TestT4(t *testing.T) {
	b := board(t, "7k/8/8/8/3[nR]4/8/2K5/8 w - - - 0 1")
	ms := formatted(b)
	assert.ElementsMatch(t, []string{"d4-d8+", "d4-h4+"}, filter(ms, isCheck))
	assert.Empty(t, filter(ms, func(s string) bool { return strings.HasPrefix(s, "(1)") }))
	after := play(t, b, "d4-d8+")
	assert.Equal(t, "3[nR]3k/8/8/8/8/8/2K5/8 b - - - 1 1", after.TFEN())
	assert.ElementsMatch(t, []string{"h8-g7", "h8-h7"}, formatted(after))
	_, err := ParseMoveText(b, "(1)d4-d8")
	assert.ErrorIs(t, err, ErrIllegal)
}

func TestT5T7DoubleStep(t *testing.T) {
	b := board(t, "k7/8/8/8/4N3/3n2B1/4PH1PN1/K7 w - - EG 0 1")
	ms := formatted(b)
	assert.Subset(t, ms, []string{"e2-e3", "e2xe4", "e2xd3", "g2xg3", "e4xg3", "a1-a2", "a1-b1"})
	assert.NotContains(t, ms, "a1-b2")
	b = board(t, "7k/8/8/8/3Npb3/8/3PQ4/K7 w - - D 0 1")
	after := play(t, b, "d2xd4")
	assert.Equal(t, "7k/8/8/8/3[NPQ]pb3/8/8/K7 b - d3 - 0 1", after.TFEN())
}

func TestT6EnPassant(t *testing.T) {
	a := board(t, "7k/8/8/8/3[NPQ]pb3/8/8/K7 b - d3 - 0 1")
	assert.ElementsMatch(t, []string{"h8-g8", "h8-g7", "h8-h7", "e4-e3", "e4xd3"}, formatted(a))
	after := play(t, a, "e4xd3")
	assert.Equal(t, "7k/8/8/8/3N4/3[PQpb]4/8/K7 w - - - 0 2", after.TFEN())
	assert.Equal(t, 0, after.Height(rules.Square(sqOf(4, 3))))
	assert.Equal(t, 1, after.Height(rules.Square(sqOf(3, 3))))
	assert.Equal(t, 2, after.Height(rules.Square(sqOf(3, 2))))
	// The separator warning of 7.2.
	mt, err := ParseMoveText(a, "e4-d3")
	require.NoError(t, err)
	assert.Equal(t, EnPassant, mt.Move.Kind())
	assert.NotEmpty(t, mt.Warnings)
	_, err = Reader{Strict: true}.ParseMove(a, "e4-d3")
	assert.Error(t, err)

	assert.Contains(t, a.RepetitionKey(), " d3 ", "a legal en passant is part of the key")
	bpos := board(t, "8/8/4k3/8/3[NPQ]pb3/8/8/K7 b - d3 - 0 1")
	assert.Contains(t, bpos.RepetitionKey(), " - - ", "an illegal en passant is not")
	assert.ElementsMatch(t, []string{"e6-d5", "e6-d6", "e6-d7", "e6-e7", "e6-f5", "e6-f6", "e6-f7", "e4-e3"}, formatted(bpos))
}

func TestT8RemainderPromotion(t *testing.T) {
	b := board(t, "2[PBR]5/8/4k3/8/8/8/8/K7 w - - - 0 1")
	ms := formatted(b)
	splits := filter(ms, func(s string) bool { return strings.HasPrefix(s, "(1)") })
	assert.Len(t, splits, 14)
	for _, s := range splits {
		assert.True(t, strings.HasPrefix(s, "(1)c8=B") && isCheck(s), s)
	}
	whole := filter(ms, func(s string) bool { return strings.HasPrefix(s, "c8") })
	assert.ElementsMatch(t, []string{"c8-c6+", "c8-e8+"}, filter(whole, isCheck))
	assert.Equal(t, "2B~5/8/4k3/8/8/8/8/K1R5 b - - - 1 1", play(t, b, "(1)c8=B-c1+").TFEN())
}

func TestT9Demotion(t *testing.T) {
	b := board(t, "3Q~4/8/8/8/7k/8/3r4/K7 b - - - 0 1")
	assert.ElementsMatch(t, []string{"d2xd8", "h4-g3", "h4-g4", "h4-h3", "h4-h5"}, formatted(b))
	assert.Equal(t, "3[PQr]4/8/8/8/7k/8/8/K7 w - - - 0 2", play(t, b, "d2xd8").TFEN())
	b = board(t, "3[PQr]4/8/8/8/7k/8/8/K7 b - - - 0 1")
	ms := formatted(b)
	assert.Empty(t, filter(ms, func(s string) bool { return strings.HasPrefix(s, "(1)") }))
	assert.ElementsMatch(t, []string{"d8-a8+", "d8-d1+"}, filter(ms, isCheck))
}

func TestT10PromotionAndDemotion(t *testing.T) {
	b := board(t, "2r~Rn3/3PQ4/8/7k/8/8/8/K7 w - - - 0 1")
	assert.ElementsMatch(t, []string{"d7xd8=Q", "d7xc8=Q", "d7xe8=Q+", "d8xc8", "d8xe8", "d8xd7", "a1-a2", "a1-b1", "a1-b2"}, formatted(b))
	assert.Equal(t, "2[prQ~]Rn3/8/8/7k/8/8/8/K7 b - - - 0 1", play(t, b, "d7xc8=Q").TFEN())
	assert.Equal(t, "2[prR]1n3/3PQ4/8/7k/8/8/8/K7 b - - - 0 1", play(t, b, "d8xc8").TFEN())
	assert.Equal(t, "2r~[RQ~]n3/8/8/7k/8/8/8/K7 b - - - 0 1", play(t, b, "d7xd8=Q").TFEN())
}

func TestOriginDemotion(t *testing.T) {
	// Spec 2.7: [Q~, r, N] on d4; after (1)d4-f5 the Knyaz is a captive
	// under the black Ratoborets and is demoted in the same move.
	b := board(t, "k7/8/8/8/3[Q~rN]4/8/8/7K w - - - 0 1")
	after := play(t, b, "(1)d4-f5")
	assert.Equal(t, "k7/8/8/5N2/3[PQr]4/8/8/7K b - - - 1 1", after.TFEN())
}

func TestT11VolkhvOnTower(t *testing.T) {
	b := board(t, "7k/8/8/8/3[rK]4/8/8/8 w - - - 0 1")
	ms := formatted(b)
	assert.ElementsMatch(t, []string{"(1)d4-c3", "(1)d4-c5", "(1)d4-e3", "(1)d4-e5"},
		filter(ms, func(s string) bool { return strings.HasPrefix(s, "(1)") }))
}

func TestT12Castling(t *testing.T) {
	a := board(t, "4k3/8/8/8/b7/8/8/R3K2R w KQ - - 0 1")
	ms := formatted(a)
	// 7.3: the Volkhv's legal moves, castling included, are the touch
	// obligation after e1 and h1 are lifted together.
	assert.ElementsMatch(t, []string{"0-0", "e1-d2", "e1-e2", "e1-f1", "e1-f2"},
		filter(ms, func(s string) bool { return strings.HasPrefix(s, "e1") || strings.HasPrefix(s, "0") }))
	assert.NotContains(t, ms, "0-0-0")
	after := play(t, a, "0-0")
	assert.Equal(t, "4k3/8/8/8/b7/8/8/R4RK1 b - - - 1 1", after.TFEN())
	o := move(t, a, "O-O")
	assert.Equal(t, CastleShort, o.Kind())
	_, err := ParseMoveText(a, "0-0-0")
	assert.ErrorIs(t, err, ErrIllegal)
	bpos := board(t, "4k3/8/8/8/b7/8/8/R3K2[RN] w KQ - - 0 1")
	ms = formatted(bpos)
	assert.NotContains(t, ms, "0-0")
	assert.Subset(t, ms, []string{"(1)h1-f2", "(1)h1-g3", "h1-f2", "h1-g3"})
	assert.Contains(t, bpos.TFEN(), " KQ ")
}

func TestT13T15Outcomes(t *testing.T) {
	g, err := NewGame(nil)
	require.NoError(t, err)
	stale, err := g.ParsePosition("analysis:k7/2K5/8/1[rN]6/8/8/8/8 b - - - 0 1")
	require.NoError(t, err)
	assert.False(t, stale.InCheck())
	assert.Equal(t, rules.Draw(rules.Stalemate), stale.Outcome(nil))
	mate, err := g.ParsePosition("analysis:4R2k/6pnpr/8/6N1/8/2B5/8/K7 b - - - 0 1")
	require.NoError(t, err)
	assert.True(t, mate.InCheck())
	assert.Equal(t, rules.Win(rules.White, rules.Checkmate), mate.Outcome(nil))
	t14 := board(t, "4R2k/6pnpr/8/8/8/8/8/K7 b - - - 0 1")
	assert.ElementsMatch(t, []string{"h8xg7", "h8xh7"}, formatted(t14))
}

func TestT16T17Checks(t *testing.T) {
	b := board(t, "4k3/8/8/8/8/8/4[RN]3/K7 w - - - 0 1")
	ms := formatted(b)
	checks := filter(ms, isCheck)
	assert.Len(t, checks, 6)
	for _, c := range checks {
		assert.True(t, strings.HasPrefix(c, "(1)"), c)
	}
	b = board(t, "7k/8/8/8/8/7K/8/[nPRR]7 w - - - 0 1")
	assert.ElementsMatch(t, []string{"(1)a1-a8+", "(2)a1-a8+", "a1-a8+"}, filter(formatted(b), isCheck))
	// k = 1 leaves the white Ratnik on a1, which may later step to a2 but
	// never double-step.
	after := play(t, b, "(1)a1-h1", "h8-g8")
	a1 := filter(formatted(after), func(s string) bool { return strings.HasPrefix(s, "a1") })
	assert.Equal(t, []string{"a1-a2"}, a1)
}

func TestT18(t *testing.T) {
	b := board(t, "7k/8/8/8/1r1n4/2[bPN]5/8/K7 w - - - 0 1")
	assert.ElementsMatch(t, []string{"a1-a2", "c3-c4", "c3xb4", "c3xd4"}, formatted(b))
}

func TestT19Helgi(t *testing.T) {
	b := board(t, "k7/8/8/8/3H~4/8/8/7K w - - - 0 1")
	assert.ElementsMatch(t, []string{"d4-b6++", "d4-c6++"}, filter(formatted(b), func(s string) bool { return strings.HasSuffix(s, "++") }))
}

func TestT20Sequences(t *testing.T) {
	g, err := NewGame(nil)
	require.NoError(t, err)
	// (a) threefold repetition.
	line := strings.Fields("g1-f3 g8-f6 f3-g1 f6-g8 g1-f3 g8-f6 f3-g1 f6-g8")
	hist, pos := playLine(t, g.Start(), line...)
	for i := range hist {
		claims := hist[i].(rules.Claimer).Claims(hist[:i])
		assert.NotContains(t, claims, rules.Draw(rules.Repetition), "before %s", line[i])
	}
	assert.Equal(t, 3, rules.CountKey(hist, pos))
	assert.Contains(t, pos.(rules.Claimer).Claims(hist), rules.Draw(rules.Repetition))
	endBoard := pos.(*Position).Board()
	assert.Equal(t, 8, endBoard.Halfmove())
	// Declaring the repeating move also allows the claim (src §5.4).
	p6 := hist[6].(*Position)
	m, err := p6.ParseMove("f3-g1")
	require.NoError(t, err)
	q, err := p6.PlayMove(m)
	require.NoError(t, err)
	m2, err := q.ParseMove("f6-g8")
	require.NoError(t, err)
	claims, err := q.ClaimsWithMove(append(hist[:6:6], p6), m2)
	require.NoError(t, err)
	assert.Contains(t, claims, rules.Draw(rules.Repetition))

	// (b) the ep field and the repetition key.
	e4 := play(t, ptr(StartBoard()), "e2-e4")
	assert.Contains(t, e4.TFEN(), " e3 ")
	assert.Equal(t, "rnbqkbnr/prpnpbpqphpbpnpr/8/8/4PH3/8/PRPNPBPQ1PBPNPR/RNBQKBNR b KQkq - ABCDFGHabcdefgh", e4.RepetitionKey())

	// (c) rights and clocks.
	b := ptr(StartBoard())
	var clocks []int
	for _, s := range strings.Fields("g1-f3 g8-f6 f3-g1 f6-g8 e1xe2 e8xe7") {
		b = play(t, b, s)
		clocks = append(clocks, b.Halfmove())
	}
	assert.Equal(t, []int{1, 2, 3, 4, 0, 0}, clocks)
	c := "rnbq1bnr/prpnpbpq[phk]pbpnpr/8/8/8/8/PRPNPBPQ[PHK]PBPNPR/RNBQ1BNR w - - ABCDEFGHabcdefgh 0 4"
	assert.Equal(t, c, b.TFEN())
	assert.Len(t, b.GenerateLegal(nil), 47)
	assert.Equal(t, "rnbq1bnr/prpnpbpq[phk]pbpnpr/8/8/8/8/PRPNPBPQ1PBPNPR/RNBQ[PHK]BNR b - - ABCDFGHabcdefgh 1 4", play(t, b, "e2-e1").TFEN())
	assert.Equal(t, "rnbq1bnr/prpnpbpq[phk]pbpnpr/8/8/8/8/PRPNPBPQPHPBPNPR/RNBQKBNR b - - ABCDEFGHabcdefgh 1 4", play(t, b, "(1)e2-e1").TFEN())

	// (d) stack order matters.
	first := board(t, "7k/8/8/8/3[nPQR]4/8/2K5/8 w - - - 0 1")
	second := board(t, "7k/8/8/8/3[PQnR]4/8/2K5/8 w - - - 0 1")
	f, s := formatted(first), formatted(second)
	assert.Len(t, filter(f, func(x string) bool { return strings.HasPrefix(x, "(1)") }), 14)
	assert.Empty(t, filter(f, func(x string) bool { return strings.HasPrefix(x, "(2)") }))
	assert.Len(t, filter(s, func(x string) bool { return strings.HasPrefix(x, "(2)") }), 14)
	assert.Empty(t, filter(s, func(x string) bool { return strings.HasPrefix(x, "(1)") }))
	assert.NotEqual(t, first.RepetitionKey(), second.RepetitionKey())
	assert.NotEqual(t, first.Hash(), second.Hash())
	pf, ps := g.Position(*first), g.Position(*second)
	assert.Equal(t, pf.View().Heights(nil), ps.View().Heights(nil))
	tf, _ := pf.View().Top(rules.Square(sqOf(3, 3)))
	ts, _ := ps.View().Top(rules.Square(sqOf(3, 3)))
	assert.Equal(t, tf, ts)
	assert.False(t, pf.View().Equal(ps.View()))
}

func TestFiftyMoveRule(t *testing.T) {
	g, err := NewGame(nil)
	require.NoError(t, err)
	p, err := g.ParseTFEN("analysis:k7/8/8/8/8/8/8/K6R w - - - 99 80")
	require.NoError(t, err)
	assert.Empty(t, p.Claims(nil))
	m, err := p.ParseMove("h1-h2")
	require.NoError(t, err)
	claims, err := p.ClaimsWithMove(nil, m)
	require.NoError(t, err)
	assert.Equal(t, []rules.Outcome{rules.Draw(rules.MoveCountRule)}, claims)
	q, err := p.PlayMove(m)
	require.NoError(t, err)
	assert.Equal(t, []rules.Outcome{rules.Draw(rules.MoveCountRule)}, q.Claims(nil))
	assert.False(t, q.Outcome(nil).Over(), "the 50-move rule needs a claim")
}
