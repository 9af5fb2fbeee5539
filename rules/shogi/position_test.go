package shogi

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arbiter/rules"
)

func TestMakeUnmakeRestores(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	b, err := ParseSFEN(StartSFEN)
	require.NoError(t, err)
	played := randomPlay(rng, b, 300, func(b *Board, legal []Move) {
		before := *b
		for _, m := range legal {
			b.Make(m)
			b.Unmake(m)
			require.Equal(t, before, *b, "make/unmake %s in %s", m, before.SFEN())
		}
	})
	for i := len(played) - 1; i >= 0; i-- {
		b.Unmake(played[i])
	}
	assert.Equal(t, StartSFEN, b.SFEN())
}

func TestPositionInterface(t *testing.T) {
	g, err := rules.New("shogi", nil)
	require.NoError(t, err)
	assert.Equal(t, rules.Options{"declaration": "none", "maxmoves": "0", "handicap": "none"}, g.Options())
	assert.Equal(t, "sente", g.SideName(rules.First))
	assert.Equal(t, "gote", g.SideName(rules.Second))
	assert.Equal(t, rules.Traits{IllegalMoveLoses: true, JudgeAtPress: true, NoDrawByAgreement: true, Impasse: true},
		g.Traits(), "spec 2.12: no draw by agreement; 2.10, 2.11: jishogi and declarations")
	w, ok := g.Start().(rules.Winnable)
	require.True(t, ok)
	can, known := w.CanEverWin(rules.Second)
	assert.True(t, can && known, "a flag fall always loses")
	assert.Equal(t, 81, g.Geometry().Len())
	p := g.Start()
	assert.Equal(t, StartSFEN, p.String())
	assert.Equal(t, uint64(900), rules.Perft(p, 2))
	div, err := rules.Divide(p, 2)
	require.NoError(t, err)
	assert.Len(t, div, 30)
	assert.Equal(t, rules.DivideEntry{Move: "1g1f", Nodes: 30}, div[0])

	// Play and its errors.
	m, err := p.ParseMove("7g7f")
	require.NoError(t, err)
	assert.Equal(t, rules.Square(6*9+2), m.From(), "7g: (rank-1)*9 + (9-file)")
	assert.Equal(t, rules.Square(5*9+2), m.To())
	q, err := p.Play(m)
	require.NoError(t, err)
	assert.Equal(t, rules.Second, q.Turn())
	_, err = q.Play(m)
	assert.Error(t, err, "a move of another position")
	_, err = p.ParseMove("7g7e")
	assert.Error(t, err)
	_, err = p.ParseMove("")
	assert.Error(t, err)
	drop, err := mustPos(t, "4k4/9/9/9/9/9/9/9/4K4 b P 1").ParseMove("P*5e")
	require.NoError(t, err)
	assert.Equal(t, rules.NoSquare, drop.From())

	// Options.
	_, err = rules.New("shogi", rules.Options{"declaration": "magic"})
	assert.Error(t, err)
	_, err = rules.New("shogi", rules.Options{"maxmoves": "-1"})
	assert.Error(t, err)
	_, err = rules.New("shogi", rules.Options{"colour": "red"})
	assert.Error(t, err)
	g2, err := NewGame(rules.Options{"declaration": "jsa24", "maxmoves": "4"})
	require.NoError(t, err)
	assert.Equal(t, JSA24, g2.Declaration())
	pos, err := g2.Position("startpos moves 7g7f 3c3d 2g2f")
	require.NoError(t, err)
	var hist []rules.Position
	for _, s := range []string{"startpos", "startpos moves 7g7f", "startpos moves 7g7f 3c3d"} {
		h, err := g2.Position(s)
		require.NoError(t, err)
		hist = append(hist, h)
	}
	assert.False(t, pos.Outcome(hist[:2]).Over())
	assert.Equal(t, rules.Draw(rules.MoveCountRule), pos.Outcome(append(hist, pos)))
	d, err := pos.Declare()
	require.NoError(t, err)
	assert.Equal(t, rules.Loss(rules.Second, rules.DeclarationFailed), d.Outcome, "conditions fail")
	hc, err := g2.Position("香落ち moves 5a4b")
	require.NoError(t, err)
	assert.Equal(t, "lnsg1gsn1/1r3k1b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 2", hc.String())
	_, err = g2.Position("startpos moves 7g7f 7g7f")
	assert.ErrorContains(t, err, "move 2")

	// Stalemate-like: no legal move without check loses.
	st := mustPos(t, "k8/2G6/G8/9/9/9/9/9/8K w - 1")
	assert.False(t, st.InCheck())
	assert.Equal(t, rules.Loss(rules.Second, rules.Stalemate), st.Outcome(nil))
}

