package tensor

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arbiter/rules"
	"arbiter/rules/internal/chesscore"
)

// The facts of section 6 of the Tensor specification (T1-T16), counted by
// hand there and cross-checked by its authors with a separate model.

func mustGame(t testing.TB) *Game {
	t.Helper()
	g, err := New(nil)
	require.NoError(t, err)
	return g
}

func mustFEN(t testing.TB, fen string) *Position {
	t.Helper()
	p, err := mustGame(t).ParseFEN(fen)
	require.NoError(t, err, fen)
	return p
}

// movesFrom returns the canonical TLAN of the legal moves starting on the
// named square, sorted.
func movesFrom(t testing.TB, p *Position, sq string) []string {
	t.Helper()
	geo := mustGame(t).Geometry()
	var out []string
	for _, m := range p.Legal() {
		if geo.Name(m.From()) == sq {
			out = append(out, m.String())
		}
	}
	slices.Sort(out)
	return out
}

func allMoves(p *Position) []string {
	var out []string
	for _, m := range p.Legal() {
		out = append(out, m.String())
	}
	slices.Sort(out)
	return out
}

func sorted(s ...string) []string {
	out := slices.Clone(s)
	slices.Sort(out)
	return out
}

func TestT1Initial(t *testing.T) {
	g := mustGame(t)
	p := g.StartPosition()
	require.Len(t, p.Legal(), 30)
	assert.Subset(t, allMoves(p), []string{"Ra1-b1Ta1", "Rj1-i1Tj1", "Tb1:d3", "Tb1:b3", "Ti1:g3", "Ti1:i3", "Nc1-b3", "e2-e4"})
	black := mustFEN(t, "rtnbqkbntr/pppppppppp/10/10/10/10/PPPPPPPPPP/RTNBQKBNTR b KQkq - 0 1")
	require.Len(t, black.Legal(), 30)
	assert.Subset(t, allMoves(black), []string{"Ra8-b8Ta8", "Tb8:b6", "Tb8:d6"})
	// Machine-computed regression numbers of T1.
	for d, want := range []uint64{30, 900, 30722} {
		require.Equal(t, want, p.Perft(d+1), "perft %d", d+1)
	}
	if !testing.Short() && !raceEnabled {
		require.Equal(t, uint64(1046520), p.Perft(4))
	}
}

func TestT2PassingOver(t *testing.T) {
	w := mustFEN(t, "k4r4/4b5/5t4/10/10/1T8/1P8/5Q3K w - - 0 1")
	assert.Equal(t, sorted("b2-b4", "b2-b3Tb4"), movesFrom(t, w, "b2"))
	q := movesFrom(t, w, "f1")
	assert.Len(t, q, 21)
	assert.NotContains(t, q, "Qf1xf8")
	assert.Contains(t, q, "Qf1-f5")
	assert.NotContains(t, q, "Qf1-f7")

	b := mustFEN(t, "k4r4/4b5/5t4/10/10/1T8/1P8/5Q3K b - - 0 1")
	bishop := movesFrom(t, b, "e7")
	assert.Len(t, bishop, 26)
	assert.Contains(t, bishop, "Be7-j2")
	assert.Contains(t, bishop, "Be7-f6xb2")
	rook := movesFrom(t, b, "f8")
	assert.Len(t, rook, 38)
	assert.Contains(t, rook, "Rf8xf1")
}

func TestT2cBouncePin(t *testing.T) {
	p := mustFEN(t, "k4r4/4b5/5t4/10/10/1T8/1P8/K4Q4 w - - 0 1")
	assert.Empty(t, movesFrom(t, p, "b2"))
}

func TestT3BounceCheck(t *testing.T) {
	p := mustFEN(t, "k9/2b7/7Q2/10/4Tt4/10/3K6/10 w - - 0 1")
	require.True(t, p.InCheck())
	assert.Equal(t, sorted("Kd2-c2", "Kd2-c3", "Kd2-d1", "Kd2-d3", "Kd2-e1", "Kd2-e2",
		"Qh6-d6", "Te4-e3", "Te4-e5", "Te4xg4", "Te4:g4xe4"), allMoves(p))
}

