package kvaa

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arbiter/rules"
)

func TestGameInterface(t *testing.T) {
	g, err := rules.New("kvaa", nil)
	require.NoError(t, err)
	assert.Contains(t, rules.Games(), "kvaa")
	assert.Equal(t, "South", g.SideName(rules.First))
	assert.Equal(t, "North", g.SideName(rules.Second))
	assert.Equal(t, rules.Traits{IllegalMoves: rules.IllegalDefault{CorrectOnly: true}}, g.Traits(), "D-23: illegal_policy=correct by default")
	assert.Same(t, Geometry(), g.Geometry())
	start := g.Start()
	assert.Equal(t, StartKPS, start.String())
	assert.Equal(t, rules.Key("NN./NN/.../SS/.SS S 6 6 - -"), start.Key())
	assert.False(t, start.InCheck())
	assert.Equal(t, rules.First, start.Turn())
	assert.Len(t, start.Legal(), 5)

	m, err := start.ParseMove("b2-c3")
	require.NoError(t, err)
	assert.Equal(t, "b2-c3", start.FormatMove(m))
	assert.Equal(t, rules.Square(B2), m.From())
	assert.Equal(t, rules.Square(C3), m.To())
	next, err := start.Play(m)
	require.NoError(t, err)
	assert.Equal(t, "NN./NN/.S./.S/.SS N 6 6 c3-b2 - 1 1", next.String())

	_, err = start.Play(fakeMove{})
	assert.ErrorContains(t, err, "is not a Kvaa turn")
	_, err = start.Play(StepTurn(C1, B2))
	assert.ErrorContains(t, err, "turn c1-b2 is illegal")

	// North replies; the step back would mirror South's step.
	_, err = next.ParseMove("b4-c3")
	assert.ErrorContains(t, err, "not among the legal turns")
	m, err = next.ParseMove("b4-a3")
	require.NoError(t, err)
	p, err := next.Play(m)
	require.NoError(t, err)
	_, err = p.ParseMove("c3-b2")
	assert.ErrorContains(t, err, "c3-b2 is the mirror of South's previous step (rule 4.6)")
	_, err = p.ParseMove("@a1")
	assert.ErrorContains(t, err, "South may not place (reserve 6, 4 on the board)")
	_, err = p.ParseMove("b2-c4")
	assert.ErrorContains(t, err, "\"c4\" is not a Kvaa cell")

	pos, err := g.ParsePosition(kpsT9)
	require.NoError(t, err)
	_, err = pos.ParseMove("c1xa3")
	assert.ErrorContains(t, err, "South owes a placement under 4.5.1.2")
	_, err = g.ParsePosition("bad")
	assert.Error(t, err)

	blocked, err := g.ParsePosition(".../../.N./N./S.. S 0 0 - - 0 30")
	require.NoError(t, err)
	_, err = blocked.ParseMove("a1-b2")
	assert.ErrorContains(t, err, "South has no legal turn")
}

type fakeMove struct{}

func (fakeMove) From() rules.Square { return 0 }
func (fakeMove) To() rules.Square   { return 1 }
func (fakeMove) String() string     { return "fake" }

func TestView(t *testing.T) {
	g := newGame(t, "")
	p, err := g.ParsePosition(kpsT9)
	require.NoError(t, err)
	v := p.View()
	assert.Equal(t, "c1: C\ne1: C\nb2: c\nd2: C\nb4: c\na5: c\nc5: c\n"+
		"reserve-south: C C C C C C\nreserve-north: c c c c c c\ncaptured-south: C\n",
		v.Format(Geometry()))
	// Views of different positions differ; a view is the caller's to change.
	next, err := p.Play(p.Legal()[0])
	require.NoError(t, err)
	assert.False(t, v.Equal(next.View()))
	w := p.View()
	w.Stacks[C1][0].Kind = 'X'
	assert.Equal(t, CounterKind, p.View().Stacks[C1][0].Kind)
	assert.True(t, v.Equal(p.View()))
}

func TestPlacementTurnShape(t *testing.T) {
	// A compound turn is one move: From is the moving counter's origin, To
	// its destination; a bare placement has no origin.
	g := newGame(t, "placement=4.5.1.1")
	p, err := g.ParsePosition(kpsT9)
	require.NoError(t, err)
	m, err := p.ParseMove("c1xa3,@b2")
	require.NoError(t, err)
	tr := m.(Turn)
	assert.Equal(t, rules.Square(C1), tr.From())
	assert.Equal(t, rules.Square(A3), tr.To())
	over, ok := tr.Captures()
	assert.True(t, ok)
	assert.Equal(t, B2, over)
	pl, ok := tr.Placement()
	assert.True(t, ok)
	assert.Equal(t, B2, pl)
	assert.False(t, tr.PlacesFirst())
	next, err := p.Play(m)
	require.NoError(t, err)
	assert.Equal(t, "NN./N./S../SS/..S N 5 6 - - 0 2", next.String())

	bare := PlaceTurn(E5)
	assert.Equal(t, rules.NoSquare, bare.From())
	assert.Equal(t, rules.Square(E5), bare.To())
	_, _, moves := bare.Move()
	assert.False(t, moves)
	assert.Equal(t, "@e5,b2-c3", StepTurn(B2, C3).WithPlacement(E5, true).String())
	assert.Equal(t, "@e5", PlaceTurn(E5).WithPlacement(E5, true).String())
}
