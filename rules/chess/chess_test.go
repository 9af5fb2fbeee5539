package chess

import (
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arbiter/rules"
)

func mustFEN(t testing.TB, fen string) *Position {
	t.Helper()
	p, err := ParseFEN(fen)
	require.NoError(t, err, fen)
	return p
}

func play(t testing.TB, p *Position, moves ...string) *Position {
	t.Helper()
	for _, s := range moves {
		m, err := p.ParseMove(s)
		require.NoError(t, err, s)
		next, err := p.Play(m)
		require.NoError(t, err, s)
		p = next.(*Position)
	}
	return p
}

func TestRegistered(t *testing.T) {
	g, err := rules.New("chess", nil)
	require.NoError(t, err)
	assert.Equal(t, "chess", g.Name())
	assert.Equal(t, StartFEN, g.Start().String())
	assert.Equal(t, 64, g.Geometry().Len())
	assert.Equal(t, "White", g.SideName(rules.White))
	_, err = rules.New("chess", rules.Options{"x": "1"})
	assert.ErrorContains(t, err, `unknown option "x"`)
}

func TestFENRoundTrip(t *testing.T) {
	for _, fen := range []string{
		StartFEN,
		"r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
		"rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
		"8/8/8/8/8/8/8/K6k b - - 99 150",
	} {
		assert.Equal(t, fen, mustFEN(t, fen).String())
	}
	// An en-passant square with no legal capture is dropped (X-FEN).
	assert.Equal(t, "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1",
		mustFEN(t, "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1").String())
	// Four fields are accepted.
	assert.Equal(t, StartFEN, mustFEN(t, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -").String())
}

func TestFENErrors(t *testing.T) {
	for _, tc := range []struct{ fen, want string }{
		{"", "want 4 or 6 fields"},
		{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP w KQkq - 0 1", "7 ranks, want 8"},
		{"rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "rank 6: more than 8 squares"},
		{"rnbqkbnr/pppppppp/7/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "rank 6: 7 squares, want 8"},
		{"rnbqkbnr/ppppxppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", `unknown piece letter 'x'`},
		{"rnbqkbnr/pppptppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", `unknown piece letter 't'`},
		{"rnbq1bnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQ - 0 1", "0 black kings"},
		{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1", "field 2"},
		{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN1 w KQkq - 0 1", "no white rook on h1"},
		{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e3 0 1", "field 4"},
		{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - x 1", "field 5"},
		{"Pnbqkbnr/pppppppp/8/8/8/8/1PPPPPPP/RNBQKBNR w KQkq - 0 1", "pawn on the first or last rank"},
		{"4k2R/8/8/8/8/8/8/4K3 w - - 0 1", "side not to move is in check"},
	} {
		_, err := ParseFEN(tc.fen)
		assert.ErrorContains(t, err, tc.want, tc.fen)
	}
}

func TestSAN(t *testing.T) {
	kiwi := mustFEN(t, "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1")
	var sans []string
	for _, m := range kiwi.Legal() {
		sans = append(sans, kiwi.FormatMove(m))
	}
	assert.Subset(t, sans, []string{"O-O", "O-O-O", "Nxf7", "Qxf6", "dxe6", "Bxa6", "Qxh3", "Ng4", "Rb1", "Kd1"})
	// Knights on c3 and e5 both reach d1? No: only c3. Two rooks on a1/h1
	// reaching f1 / b1: only one each. Construct real ambiguities:
	p := mustFEN(t, "4k3/8/8/8/1N3N2/8/4K3/R6R w - - 0 1")
	for uci, want := range map[string]string{"b4d5": "Nbd5", "f4d5": "Nfd5", "a1d1": "Rad1", "h1d1": "Rhd1", "a1a8": "Ra8+"} {
		m, err := p.ParseMove(uci)
		require.NoError(t, err)
		assert.Equal(t, want, p.FormatMove(m), uci)
	}
	r := mustFEN(t, "4k3/8/8/R7/8/8/8/R3K3 w - - 0 1")
	m, err := r.ParseMove("a1a3")
	require.NoError(t, err)
	assert.Equal(t, "R1a3", r.FormatMove(m))
	q := mustFEN(t, "k7/8/8/8/8/2Q1Q3/8/2Q1K3 w - - 0 1")
	m, err = q.ParseMove("c3d2")
	require.NoError(t, err)
	assert.Equal(t, "Qc3d2", q.FormatMove(m))
	// Promotion, en passant and mate marks.
	pr := mustFEN(t, "8/5P1k/8/8/8/8/8/K7 w - - 0 1")
	m, err = pr.ParseMove("f8=N+")
	require.NoError(t, err)
	assert.Equal(t, "f8=N+", pr.FormatMove(m))
	assert.Equal(t, "f7f8n", m.String())
	ep := mustFEN(t, "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3")
	m, err = ep.ParseMove("exf6")
	require.NoError(t, err)
	assert.Equal(t, "exf6", ep.FormatMove(m))
	fool := play(t, Start(), "f3", "e5", "g4")
	m, err = fool.ParseMove("Qh4")
	require.NoError(t, err)
	assert.Equal(t, "Qh4#", fool.FormatMove(m))
}

func TestParseMoveForms(t *testing.T) {
	p := Start()
	for _, s := range []string{"Nf3", "Ng1f3", "Ng1-f3", "g1f3", "Nf3!?", "Ngf3"} {
		m, err := p.ParseMove(s)
		require.NoError(t, err, s)
		assert.Equal(t, "g1f3", m.String(), s)
	}
	for _, tc := range []struct{ in, want string }{
		{"Nf4", "no legal move matches"},
		{"e5", "no legal move matches"},
		{"hello", "not SAN"},
		{"", "empty move"},
		{"O-O", "castling is not legal"},
	} {
		_, err := p.ParseMove(tc.in)
		assert.ErrorContains(t, err, tc.want, tc.in)
	}
	amb := mustFEN(t, "4k3/8/8/8/1N3N2/8/8/4K3 w - - 0 1")
	_, err := amb.ParseMove("Nd5")
	assert.ErrorContains(t, err, "ambiguous")
	promo := mustFEN(t, "8/5P1k/8/8/8/8/8/K7 w - - 0 1")
	_, err = promo.ParseMove("f8")
	assert.ErrorContains(t, err, "must promote")
	castle := mustFEN(t, "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1")
	for s, want := range map[string]string{"O-O": "e1g1", "0-0-0": "e1c1", "e1g1": "e1g1", "Kg1": "e1g1"} {
		m, err := castle.ParseMove(s)
		require.NoError(t, err, s)
		assert.Equal(t, want, m.String(), s)
	}
}

func TestOutcomes(t *testing.T) {
	mate := play(t, Start(), "f3", "e5", "g4", "Qh4")
	assert.Equal(t, rules.Win(rules.Black, rules.Checkmate), mate.Outcome(nil))
	stale := mustFEN(t, "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1")
	assert.Equal(t, rules.Draw(rules.Stalemate), stale.Outcome(nil))
	for fen, dead := range map[string]bool{
		"8/8/4k3/8/8/3K4/8/8 w - - 0 1":     true,  // K v K
		"8/8/4k3/8/8/3KN3/8/8 w - - 0 1":    true,  // K+N v K
		"8/8/4k3/8/8/3KB3/8/8 b - - 0 1":    true,  // K+B v K
		"8/8/3bk3/8/8/3KB3/8/8 w - - 0 1":   true,  // bishops on dark squares only
		"8/8/2b1k3/8/8/3KB3/8/8 w - - 0 1":  false, // opposite colours: a mate exists
		"8/8/4k3/8/8/2NKN3/8/8 w - - 0 1":   false, // K+N+N v K
		"8/8/4kn2/8/8/3KN3/8/8 w - - 0 1":   false, // K+N v K+N
		"8/8/4k3/8/8/3KP3/8/8 w - - 0 1":    false,
		"8/8/5k2/8/8/3KR3/8/8 w - - 0 1":    false,
		"8/8/4k3/8/8/3KBB2/8/8 w - - 0 1":   false, // bishops of both colours
		"8/8/4kp2/8/8/3KB3/8/8 w - - 0 1":   false, // a pawn can block
		"1b6/8/4k3/8/8/3KB3/8/8 w - - 0 1":  true,  // b8 and e3 are both dark
		"b7/8/4k3/8/8/3KB3/8/8 w - - 0 1":   false, // a8 is light, e3 dark
		"B7/8/4k3/8/8/3K4/8/8 w - - 0 1":    true,
		"8/8/4k3/8/8/3K1N2/8/6b1 w - - 0 1": false, // K+N v K+B
	} {
		got := mustFEN(t, fen).Outcome(nil)
		if dead {
			assert.Equal(t, rules.Draw(rules.DeadPosition), got, fen)
		} else {
			assert.False(t, got.Over(), fen)
		}
	}
	// 75-move rule, and the 50-move claim.
	assert.Equal(t, rules.Draw(rules.MoveCountRule), mustFEN(t, "8/8/5k2/8/8/3KR3/8/8 w - - 150 100").Outcome(nil))
	p50 := mustFEN(t, "8/8/5k2/8/8/3KR3/8/8 w - - 100 80")
	assert.False(t, p50.Outcome(nil).Over())
	assert.Equal(t, []rules.Outcome{rules.Draw(rules.MoveCountRule)}, p50.Claims(nil))
	// 75-move rule does not override mate.
	assert.Equal(t, rules.Win(rules.White, rules.Checkmate), mustFEN(t, "4R1k1/5ppp/8/8/8/8/8/6K1 b - - 150 100").Outcome(nil))
}

func TestRepetition(t *testing.T) {
	var history []rules.Position
	p := Start()
	cycle := []string{"Nf3", "Nf6", "Ng1", "Ng8"}
	for round := range 4 {
		for _, s := range cycle {
			history = append(history, p)
			p = play(t, p, s)
		}
		count := round + 2 // occurrences of the start position now
		claims := p.Claims(history)
		if count >= 3 {
			assert.Contains(t, claims, rules.Draw(rules.Repetition), "round %d", round)
		} else {
			assert.Empty(t, claims)
		}
		if count >= 5 {
			assert.Equal(t, rules.Draw(rules.Repetition), p.Outcome(history))
		} else {
			assert.False(t, p.Outcome(history).Over(), "round %d", round)
		}
	}
}

// Castling rights and the en-passant right are part of the key.
func TestKey(t *testing.T) {
	a := mustFEN(t, "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1")
	b := mustFEN(t, "r3k2r/8/8/8/8/8/8/R3K2R w Kkq - 0 1")
	assert.NotEqual(t, a.Key(), b.Key())
	// An en-passant target with no capture does not count.
	c := mustFEN(t, "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1")
	d := mustFEN(t, "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1")
	assert.Equal(t, c.Key(), d.Key())
	e := mustFEN(t, "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3")
	f := mustFEN(t, "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq - 0 3")
	assert.NotEqual(t, e.Key(), f.Key())
}

func TestCanEverWin(t *testing.T) {
	for _, tc := range []struct {
		fen  string
		side rules.Color
		want Verdict
	}{
		{"8/8/4k3/8/8/3K4/8/8 w - - 0 1", rules.White, No},
		{"8/8/4k3/8/8/3KN3/8/8 w - - 0 1", rules.White, No},                    // K+N v K
		{"8/8/4kr2/8/8/3KN3/8/8 w - - 0 1", rules.White, Yes},                  // K+N v K+R: helpmate
		{"8/8/4kr2/8/8/3KN3/8/8 w - - 0 1", rules.Black, Yes},                  // the rook side
		{"8/8/4k3/8/8/3KB3/8/8 w - - 0 1", rules.White, No},                    // K+B v K
		{"8/8/3bk3/8/8/3KB3/8/8 w - - 0 1", rules.White, No},                   // same-colour bishops
		{"8/8/2b1k3/8/8/3KB3/8/8 w - - 0 1", rules.White, Yes},                 // opposite colours
		{"8/8/4k3/8/8/3KBB2/8/8 w - - 0 1", rules.Black, No},                   // bare king
		{"8/8/4k3/8/8/3KBN2/8/8 w - - 0 1", rules.White, Yes},                  // K+B+N
		{"8/8/4k3/8/8/2NKN3/8/8 w - - 0 1", rules.White, Yes},                  // two knights
		{"8/4p3/3k4/8/8/3KN3/8/8 w - - 0 1", rules.White, Yes},                 // the pawn can move
		{"8/4p3/3k4/8/8/3K4/8/8 w - - 0 1", rules.White, No},                   // bare king v pawn
		{"8/4p3/3k4/8/8/3K4/8/8 w - - 0 1", rules.Black, Yes},                  // the pawn side
		{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", 0, Yes},   // pawns can move
		{"8/8/4k3/1p1p1p1p/1P1P1P1P/8/3KB3/8 w - - 0 1", rules.White, Unknown}, // frozen: a fortress, maybe dead
		{"8/8/6k1/1p1p1p1p/1P1P1P1P/8/3KR3/8 w - - 0 1", rules.White, Unknown}, // frozen structure, not analysed
	} {
		assert.Equal(t, tc.want, mustFEN(t, tc.fen).WinVerdict(tc.side), "%s side %v", tc.fen, tc.side)
	}
	assert.Equal(t, "unknown", Unknown.String())
}

func TestViewPromotionIsARealPiece(t *testing.T) {
	p := play(t, mustFEN(t, "8/5P1k/8/8/8/8/8/K7 w - - 0 1"), "f8=Q")
	v := p.View()
	sq, _ := config.Geometry().Lookup("f8")
	assert.Equal(t, []rules.Piece{{Color: rules.White, Kind: 'Q'}}, v.Stacks[sq])
	assert.Equal(t, 3, v.Total())
	assert.Empty(t, v.Zones)
}

func TestLegalOrderDeterministicAndUnique(t *testing.T) {
	p := mustFEN(t, "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1")
	var a, b []string
	for _, m := range p.Legal() {
		a = append(a, m.String())
	}
	for _, m := range p.Legal() {
		b = append(b, m.String())
	}
	assert.Equal(t, a, b)
	c := slices.Clone(a)
	slices.Sort(c)
	assert.Len(t, slices.Compact(c), len(a))
	_, err := p.Play(p.Legal()[0])
	require.NoError(t, err)
	_, err = Start().Play(p.Legal()[0])
	assert.Error(t, err)
}

func TestInterfaces(t *testing.T) {
	var p rules.Position = Start()
	_, ok := p.(rules.Claimer)
	assert.True(t, ok)
	_, ok = p.(rules.Perfter)
	assert.True(t, ok)
	w, ok := p.(interface {
		CanEverWin(rules.Color) (bool, bool)
	})
	require.True(t, ok)
	can, known := w.CanEverWin(rules.White)
	assert.True(t, known)
	assert.True(t, can)
	can, known = mustFEN(t, "8/8/4k3/1p1p1p1p/1P1P1P1P/8/3KB3/8 w - - 0 1").CanEverWin(rules.White)
	assert.False(t, known)
	assert.False(t, can)
	can, known = mustFEN(t, "8/8/4k3/8/8/3KN3/8/8 w - - 0 1").CanEverWin(rules.White)
	assert.True(t, known)
	assert.False(t, can)
	can, known = mustFEN(t, "8/8/4kr2/8/8/3KN3/8/8 w - - 0 1").CanEverWin(rules.White)
	assert.True(t, known)
	assert.True(t, can)
}

// In double check only the king may move, and castling is not allowed.
func TestDoubleCheck(t *testing.T) {
	p := mustFEN(t, "4r2k/8/8/8/8/3n4/8/R3K3 w Q - 0 1")
	require.True(t, p.InCheck())
	var got []string
	for _, m := range p.Legal() {
		got = append(got, m.String())
	}
	slices.Sort(got)
	assert.Equal(t, []string{"e1d1", "e1d2", "e1f1"}, got)
}

func TestSetOutcome(t *testing.T) {
	rec, err := NewRecord(Start(), nil, nil)
	require.NoError(t, err)
	rec.SetOutcome(rules.Loss(rules.White, rules.Time))
	assert.Equal(t, "0-1", rec.Result)
	term, _ := rec.Tag("Termination")
	assert.Equal(t, "time forfeit", term)
	_, hasFEN := rec.Tag("FEN")
	assert.False(t, hasFEN, "the initial position needs no FEN tag")
}

// A frozen structure is judged unknown even when the king stands in front
// of its own pawn: blocked is blocked.
func TestCanEverWinBlockedByOwnKing(t *testing.T) {
	assert.Equal(t, Unknown, mustFEN(t, "8/4p3/4k3/8/8/3KN3/8/8 w - - 0 1").WinVerdict(rules.White))
}

func TestLongAlgebraic(t *testing.T) {
	p := mustFEN(t, "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1")
	got := map[string]bool{}
	for _, m := range p.Legal() {
		text := LongAlgebraic(p, m)
		got[text] = true
		back, err := p.ParseMove(text)
		require.NoError(t, err, text)
		assert.Equal(t, m, back, text)
	}
	for _, want := range []string{"Ne5xf7", "d5xe6", "O-O", "O-O-O", "Qf3xf6", "a2-a4", "Nc3-b1"} {
		assert.True(t, got[want], want)
	}
	pr := mustFEN(t, "3r3k/2P5/8/8/8/8/8/K7 w - - 0 1")
	m, err := pr.ParseMove("cxd8=Q+")
	require.NoError(t, err)
	assert.Equal(t, "c7xd8=Q+", LongAlgebraic(pr, m))
}