func TestT4RookBounces(t *testing.T) {
	p := mustFEN(t, "k9/10/5R2T1/10/10/1T8/10/1R7K w - - 0 1")
	b1 := movesFrom(t, p, "b1")
	assert.Len(t, b1, 39)
	assert.Contains(t, b1, "Rb1-b3-e3")
	assert.Contains(t, b1, "Rb1-b8")
	assert.Contains(t, b1, "Rb1-b3Tb1")
	f6 := movesFrom(t, p, "f6")
	assert.Len(t, f6, 38)
	assert.Contains(t, f6, "Rf6-j6")
	assert.Contains(t, f6, "Rf6-i6-i1")
	assert.Contains(t, f6, "Rf6-i6Tf6")
}

func TestT5KnightBounceAndPush(t *testing.T) {
	p := mustFEN(t, "k9/4p5/6T3/10/5N4/10/10/K9 w - - 0 1")
	assert.Equal(t, sorted(
		"Nf4-d3", "Nf4-d5", "Nf4-e2", "Nf4-e6", "Nf4-g2", "Nf4-h3", "Nf4-h5",
		"Nf4-g6-e5", "Nf4-g6xe7", "Nf4-g6-f8", "Nf4-g6-h8", "Nf4-g6-i7", "Nf4-g6-i5", "Nf4-g6-h4",
		"Nf4-g6Te5", "Nf4-g6Tf8", "Nf4-g6Th8", "Nf4-g6Ti7", "Nf4-g6Ti5", "Nf4-g6Th4", "Nf4-g6Tf4",
	), movesFrom(t, p, "f4"))
}

func TestT6BishopPush(t *testing.T) {
	p := mustFEN(t, "10/2B7/10/9k/5T4/10/10/K9 w - - 0 1")
	c7 := movesFrom(t, p, "c7")
	assert.Len(t, c7, 30)
	// Push and plain move to the same square are different moves (5.3 A1).
	assert.Subset(t, c7, []string{"Bc7-f4Tb8", "Bc7-b8", "Bc7-g3", "Bc7-f4Tg3", "Bc7-f4-d2", "Bc7-f4Td2", "Bc7-f4Tc7"})
}

func TestT7RookPush(t *testing.T) {
	p := mustFEN(t, "9k/10/10/2p3T3/10/6R3/10/K9 w - - 0 1")
	g3 := movesFrom(t, p, "g3")
	assert.Len(t, g3, 35)
	assert.Contains(t, g3, "Rg3-g5xc5")
	assert.Contains(t, g3, "Rg3-g5Tg1")
	assert.NotContains(t, g3, "Rg3-g5Tc5")
	assert.NotContains(t, g3, "Rg3-g5Tb5")
}

func TestT8MonsterCaptures(t *testing.T) {
	p := mustFEN(t, "k9/10/10/3t1p4/3TP5/10/10/K9 w - - 0 1")
	assert.Equal(t, sorted("Td4-c3", "Td4-c4", "Td4-c5", "Td4-d3", "Td4-e3", "Td4-e5",
		"Td4:d6", "Td4:f4", "Td4:f4:f6", "Td4xd6", "Td4:d6xd4"), movesFrom(t, p, "d4"))
}

func TestT9DiagonalChain(t *testing.T) {
	p := mustFEN(t, "k9/7p2/10/3p1p4/4T5/3P1P4/10/K9 w - - 0 1")
	assert.Equal(t, sorted("Te4-d4", "Te4-e3", "Te4-e5", "Te4-f4",
		"Te4:c2", "Te4:g2", "Te4:c6", "Te4:g6", "Te4:g6:i8"), movesFrom(t, p, "e4"))
}

