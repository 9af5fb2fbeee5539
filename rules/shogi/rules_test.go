package shogi

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arbiter/rules"
)

func mustPos(t *testing.T, s string) *Position {
	t.Helper()
	g, err := NewGame(nil)
	require.NoError(t, err)
	p, err := g.Position(s)
	require.NoError(t, err)
	return p
}

func legalUSI(p *Position) []string {
	var out []string
	for _, m := range p.Moves() {
		out = append(out, m.String())
	}
	slices.Sort(out)
	return out
}

func TestSpecLegalMoves(t *testing.T) {
	tests := []struct {
		name    string
		sfen    string
		count   int
		has     []string
		hasNot  []string
		exactly string // sorted, space separated
	}{
		{name: "T1 uchifuzume", sfen: "7nk/9/7G1/9/9/9/9/9/4K4 b P 1", count: 80,
			has: []string{"2c1b", "2c1c", "2c2b", "2c2d", "2c3b", "2c3c", "P*1c", "P*9i"}, hasNot: []string{"P*1b"}},
		{name: "T2 pushed pawn", sfen: "7nk/9/7GP/9/9/9/9/9/4K4 b - 1", count: 12,
			exactly: "1c1b 1c1b+ 2c1b 2c2b 2c2d 2c3b 2c3c 5i4h 5i4i 5i5h 5i6h 5i6i"},
		{name: "T3a head gold", sfen: "4k4/9/4P4/9/9/9/9/9/4K4 b G 1", count: 85, has: []string{"G*5b"}},
		{name: "T3b pawn check", sfen: "4k4/9/9/9/9/9/9/9/4K4 b P 1", has: []string{"P*5b"}},
		{name: "T4 nifu", sfen: "4k4/9/2+P6/9/9/9/4P4/9/4K4 b P 1", count: 75,
			has: []string{"P*7b", "P*7d", "P*7i"}, hasNot: []string{"P*5b", "P*5c", "P*5f", "P*5h", "P*7a"}},
		{name: "T5 promotion", sfen: "4k4/6P2/8L/2N6/9/9/9/9/4K4 b - 1", count: 11,
			exactly: "1c1a+ 1c1b 1c1b+ 3b3a+ 5i4h 5i4i 5i5h 5i6h 5i6i 7d6b+ 7d8b+"},
		{name: "max", sfen: maxSFEN, count: 593},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := mustPos(t, tt.sfen)
			got := legalUSI(p)
			if tt.count > 0 {
				assert.Len(t, got, tt.count)
			}
			for _, m := range tt.has {
				assert.Contains(t, got, m)
			}
			for _, m := range tt.hasNot {
				assert.NotContains(t, got, m)
			}
			if tt.exactly != "" {
				assert.Equal(t, strings.Fields(tt.exactly), got)
			}
		})
	}
}

func TestSpecFacts(t *testing.T) {
	// T1: 69 pawn drops.
	p := mustPos(t, "7nk/9/7G1/9/9/9/9/9/4K4 b P 1")
	drops := 0
	for _, m := range p.Moves() {
		if m.IsDrop() {
			drops++
		}
	}
	assert.Equal(t, 69, drops)
	_, err := p.PlayUSI("P*1b")
	require.ErrorContains(t, err, "uchifuzume")

	// T2: both pawn pushes mate.
	p = mustPos(t, "7nk/9/7GP/9/9/9/9/9/4K4 b - 1")
	for _, m := range []string{"1c1b", "1c1b+"} {
		q, err := p.PlayUSI(m)
		require.NoError(t, err)
		assert.True(t, q.InCheck())
		assert.Empty(t, q.Moves(), m)
		assert.Equal(t, rules.Loss(rules.Second, rules.Checkmate), q.Outcome(nil), m)
	}

	// T3a: the head gold mates.
	q, err := mustPos(t, "4k4/9/4P4/9/9/9/9/9/4K4 b G 1").PlayUSI("G*5b")
	require.NoError(t, err)
	assert.Equal(t, rules.Loss(rules.Second, rules.Checkmate), q.Outcome(nil))

	// T3b: a pawn-drop check with 5 replies.
	q, err = mustPos(t, "4k4/9/9/9/9/9/9/9/4K4 b P 1").PlayUSI("P*5b")
	require.NoError(t, err)
	assert.True(t, q.InCheck())
	assert.Equal(t, strings.Fields("5a4a 5a4b 5a5b 5a6a 5a6b"), legalUSI(q))

	// T4: 63 pawn drops, none on file 5.
	p = mustPos(t, "4k4/9/2+P6/9/9/9/4P4/9/4K4 b P 1")
	drops = 0
	for _, m := range p.Moves() {
		if m.IsDrop() {
			drops++
			assert.NotEqual(t, 5, 9-int(m.To())%9, m.String())
		}
	}
	assert.Equal(t, 63, drops)
	_, err = p.PlayUSI("P*5c")
	require.ErrorContains(t, err, "nifu")

	// T5: dead pieces are illegal; 7d6b+ leaves 3 replies.
	p = mustPos(t, "4k4/6P2/8L/2N6/9/9/9/9/4K4 b - 1")
	for _, m := range []string{"3b3a", "1c1a", "7d6b", "7d8b"} {
		_, err := p.PlayUSI(m)
		assert.ErrorContains(t, err, "must promote", m)
	}
	q, err = p.PlayUSI("7d6b+")
	require.NoError(t, err)
	assert.Equal(t, strings.Fields("5a4a 5a4b 5a6b"), legalUSI(q))
}

