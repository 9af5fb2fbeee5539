package tavreli

import (
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arbiter/rules"
)

func TestRegistered(t *testing.T) {
	g, err := rules.New(Name, nil)
	require.NoError(t, err)
	assert.Equal(t, "tavreli", g.Name())
	assert.Equal(t, rules.Options{"array": "RNBQKBNR", "alphabet": "latin", "notation": "lenient", "autodraw": "off"}, g.Options())
	assert.Equal(t, rules.Traits{TouchMove: true, Stacks: true, CompleteOnRelease: true,
		IllegalMoves: rules.IllegalDefault{CorrectOnly: true}}, g.Traits(), "D21: illegal moves only restored by default")
	assert.Equal(t, "White", g.SideName(rules.White))
	assert.Equal(t, "Black", g.SideName(rules.Black))
	assert.Equal(t, 64, g.Geometry().Len())
	start := g.Start()
	assert.Equal(t, startTFEN, start.String())
	assert.Equal(t, uint64(1519), rules.Perft(start, 2))

	_, err = rules.New(Name, rules.Options{"colour": "x"})
	assert.ErrorContains(t, err, "unknown option")
	_, err = rules.New(Name, rules.Options{"array": "RNBKQBNR"})
	assert.Error(t, err)
	_, err = rules.New(Name, rules.Options{"alphabet": "greek"})
	assert.Error(t, err)
	_, err = rules.New(Name, rules.Options{"notation": "sloppy"})
	assert.Error(t, err)

	cg, err := rules.New(Name, rules.Options{"alphabet": "cyrillic", "notation": "strict"})
	require.NoError(t, err)
	s := cg.Start()
	m, err := s.ParseMove("ж1хд2")
	require.NoError(t, err)
	assert.Equal(t, "ж1хд2", s.FormatMove(m))
	_, err = s.ParseMove("g1-e2")
	assert.Error(t, err, "strict: wrong separator")
}

func TestParsePositionModes(t *testing.T) {
	g, err := NewGame(nil)
	require.NoError(t, err)
	_, err = g.ParsePosition("7k/8/8/8/3[nR]4/8/2K5/8 w - - - 0 1")
	assert.ErrorContains(t, err, "analysis mode")
	p, err := g.ParsePosition(AnalysisPrefix + "7k/8/8/8/3[nR]4/8/2K5/8 w - - - 0 1")
	require.NoError(t, err)
	assert.Equal(t, uint64(22), rules.Perft(p, 1))
	div, err := rules.Divide(p, 2)
	require.NoError(t, err)
	assert.Len(t, div, 22)
}

func TestPositionPlay(t *testing.T) {
	g, err := NewGame(nil)
	require.NoError(t, err)
	start := g.Start()
	legal := start.Legal()
	require.Len(t, legal, 39)
	next, err := start.Play(legal[0])
	require.NoError(t, err)
	assert.Equal(t, rules.Black, next.Turn())
	assert.Equal(t, startTFEN, start.String(), "Play leaves the position unchanged")
	_, err = next.Play(legal[0])
	assert.ErrorIs(t, err, ErrIllegal)
	// The machine form is accepted by ParseMove.
	_, err = start.ParseMove("(1)e2e4")
	assert.Error(t, err, "the machine form has no (1)")
	m, err := start.ParseMove("e2e4")
	require.NoError(t, err)
	assert.Equal(t, "e2-e4", start.FormatMove(m))
	assert.Equal(t, rules.Square(sqOf(4, 1)), m.From())
	assert.Equal(t, rules.Square(sqOf(4, 3)), m.To())
}

func TestView(t *testing.T) {
	g, err := NewGame(nil)
	require.NoError(t, err)
	// T10 after d7xc8=Q: c8 = [black Ratnik marked R (demoted), white
	// Ratnik marked Q (promoted to a Knyaz)].
	p, err := g.ParseTFEN("analysis:2[prQ~]Rn3/8/8/7k/8/8/8/K7 b - - - 0 1")
	require.NoError(t, err)
	v := p.View()
	assert.Equal(t, []rules.Piece{
		{Color: rules.Black, Kind: 'P', Mark: 'R'},
		{Color: rules.White, Kind: 'P', Mark: 'Q'},
	}, v.Stacks[sqOf(2, 7)])
	assert.Equal(t, []rules.Piece{{Color: rules.White, Kind: 'R'}}, v.Stacks[sqOf(3, 7)])
	assert.Equal(t, []rules.Piece{{Color: rules.White, Kind: 'K'}}, v.Stacks[sqOf(0, 0)])
	assert.Equal(t, 6, v.Total())
	assert.Empty(t, v.Zones)

	start := g.Start().View()
	assert.Equal(t, 32, start.Total())
	assert.Equal(t, rules.Piece{Color: rules.White, Kind: 'P', Mark: 'H'}, start.Stacks[sqOf(4, 1)][0])
	assert.Equal(t, rules.Piece{Color: rules.Black, Kind: 'Q'}, start.Stacks[sqOf(3, 7)][0])
}