func TestT10Castling(t *testing.T) {
	for _, tc := range []struct {
		name, fen string
		want      []string
	}{
		{"A", "k9/10/10/2b7/10/10/10/5KT2R w K - 0 1", []string{"Kf1-i1"}},
		{"B", "k9/10/10/2b7/10/10/10/5K1T1R w K - 0 1", nil},
		{"C", "k9/10/10/10/10/10/10/5K2TR w K - 0 1", []string{"Kf1-h1"}},
		{"D", "k9/10/10/2b7/10/10/10/5K3R w K - 0 1", nil},
		{"E", "9k/10/10/10/10/10/10/RT3K4 w Q - 0 1", []string{"Kf1-c1"}},
		{"F", "9k/10/10/10/10/10/10/R2T1K4 w Q - 0 1", []string{"Kf1-b1"}},
		{"G", "9k/10/10/10/10/10/10/R1T2K4 w Q - 0 1", nil},
		{"H", "k9/10/10/6b3/10/4t5/10/5K3R w K - 0 1", nil},
		{"I", "k9/10/10/6b3/10/4t5/10/5KT2R w K - 0 1", []string{"Kf1-i1"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := mustFEN(t, tc.fen)
			var got []string
			for _, m := range p.Legal() {
				if m.(chesscore.LegalMove).Move.Kind == chesscore.Castle {
					got = append(got, m.String())
				}
			}
			assert.Equal(t, tc.want, got)
		})
	}
}

func TestT11PawnJumpPushEnPassant(t *testing.T) {
	p := mustFEN(t, "9k/10/10/10/p2p2T3/1T2t5/1PP1P1P3/9K w - - 0 1")
	var pawn []string
	for _, sq := range []string{"b2", "c2", "e2", "g2"} {
		pawn = append(pawn, movesFrom(t, p, sq)...)
	}
	slices.Sort(pawn)
	assert.Equal(t, sorted("b2-b4", "b2-b3Tb4", "c2-c3", "c2-c4", "g2-g3"), pawn)
	assert.Len(t, p.Legal(), 26)
	assert.Equal(t, sorted("Tb3-a2", "Tb3-a3", "Tb3-b4", "Tb3-c3", "Tb3-c4", "Tb3:b1",
		"Tb3:d1", "Tb3:d1:f3", "Tb3:d1:f3:h1", "Tb3:d1:f3:h5"), movesFrom(t, p, "b3"))
	assert.Len(t, movesFrom(t, p, "g4"), 8)

	play := func(p *Position, s string) *Position {
		m, err := p.ParseMove(s)
		require.NoError(t, err, s)
		next, err := p.Play(m)
		require.NoError(t, err)
		return next.(*Position)
	}
	jumped := play(p, "b2-b4")
	assert.Equal(t, "9k/10/10/10/pP1p2T3/1T2t5/2P1P1P3/9K b - - 0 1", jumped.String())
	assert.Empty(t, movesFrom(t, jumped, "a4")[1:], "a4 has only its step")
	assert.Equal(t, []string{"a4-a3"}, movesFrom(t, jumped, "a4"))

	double := play(p, "c2-c4")
	assert.Contains(t, movesFrom(t, double, "d4"), "d4xc3")
	assert.Contains(t, double.String(), " c3 ")

	pushed := play(p, "b2-b3Tb4")
	assert.Contains(t, movesFrom(t, pushed, "a4"), "a4xb3")
}

func TestT12KnightBounceCheck(t *testing.T) {
	p := mustFEN(t, "7k2/5t4/6T3/10/5N4/10/10/K9 b - - 0 1")
	require.True(t, p.InCheck())
	assert.Equal(t, sorted("Kh8-g8", "Kh8-g7", "Kh8-h7", "Kh8-i8", "Tf7xh5", "Tf7:h5xf7"), allMoves(p))
}

func TestT13MateAndStalemate(t *testing.T) {
	mate := mustFEN(t, "kT8/10/1K8/10/4B5/10/10/10 b - - 0 1")
	assert.Empty(t, mate.Legal())
	assert.True(t, mate.InCheck())
	assert.Equal(t, rules.Win(rules.White, rules.Checkmate), mate.Outcome(nil))

	stale := mustFEN(t, "kT8/T9/2K7/10/10/10/10/10 b - - 0 1")
	assert.Empty(t, stale.Legal())
	assert.False(t, stale.InCheck())
	assert.Equal(t, rules.Draw(rules.Stalemate), stale.Outcome(nil))
}

func TestT14PinnedMonster(t *testing.T) {
	p := mustFEN(t, "k4r4/10/10/10/10/5T4/10/5K4 w - - 0 1")
	assert.Equal(t, sorted("Kf1-e1", "Kf1-e2", "Kf1-f2", "Kf1-g1", "Kf1-g2", "Tf3-f2", "Tf3-f4"), allMoves(p))
}