func TestView(t *testing.T) {
	p := mustPos(t, "startpos moves 7g7f 3c3d 8h2b+")
	v := p.View()
	assert.Equal(t, 40-1, v.Total())
	top, ok := v.Top(SquareAt(2, 2))
	require.True(t, ok)
	assert.Equal(t, rules.Piece{Color: rules.First, Kind: 'B', Face: rules.Back}, top, "promoted bishop shows its back")
	top, _ = v.Top(SquareAt(5, 1))
	assert.Equal(t, rules.Piece{Color: rules.Second, Kind: 'K'}, top)
	hs := geometry.Zone(rules.Hand, rules.First)
	assert.Equal(t, []rules.Piece{{Color: rules.First, Kind: 'B'}}, v.Zones[hs])
	assert.Empty(t, v.Zones[geometry.Zone(rules.Hand, rules.Second)])

	q, err := p.PlayUSI("3a2b")
	require.NoError(t, err)
	w := q.View()
	assert.Equal(t, []rules.Piece{{Color: rules.Second, Kind: 'B'}}, w.Zones[geometry.Zone(rules.Hand, rules.Second)], "the horse returns to hand face up")
	assert.Equal(t, []rules.Square{SquareAt(3, 1), SquareAt(2, 2)}, sortedSquares(v.Changed(w, nil)))
	assert.False(t, v.Equal(w))
	assert.True(t, w.Equal(q.View()))

	// Hands in canonical order.
	h := mustPos(t, "4k4/9/9/9/9/9/9/9/4K4 b R2Pgp 1").View()
	assert.Equal(t, []rules.Piece{{Color: rules.First, Kind: 'P'}, {Color: rules.First, Kind: 'P'}, {Color: rules.First, Kind: 'R'}}, h.Zones[0])
	assert.Equal(t, []rules.Piece{{Color: rules.Second, Kind: 'G'}, {Color: rules.Second, Kind: 'P'}}, h.Zones[1])
}

func sortedSquares(s []rules.Square) []rules.Square {
	out := append([]rules.Square(nil), s...)
	for i := range out {
		for j := i + 1; j < len(out); j++ {
			if out[j] < out[i] {
				out[i], out[j] = out[j], out[i]
			}
		}
	}
	return out
}

func TestSharedPosition(t *testing.T) {
	// A position used from several goroutines at once (run with -race).
	p := mustPos(t, "7nk/9/7G1/9/9/9/9/9/4K4 b P 1")
	done := make(chan struct{})
	for range 4 {
		go func() {
			defer func() { done <- struct{}{} }()
			for range 20 {
				_ = p.Legal()
				_, _ = p.PlayUSI("P*1c")
				_, _ = p.ParseMove("P*1b")
				_ = p.Outcome(nil)
				_ = p.View()
				_ = p.Fouls()
				_, _ = p.Declare()
			}
		}()
	}
	for range 4 {
		<-done
	}
	assert.Equal(t, "7nk/9/7G1/9/9/9/9/9/4K4 b P 1", p.String())
}

func TestSquareNamesThroughTheCore(t *testing.T) {
	g, err := rules.New("shogi", nil)
	require.NoError(t, err)
	assert.Equal(t, "7g", rules.SquareName(g, SquareAt(7, 7)))
	assert.Equal(t, "9a", rules.SquareName(g, 0))
}

// Issue 35 §3: handicap games (駒落ち) by the option handicap=<name>, the
// English names and the KIF 手合割 names alike: the game starts from the
// handicap's position, the giver (gote) to move, and says its handicap in
// its options so that a stored game replays under it.
func TestHandicapOption(t *testing.T) {
	for _, h := range HandicapList {
		for _, name := range []string{h.Name, h.KIF} {
			g, err := rules.New("shogi", rules.Options{"handicap": name})
			require.NoError(t, err, name)
			assert.Equal(t, h.SFEN, g.Start().String(), name)
			assert.Equal(t, h.Name, g.Options()["handicap"], name)
			if !h.Even() {
				assert.Equal(t, rules.Second, g.Start().Turn(), "%s: the giver, gote, moves first", name)
			}
			again, err := rules.New("shogi", g.Options())
			require.NoError(t, err)
			assert.Equal(t, g.Start().String(), again.Start().String())
		}
	}
	g, err := rules.New("shogi", rules.Options{"handicap": "2-piece"})
	require.NoError(t, err)
	assert.Equal(t, "lnsgkgsnl/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1", g.Start().String())
	_, next, err := rules.PlayText(g.Start(), "5a4b")
	require.NoError(t, err, "the giver's first move")
	assert.Equal(t, rules.First, next.Turn())
	_, err = rules.New("shogi", rules.Options{"handicap": "queen"})
	assert.ErrorContains(t, err, `handicap="queen": want none, lance, right-lance, bishop, rook, rook-lance, 2-piece`)
}