// TestSignatures is spec 5.3: the height changes of the legal moves of a
// position are unique, so that a height-only board identifies each move.
func TestSignatures(t *testing.T) {
	g, err := NewGame(nil)
	require.NoError(t, err)
	check := func(p rules.Position) {
		base := p.View().Heights(nil)
		seen := map[string]string{}
		for _, m := range p.Legal() {
			q, err := p.Play(m)
			require.NoError(t, err)
			h := q.View().Heights(nil)
			sig := ""
			for i := range h {
				if h[i] != base[i] {
					sig += squareName(int8(i)) + "=" + string(rune('0'+h[i])) + " "
				}
			}
			if prev, dup := seen[sig]; dup {
				t.Fatalf("%s and %s have the same signature %q in %s", prev, m, sig, p)
			}
			seen[sig] = m.String()
		}
	}
	for _, tc := range specCounts {
		p, err := g.ParseTFEN(AnalysisPrefix + tc.tfen)
		require.NoError(t, err)
		check(p)
	}
	// T6 A: en passant changes three squares: e4 1->0, d4 2->1, d3 0->2.
	p, err := g.ParseTFEN(AnalysisPrefix + t6aTFEN)
	require.NoError(t, err)
	m, err := p.ParseMove("e4xd3")
	require.NoError(t, err)
	q, err := p.Play(m)
	require.NoError(t, err)
	assert.Equal(t, []rules.Square{rules.Square(sqOf(3, 2)), rules.Square(sqOf(3, 3)), rules.Square(sqOf(4, 3))}, p.View().Changed(q.View(), nil))
	// T12 A: castling changes four squares.
	p, err = g.ParseTFEN(AnalysisPrefix + t12TFEN)
	require.NoError(t, err)
	m, err = p.ParseMove("0-0")
	require.NoError(t, err)
	q, err = p.Play(m)
	require.NoError(t, err)
	assert.Len(t, p.View().Changed(q.View(), nil), 4)
}

func TestAutoDraw(t *testing.T) {
	for _, on := range []bool{false, true} {
		opts := rules.Options{}
		if on {
			opts["autodraw"] = "on"
		}
		g, err := NewGame(opts)
		require.NoError(t, err)
		p, err := g.ParseTFEN("analysis:k7/8/8/8/8/8/8/K6R w - - - 150 80")
		require.NoError(t, err)
		if on {
			assert.Equal(t, rules.Draw(rules.MoveCountRule), p.Outcome(nil))
		} else {
			assert.False(t, p.Outcome(nil).Over())
		}
		cycle := []string{"g1-f3", "g8-f6", "f3-g1", "f6-g8"}
		hist, pos := playLine(t, g.Start(), slices.Concat(cycle, cycle, cycle, cycle)...)
		assert.Equal(t, 5, rules.CountKey(hist, pos))
		assert.Equal(t, on, pos.Outcome(hist) == rules.Draw(rules.Repetition))
	}
}

func TestEffectsAndFirstPart(t *testing.T) {
	g, err := NewGame(nil)
	require.NoError(t, err)
	parse := func(tfen string) *Position {
		p, err := g.ParseTFEN(AnalysisPrefix + tfen)
		require.NoError(t, err)
		return p
	}
	effects := func(p *Position, s string) []Effect {
		m, err := p.ParseMove(s)
		require.NoError(t, err)
		e, err := p.Effects(m)
		require.NoError(t, err)
		return e
	}
	// T8: the promotion on c8 is announced.
	assert.Equal(t, []Effect{{Promotion, rules.Square(sqOf(2, 7)), Piece{rules.White, Luchnik, Luchnik}}},
		effects(parse(t8TFEN), "(1)c8-c1"))
	// T10: d7xc8=Q demotes the black Ratoborets and promotes the Ratnik.
	assert.ElementsMatch(t, []Effect{
		{Demotion, rules.Square(sqOf(2, 7)), Piece{rules.Black, Ratnik, Ratoborets}},
		{Promotion, rules.Square(sqOf(2, 7)), Piece{rules.White, Knyaz, Knyaz}},
	}, effects(parse("2r~Rn3/3PQ4/8/7k/8/8/8/K7 w - - - 0 1"), "d7xc8"))
	// T17: (2)a1-a8 frees the black Vsadnik on a1.
	assert.Equal(t, []Effect{{Liberation, rules.Square(sqOf(0, 0)), Piece{rules.Black, Vsadnik, NoRole}}},
		effects(parse("7k/8/8/8/8/7K/8/[nPRR]7 w - - - 0 1"), "(2)a1-a8"))
	assert.Empty(t, effects(parse(t4TFEN), "d4-d8"))

	// First parts of compound moves.
	a := parse(t12TFEN)
	m, err := a.ParseMove("0-0")
	require.NoError(t, err)
	v, ok := a.FirstPartView(m)
	require.True(t, ok)
	assert.Equal(t, []rules.Square{rules.Square(sqOf(4, 0)), rules.Square(sqOf(6, 0))}, a.View().Changed(v, nil))
	e := parse(t6aTFEN)
	m, err = e.ParseMove("e4xd3")
	require.NoError(t, err)
	v, ok = e.FirstPartView(m)
	require.True(t, ok)
	assert.Equal(t, 1, v.Height(rules.Square(sqOf(3, 2))))
	assert.Equal(t, 1, v.Height(rules.Square(sqOf(3, 3))))
	assert.Equal(t, 1, v.Height(rules.Square(sqOf(4, 3))))
	m, err = e.ParseMove("e4-e3")
	require.NoError(t, err)
	_, ok = e.FirstPartView(m)
	assert.False(t, ok)
}

// TestConcurrentReads: a Position is immutable and safe for concurrent use
// (run with -race).
func TestConcurrentReads(t *testing.T) {
	g, err := NewGame(nil)
	require.NoError(t, err)
	p, err := g.ParseTFEN(AnalysisPrefix + t6aTFEN)
	require.NoError(t, err)
	want := p.String()
	done := make(chan struct{})
	for range 4 {
		go func() {
			defer func() { done <- struct{}{} }()
			for range 50 {
				ms := p.Legal()
				_ = p.Key()
				_ = p.View()
				_ = p.FormatMove(ms[0])
				_, _ = p.Play(ms[len(ms)-1])
				_ = p.Outcome(nil)
			}
		}()
	}
	for range 4 {
		<-done
	}
	assert.Equal(t, want, p.String())
}