func TestT15OneMoveTwoRoutes(t *testing.T) {
	p := mustFEN(t, "9k/10/10/10/10/2T7/10/Q8K w - - 0 1")
	a1 := movesFrom(t, p, "a1")
	assert.Len(t, a1, 50)
	assert.Subset(t, a1, []string{"Qa1-e1", "Qa1-a5", "Qa1-c3-d2", "Qa1-c3-b4", "Qa1-h8", "Qa1-c3Ta1"})
	assert.NotContains(t, a1, "Qa1-c3-e1")
	// Every route parses to the one move.
	for _, s := range []string{"Qa1-e1", "Qa1-c3-e1"} {
		m, err := p.ParseMove(s)
		require.NoError(t, err, s)
		assert.Equal(t, "Qa1-e1", m.String())
	}
}

func TestT16PassingTwoMonsters(t *testing.T) {
	p := mustFEN(t, "9k/10/10/T9/10/T9/10/R8K w - - 0 1")
	a1 := movesFrom(t, p, "a1")
	assert.Len(t, a1, 56)
	assert.Subset(t, a1, []string{"Ra1-a8", "Ra1-a5-j5", "Ra1-a5Ta4", "Ra1-a3Ta1"})
	assert.NotContains(t, a1, "Ra1-a5Ta2")
}

func TestD46TwoMonstersOneMove(t *testing.T) {
	p := mustFEN(t, "k9/10/10/10/3Tt5/4T5/10/K9 w - - 0 1")
	assert.Equal(t, uint64(22), p.Perft(1))
	assert.Equal(t, uint64(284), p.Perft(2))
	assert.Contains(t, allMoves(p), "Td4:f4xd4")
	assert.NotContains(t, allMoves(p), "Te3:e5xe3")
	m, err := p.ParseMove("Te3:e5xe3")
	require.NoError(t, err)
	assert.Equal(t, "Td4:f4xd4", m.String())
}

// Every legal move's canonical TLAN, with and without check mark, reads
// back to the same move, over positions of random games.
func TestTLANRoundTripRandomGames(t *testing.T) {
	g := mustGame(t)
	rng := rand.New(rand.NewPCG(7, 11))
	for range 6 {
		p := g.StartPosition()
		for ply := 0; ply < 60; ply++ {
			moves := p.Legal()
			if len(moves) == 0 {
				break
			}
			seen := map[string]bool{}
			for _, m := range moves {
				s := m.String()
				require.False(t, seen[s], "two moves write %s in %s", s, p)
				seen[s] = true
				for _, text := range []string{s, p.FormatMove(m)} {
					back, err := p.ParseMove(text)
					require.NoError(t, err, "%s in %s", text, p)
					require.Equal(t, m, back, "%s in %s", text, p)
				}
			}
			next, err := p.Play(moves[rng.IntN(len(moves))])
			require.NoError(t, err)
			p = next.(*Position)
		}
	}
}

// The physical view: a push moves two pieces, a monster capture removes
// the hopped monster, a promotion to a monster shows a monster.
func TestView(t *testing.T) {
	g := mustGame(t)
	geo := g.Geometry()
	at := func(p *Position, sq string) []rules.Piece {
		s, ok := geo.Lookup(sq)
		require.True(t, ok)
		return p.View().Stacks[s]
	}
	play := func(p *Position, s string) *Position {
		m, err := p.ParseMove(s)
		require.NoError(t, err, s)
		next, err := p.Play(m)
		require.NoError(t, err)
		return next.(*Position)
	}
	T := []rules.Piece{{Color: rules.White, Kind: 'T'}}
	push := play(mustFEN(t, "10/2B7/10/9k/5T4/10/10/K9 w - - 0 1"), "Bc7-f4Tb8")
	assert.Empty(t, at(push, "c7"))
	assert.Equal(t, []rules.Piece{{Color: rules.White, Kind: 'B'}}, at(push, "f4"))
	assert.Equal(t, T, at(push, "b8"))

	swap := play(mustFEN(t, "k9/4p5/6T3/10/5N4/10/10/K9 w - - 0 1"), "Nf4-g6Tf4")
	assert.Equal(t, T, at(swap, "f4"))
	assert.Equal(t, []rules.Piece{{Color: rules.White, Kind: 'N'}}, at(swap, "g6"))

	capture := play(mustFEN(t, "k9/10/10/3t1p4/3TP5/10/10/K9 w - - 0 1"), "Td4:d6xd4")
	assert.Empty(t, at(capture, "d5"))
	assert.Equal(t, T, at(capture, "d4"))
	assert.Equal(t, 5, capture.View().Total())

	promo := play(mustFEN(t, "k9/5P4/10/10/10/10/10/K9 w - - 0 1"), "f7-f8=T")
	assert.Equal(t, T, at(promo, "f8"))
}