func TestIllegalMoveErrors(t *testing.T) {
	p := mustPos(t, "startpos")
	tests := map[string]string{
		"7g7e":  "cannot move",
		"5i5g":  "cannot move",
		"3c3d":  "not Black's",
		"5e5d":  "no piece",
		"P*5e":  "no P in hand",
		"8h2b":  "cannot move",
		"7g7f+": "promotion zone",
		"zz":    "want",
		"7g7g":  "origin equals",
	}
	for m, want := range tests {
		_, err := p.PlayUSI(m)
		assert.ErrorContains(t, err, want, m)
	}
	_, err := mustPos(t, "4k4/4r4/9/9/9/9/9/4G4/4K4 b - 1").PlayUSI("5h4h")
	assert.ErrorContains(t, err, "leaves the Black king in check")
}

func playLine(t *testing.T, sfen, line string) (*Position, []rules.Position) {
	t.Helper()
	p := mustPos(t, sfen)
	var hist []rules.Position
	for _, ms := range strings.Fields(line) {
		require.False(t, p.Outcome(hist).Over(), "game over before %s", ms)
		q, err := p.PlayUSI(ms)
		require.NoError(t, err, ms)
		hist = append(hist, p)
		p = q
	}
	return p, hist
}

func TestSennichite(t *testing.T) {
	const start = "8k/9/9/9/9/9/9/9/K6R1 b - 1"
	const a = "2i1i 1a2b 1i2i 2b1a "
	const b = "2i3i 1a1b 3i2i 1b1a "
	tests := []struct {
		name string
		line string
		want rules.Outcome
	}{
		{"T6a perpetual check", a + a + a, rules.Loss(rules.First, rules.PerpetualCheck)},
		{"T6b sennichite", b + b + b, rules.Draw(rules.Repetition)},
		{"T6c span from the first occurrence", b + a + a, rules.Draw(rules.Repetition)},
		{"third occurrence goes on", b + b, rules.Outcome{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, hist := playLine(t, start, tt.line)
			assert.Equal(t, tt.want, p.Outcome(hist))
		})
	}
}

func TestJishogi(t *testing.T) {
	tests := []struct {
		name    string
		sfen    string
		points  [2]int
		count   rules.Outcome
		jsa24   rules.Outcome
		amateur rules.Outcome
		inCamp  int
	}{
		{"T7a", "9/3GKG3/2+PS1S+P+R1/9/9/9/2+ps1s+p2/1+b1gkg1r1/9 b B2N2L8P2n2l6p 1", [2]int{28, 26},
			rules.Draw(rules.Impasse), rules.Loss(rules.First, rules.DeclarationFailed), rules.Loss(rules.First, rules.DeclarationFailed), 7},
		{"T7b", "9/3GKG3/2+PS1S+P+R1/9/9/9/2+ps1s+p2/1+b1gkg1r1/9 b B2N2L11P2n2l3p 1", [2]int{31, 23},
			rules.Loss(rules.Second, rules.Impasse), rules.Loss(rules.First, rules.DeclarationFailed), rules.Loss(rules.First, rules.DeclarationFailed), 7},
		{"T7c", "9/3GKG3/PP+PS1S+P+RP/9/9/9/2+ps1s+p2/1+b1gkg1r1/9 b B2N2L5P2n2l6p 1", [2]int{28, 26},
			rules.Draw(rules.Impasse), rules.Draw(rules.Impasse), rules.Win(rules.First, rules.Impasse), 10},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b, err := ParseSFEN(tt.sfen)
			require.NoError(t, err)
			assert.True(t, b.KingsEntered())
			o, pts := b.Jishogi()
			assert.Equal(t, tt.points, pts)
			assert.Equal(t, tt.count, o)
			d, err := b.Declare(JSA24)
			require.NoError(t, err)
			assert.Equal(t, tt.inCamp, d.PiecesInCamp)
			assert.Equal(t, tt.points[0], d.Points, "declaration points (T7c: 14 on board + 14 in hand)")
			assert.Equal(t, tt.jsa24, d.Outcome, "jsa24")
			d, err = b.Declare(Amateur27)
			require.NoError(t, err)
			assert.Equal(t, tt.amateur, d.Outcome, "amateur27")
			_, err = b.Declare(NoDeclaration)
			assert.Error(t, err)
		})
	}
	// Handicap: the giver gets the pieces left out.
	b, err := ParseSFEN("lnsgkgsn1/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1")
	require.NoError(t, err)
	_, pts := b.JishogiHandicap(rules.Second)
	assert.Equal(t, [2]int{27, 27}, pts)
}

