package rules_test

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arbiter/rules"
)

// counter is a toy game for testing the generic helpers: a single pile of
// n stones from which a player takes 1 or 2; who cannot move loses.
type counter struct{ n, ply int }

type take int

func (take) From() rules.Square { return rules.NoSquare }
func (take) To() rules.Square   { return rules.NoSquare }
func (t take) String() string   { return fmt.Sprintf("take%d", int(t)) }

func (c counter) Turn() rules.Color { return rules.Color(c.ply % 2) }
func (c counter) Legal() []rules.Move {
	var ms []rules.Move
	for k := 1; k <= 2 && k <= c.n; k++ {
		ms = append(ms, take(k))
	}
	return ms
}
func (c counter) Play(m rules.Move) (rules.Position, error) {
	t, ok := m.(take)
	if !ok || int(t) < 1 || int(t) > 2 || int(t) > c.n {
		return nil, fmt.Errorf("illegal move %v", m)
	}
	return counter{c.n - int(t), c.ply + 1}, nil
}
func (c counter) InCheck() bool { return false }
func (c counter) Outcome([]rules.Position) rules.Outcome {
	if c.n == 0 {
		return rules.Loss(c.Turn(), rules.NoMoves)
	}
	return rules.Outcome{}
}
func (c counter) View() rules.View { return rules.View{} }
func (c counter) Key() rules.Key   { return rules.Key(fmt.Sprint(c.n, c.ply%2)) }
func (c counter) ParseMove(s string) (rules.Move, error) {
	var k int
	if _, err := fmt.Sscanf(s, "take%d", &k); err != nil {
		return nil, fmt.Errorf("move %q: %w", s, err)
	}
	return take(k), nil
}
func (c counter) FormatMove(m rules.Move) string { return m.String() }
func (c counter) String() string                 { return fmt.Sprint(c.n) }

// fib(n+1) leaves at depth n for a large pile: the count of 1/2 compositions.
func TestGenericPerft(t *testing.T) {
	tests := []struct {
		depth int
		want  uint64
	}{{0, 1}, {1, 2}, {2, 4}, {3, 8}, {4, 16}}
	for _, tt := range tests {
		assert.Equal(t, tt.want, rules.Perft(counter{n: 100}, tt.depth))
	}
	// With 3 stones the tree is cut short: depth 3 leaves are 1-1-1 and
	// nothing else reaches depth 3 (1-2 and 2-1 exhaust the pile at depth 2).
	assert.Equal(t, uint64(1), rules.Perft(counter{n: 3}, 3))

	d, err := rules.Divide(counter{n: 3}, 2)
	require.NoError(t, err)
	assert.Equal(t, []rules.DivideEntry{{"take1", 2}, {"take2", 1}}, d)
	_, err = rules.Divide(counter{n: 3}, 0)
	assert.Error(t, err)
}

func TestCountKey(t *testing.T) {
	a := counter{n: 5}
	b := counter{n: 5, ply: 2}
	c := counter{n: 5, ply: 1}
	assert.Equal(t, 3, rules.CountKey([]rules.Position{a, c, b}, a))
	assert.Equal(t, 1, rules.CountKey([]rules.Position{a, b}, c), "c differs by the side to move")
}

type fakeGame struct{ opts rules.Options }

func (g fakeGame) Name() string                                   { return "test-counter" }
func (g fakeGame) Options() rules.Options                         { return g.opts }
func (g fakeGame) Geometry() *rules.Geometry                      { return rules.NewRect(1, 1) }
func (g fakeGame) Traits() rules.Traits                           { return rules.Traits{} }
func (g fakeGame) SideName(c rules.Color) string                  { return c.String() }
func (g fakeGame) Start() rules.Position                          { return counter{n: 10} }
func (g fakeGame) ParsePosition(s string) (rules.Position, error) { return nil, fmt.Errorf("no") }

func TestRegistry(t *testing.T) {
	rules.Register("test-counter", func(o rules.Options) (rules.Game, error) {
		if v, ok := o["bad"]; ok {
			return nil, fmt.Errorf("option bad=%s not allowed", v)
		}
		return fakeGame{o}, nil
	})
	assert.Panics(t, func() {
		rules.Register("test-counter", func(rules.Options) (rules.Game, error) { return nil, nil })
	})
	assert.Contains(t, rules.Games(), "test-counter")
	g, err := rules.New("test-counter", rules.Options{"x": "1"})
	require.NoError(t, err)
	assert.Equal(t, "x=1", g.Options().String())
	_, err = rules.New("test-counter", rules.Options{"bad": "1"})
	assert.ErrorContains(t, err, "game test-counter: option bad=1")
	_, err = rules.New("no-such-game", nil)
	assert.ErrorContains(t, err, `unknown game "no-such-game"`)
	g, err = rules.NewFromText("test-counter", " y = 2 , x=1")
	require.NoError(t, err)
	assert.Equal(t, "x=1,y=2", g.Options().String())
	_, err = rules.NewFromText("test-counter", "x")
	assert.ErrorContains(t, err, `options "x": option 1 "x": want key=value`)
	_, err = rules.NewFromText("test-counter", "bad=2")
	assert.ErrorContains(t, err, "option bad=2 not allowed")
}

func TestSquareName(t *testing.T) {
	assert.Equal(t, "a1", rules.SquareName(fakeGame{}, 0), "the geometry's name by default")
}

func TestPlayText(t *testing.T) {
	m, next, err := rules.PlayText(counter{n: 3}, "take2")
	require.NoError(t, err)
	assert.Equal(t, take(2), m)
	assert.Equal(t, counter{n: 1, ply: 1}, next)
	_, _, err = rules.PlayText(counter{n: 1}, "take2")
	assert.ErrorContains(t, err, "illegal move", "parsed but not legal")
	_, _, err = rules.PlayText(counter{n: 3}, "pass")
	assert.ErrorContains(t, err, `move "pass"`, "not parsed")
}