func TestOptions(t *testing.T) {
	g, err := rules.New("tensor", nil)
	require.NoError(t, err)
	assert.Equal(t, rules.Options{"backrank": DefaultBackRank}, g.Options())
	assert.Equal(t, "rtnbqkbntr/pppppppppp/10/10/10/10/PPPPPPPPPP/RTNBQKBNTR w KQkq - 0 1", g.Start().String())
	alt, err := rules.New("tensor", rules.Options{"backrank": "RTNBKQBNTR"})
	require.NoError(t, err)
	start := alt.Start()
	assert.Equal(t, "rtnbkqbntr/pppppppppp/10/10/10/10/PPPPPPPPPP/RTNBKQBNTR w KQkq - 0 1", start.String())
	assert.Equal(t, uint64(30), rules.Perft(start, 1))
	// Castling with the king on e: the same destinations b, c, h, i.
	p, err := alt.ParsePosition("5k4/10/10/10/10/10/10/R3K4R w Q - 0 1")
	require.NoError(t, err)
	var castles []string
	for _, m := range p.Legal() {
		if m.(chesscore.LegalMove).Move.Kind == chesscore.Castle {
			castles = append(castles, m.String())
		}
	}
	assert.Equal(t, []string{"Ke1-c1", "Ke1-b1"}, castles)
	_, err = rules.New("tensor", rules.Options{"backrank": "RNBQKBNR"})
	assert.ErrorContains(t, err, "backrank")
	_, err = rules.New("tensor", rules.Options{"colour": "x"})
	assert.ErrorContains(t, err, "unknown option")
}

func TestOutcomesAndDeadPositions(t *testing.T) {
	for fen, want := range map[string]rules.Outcome{
		"k9/10/10/10/10/10/10/K8T w - - 0 1":    rules.Draw(rules.DeadPosition), // kings and monsters
		"kt8/10/10/10/10/10/10/KTT7 w - - 0 1":  rules.Draw(rules.DeadPosition),
		"k9/10/10/10/10/10/10/KB8 w - - 0 1":    rules.Draw(rules.DeadPosition), // K+B v K, no monster
		"k9/10/10/10/10/10/10/KBT7 w - - 0 1":   {},                             // K+B+T v K can mate
		"k9/10/10/10/10/10/10/KN6t1 w - - 0 1":  {},                             // K+N v K+T
		"k9/10/10/10/10/10/10/KR8 w - - 150 90": rules.Draw(rules.MoveCountRule),
	} {
		p := mustFEN(t, fen)
		assert.Equal(t, want, p.Outcome(nil), fen)
	}
	// Flag fall (3.12): only kings and monsters: no; monsters on the board
	// with other material: yes; traditional cases without monsters.
	for _, tc := range []struct {
		fen  string
		side rules.Color
		want chesscore.Verdict
	}{
		{"k9/10/10/10/10/10/10/KT8 w - - 0 1", rules.White, chesscore.No},
		{"kt8/10/10/10/10/10/10/KB8 w - - 0 1", rules.White, chesscore.Yes},
		{"k9/10/10/10/10/10/10/KB8 w - - 0 1", rules.White, chesscore.No},
		{"kr8/10/10/10/10/10/10/KN8 w - - 0 1", rules.White, chesscore.Yes},
	} {
		assert.Equal(t, tc.want, mustFEN(t, tc.fen).WinVerdict(tc.side), tc.fen)
	}
}