func TestSFENValidation(t *testing.T) {
	bad := map[string]string{
		"lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL x - 1":  "side",
		"lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1 b - 1":            "ranks",
		"lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSN b - 1":   "covers 8",
		"lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNLL b - 1": "more than 9",
		"4k4/9/9/9/9/9/9/9/4K4 b 0P 1":                                     "bad count",
		"4k4/9/9/9/9/9/9/9/4K4 b 19P 1":                                    "bad count",
		"4k4/9/9/9/9/9/9/9/4K4 b 3R 1":                                     "a set has 2",
		"P3k4/9/9/9/9/9/9/9/4K4 b - 1":                                     "never move",
		"4k4/9/9/9/4P4/4P4/9/9/4K4 b - 1":                                  "nifu",
		"4k4/4R4/9/9/9/9/9/9/4K4 b - 1":                                    "not to move, is in check",
		"4k4/9/9/9/9/9/9/9/4K4 b - 0":                                      "move number",
		"4k4/9/9/9/9/9/9/9/4KK3 b - 1":                                     "second Black king",
		"4k4/9/9/9/9/9/9/9/4+K4 b - 1":                                     "cannot be promoted",
		"4k4/9/9/9/9/9/9/9/4X4 b - 1":                                      "bad piece",
		"4k4/9/9/9/9/9/9/9/44K b - 1":                                      "two digits",
		"4k4/9/9/9/9/9/9/9/4K4 b PP 1":                                     "twice",
	}
	for s, want := range bad {
		_, err := ParseSFEN(s)
		assert.ErrorContains(t, err, want, s)
	}
	for _, s := range []string{StartSFEN, matsuriSFEN, maxSFEN, "lnsgkgsn1/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1"} {
		b, err := ParseSFEN(s)
		require.NoError(t, err)
		assert.Equal(t, s, b.SFEN())
	}
	b, err := ParseSFEN("4k4/9/9/9/9/9/9/9/4K4 b p2PR 1")
	require.NoError(t, err)
	assert.Equal(t, "4k4/9/9/9/9/9/9/9/4K4 b R2Pp 1", b.SFEN(), "writer order")
}

func TestFouls(t *testing.T) {
	tests := []struct {
		sfen string
		usi  string
		want Foul
	}{
		{"4k4/9/2+P6/9/9/9/4P4/9/4K4 b P 1", "P*5c", FoulNifu},
		{"7nk/9/7G1/9/9/9/9/9/4K4 b P 1", "P*1b", FoulUchifuzume},
		{"4k4/6P2/8L/2N6/9/9/9/9/4K4 b - 1", "3b3a", FoulDeadPiece},
		{"4k4/6P2/8L/2N6/9/9/9/9/4K4 b - 1", "7d8b", FoulDeadPiece},
		{"4k4/9/9/9/9/9/9/9/4K4 b N 1", "N*5b", FoulDeadPiece},
		{"4k4/4r4/9/9/9/9/9/4G4/4K4 b - 1", "5h4h", FoulSelfCheck},
		{"4k4/4r4/9/9/9/9/9/9/4K4 b G 1", "G*1a", FoulSelfCheck},
		{StartSFEN, "7g7f+", FoulPromotion},
		{"4k4/9/9/9/9/9/9/9/4K4 b r 1", "R*5e", FoulNotInHand},
	}
	for _, tt := range tests {
		p := mustPos(t, tt.sfen)
		u, err := ParseUSIMove(tt.usi)
		require.NoError(t, err)
		found := NoFoul
		for _, f := range p.Fouls() {
			if f.Move.matches(u) {
				found = f.Foul
				v := p.FoulView(f)
				assert.NotNil(t, v.Stacks[u.To], "the view shows the piece on the destination")
			}
		}
		assert.Equal(t, tt.want, found, "%s %s", tt.sfen, tt.usi)
	}
	assert.Equal(t, "F2 nifu", FoulNifu.String())

	// A rook taken from the opponent's stand leaves that stand empty.
	p := mustPos(t, "4k4/9/9/9/9/9/9/9/4K4 b r 1")
	for _, f := range p.Fouls() {
		if f.Foul == FoulNotInHand && f.Move.String() == "R*5e" {
			v := p.FoulView(f)
			assert.Empty(t, v.Zones[1])
			assert.Empty(t, v.Zones[0])
			top, _ := v.Top(SquareAt(5, 5))
			assert.Equal(t, rules.Piece{Color: rules.First, Kind: 'R'}, top)
		}
	}

	// No legal move is a foul, on random positions.
	rng := rand.New(rand.NewPCG(5, 6))
	b, err := ParseSFEN(matsuriSFEN)
	require.NoError(t, err)
	randomPlay(rng, b, 80, func(b *Board, legal []Move) {
		for _, f := range b.Fouls(nil) {
			for _, m := range legal {
				require.False(t, f.Move == m, "legal %s listed as %s", m, f.Foul)
			}
		}
	})
}