// 50-move counter (D31): a monster capture and a pawn push reset it; a
// non-capturing monster move and a piece push do not.
func TestHalfmoveClock(t *testing.T) {
	for _, tc := range []struct {
		fen, move string
		want      string
	}{
		{"k9/10/10/3t1p4/3TP5/10/10/K9 w - - 7 30", "Td4xd6", " 0 30"},
		{"k9/10/10/3t1p4/3TP5/10/10/K9 w - - 7 30", "Td4:d6", " 8 30"},
		{"9k/10/10/10/p2p2T3/1T2t5/1PP1P1P3/9K w - - 7 30", "b2-b3Tb4", " 0 30"},
		{"10/2B7/10/9k/5T4/10/10/K9 w - - 7 30", "Bc7-f4Tb8", " 8 30"},
	} {
		p := mustFEN(t, tc.fen)
		m, err := p.ParseMove(tc.move)
		require.NoError(t, err)
		next, err := p.Play(m)
		require.NoError(t, err)
		assert.True(t, strings.HasSuffix(next.String(), tc.want), "%s after %s: %s", tc.fen, tc.move, next)
	}
}

func TestTLANErrors(t *testing.T) {
	for _, tc := range []struct{ fen, move, want string }{
		{"k9/10/10/3t1p4/3TP5/10/10/K9 w - - 0 1", "Td4:f4:d4", "may not end on its start"},
		{"k9/10/10/3t1p4/3TP5/10/10/K9 w - - 0 1", "Td4:f4xf6", "jumps no enemy monster"},
		{"k9/10/10/3t1p4/3TP5/10/10/K9 w - - 0 1", "Td4-d6", "one square"},
		{"k9/10/10/3t1p4/3TP5/10/10/K9 w - - 0 1", "Td4:f6", "hop 1"},
		{"rtnbqkbntr/pppppppppp/10/10/10/10/PPPPPPPPPP/RTNBQKBNTR w KQkq - 0 1", "O-O", "ambiguous castling"},
		{"rtnbqkbntr/pppppppppp/10/10/10/10/PPPPPPPPPP/RTNBQKBNTR w KQkq - 0 1", "Nc1-b3-d4", "not a bounce"},
		{"rtnbqkbntr/pppppppppp/10/10/10/10/PPPPPPPPPP/RTNBQKBNTR w KQkq - 0 1", "e2-e5", "not legal"},
		{"rtnbqkbntr/pppppppppp/10/10/10/10/PPPPPPPPPP/RTNBQKBNTR w KQkq - 0 1", "Qe1-e3", "cannot go straight"},
		{"rtnbqkbntr/pppppppppp/10/10/10/10/PPPPPPPPPP/RTNBQKBNTR w KQkq - 0 1", "k1-k2", "not a square"},
		{"rtnbqkbntr/pppppppppp/10/10/10/10/PPPPPPPPPP/RTNBQKBNTR w KQkq - 0 1", "Ne2-e4", "holds a P, not a N"},
		{"k9/10/10/2b7/10/10/10/5KT2R w K - 0 1", "O-O-h", "not legal"},
		{"10/2B7/10/9k/5T4/10/10/K9 w - - 0 1", "Bc7-f4xd2", "no enemy piece"},
	} {
		p := mustFEN(t, tc.fen)
		_, err := p.ParseMove(tc.move)
		assert.ErrorContains(t, err, tc.want, "%s in %s", tc.move, tc.fen)
	}
}

// The sensor vectors of 5.5: the squares a move empties (E) and fills (F)
// and the occupied squares whose occupant changes, from the views of the
// positions before and after. (A monster capture returning to its start
// changes no occupant; the table lists its start as lifted and refilled.)
func TestSensorVectors(t *testing.T) {
	g := mustGame(t)
	geo := g.Geometry()
	for _, tc := range []struct {
		fen, move      string
		e, f, replaced []string
	}{
		{"10/2B7/10/9k/5T4/10/10/K9 w - - 0 1", "Bc7-f4Tb8", []string{"c7"}, []string{"b8"}, []string{"f4"}},
		{"10/2B7/10/9k/5T4/10/10/K9 w - - 0 1", "Bc7-b8", []string{"c7"}, []string{"b8"}, nil},
		{"10/2B7/10/9k/5T4/10/10/K9 w - - 0 1", "Bc7-g3", []string{"c7"}, []string{"g3"}, nil},
		{"10/2B7/10/9k/5T4/10/10/K9 w - - 0 1", "Bc7-f4Td2", []string{"c7"}, []string{"d2"}, []string{"f4"}},
		{"10/2B7/10/9k/5T4/10/10/K9 w - - 0 1", "Bc7-f4-d2", []string{"c7"}, []string{"d2"}, nil},
		{"k9/4p5/6T3/10/5N4/10/10/K9 w - - 0 1", "Nf4-g6Tf4", nil, nil, []string{"f4", "g6"}},
		{"k9/10/10/3t1p4/3TP5/10/10/K9 w - - 0 1", "Td4:d6xd4", []string{"d5"}, nil, nil},
		{"9k/10/10/10/p2p2T3/1T2t5/1PP1P1P3/9K w - - 0 1", "b2-b3Tb4", []string{"b2"}, []string{"b4"}, []string{"b3"}},
		{"9k/10/10/10/p2p2T3/1T2t5/1PP1P1P3/9K w - - 0 1", "b2-b4", []string{"b2"}, []string{"b4"}, nil},
		{"9k/10/10/2p3T3/10/6R3/10/K9 w - - 0 1", "Rg3-g5xc5", []string{"g3"}, nil, []string{"c5"}},
		{"k9/10/10/2b7/10/10/10/5KT2R w K - 0 1", "Kf1-i1", []string{"f1", "j1"}, []string{"h1", "i1"}, nil},
		{"9k/10/10/10/10/2T7/10/Q8K w - - 0 1", "Qa1-e1", []string{"a1"}, []string{"e1"}, nil},
		{"9k/10/10/10/10/2T7/10/Q8K w - - 0 1", "Qa1-c3Te1", []string{"a1"}, []string{"e1"}, []string{"c3"}},
	} {
		p := mustFEN(t, tc.fen)
		m, err := p.ParseMove(tc.move)
		require.NoError(t, err, tc.move)
		next, err := p.Play(m)
		require.NoError(t, err)
		before, after := p.View(), next.View()
		var e, f, replaced []string
		for sq := range before.Stacks {
			b, a := before.Stacks[sq], after.Stacks[sq]
			name := geo.Name(rules.Square(sq))
			switch {
			case len(b) > 0 && len(a) == 0:
				e = append(e, name)
			case len(b) == 0 && len(a) > 0:
				f = append(f, name)
			case len(b) > 0 && !slices.Equal(a, b):
				replaced = append(replaced, name)
			}
		}
		assert.Equal(t, tc.e, e, tc.move)
		assert.Equal(t, tc.f, f, tc.move)
		assert.Equal(t, tc.replaced, replaced, tc.move)
	}
}

func TestFENErrors(t *testing.T) {
	g := mustGame(t)
	for _, tc := range []struct{ fen, want string }{
		{"rtnbqkbntr/pppppppppp/10/10/10/10/PPPPPPPPPP/RTNBQKBNT w KQkq - 0 1", "rank 1: 9 squares, want 10"},
		{"rtnbqkbntr/pppppppppp/11/10/10/10/PPPPPPPPPP/RTNBQKBNTR w KQkq - 0 1", "more than 10 squares"},
		{"rtnbqkbntr/pppppppppp/010/10/10/10/PPPPPPPPPP/RTNBQKBNTR w KQkq - 0 1", "starts with 0"},
		{"k9/10/10/10/10/10/TTTTTTTTTT/KTTT6 w - - 0 1", "13 white monsters and 0 pawns"},
		{"rtnbqkbntr/pppppppppp/10/10/10/10/PPPPPPPPPP/RTNBQKBNTR w KQkq b3 0 1", "field 4"},
		{"rtnbqkbntr/pppppppppp/10/10/10/10/PPPPPPPPPP/RTNBKQBNTR w KQkq - 0 1", "king is not on f1"},
	} {
		_, err := g.ParseFEN(tc.fen)
		assert.ErrorContains(t, err, tc.want, tc.fen)
	}
}
