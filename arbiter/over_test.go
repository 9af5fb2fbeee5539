package arbiter_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arbiter/arbiter"
	"arbiter/rules"
)

// TestResolveAfterTheResult: a question still open when the game ends
// (here by resignation) can no longer be answered from the console; the
// result stands and no move is added after it.
func TestResolveAfterTheResult(t *testing.T) {
	g, err := rules.New("shogi", nil)
	require.NoError(t, err)
	s, err := arbiter.NewSession(arbiter.DefaultConfig(g), g, nil, nil)
	require.NoError(t, err)
	s.Start(0)
	geo := g.Geometry()
	heights := g.Start().View().Heights(nil)
	at := time.Duration(0)
	change := func(name string, delta int) {
		q, ok := geo.Lookup(name)
		require.True(t, ok, name)
		heights[q] += delta
		at += 200 * time.Millisecond
		s.Handle(arbiter.Event{Kind: arbiter.SquareChanged, At: at, Square: rules.Square(geo.SensorIndex(q)), Height: heights[q]})
	}
	press := func(c rules.Color) []arbiter.Output {
		at += time.Second
		return s.Handle(arbiter.Event{Kind: arbiter.ClockPressed, At: at, Side: c})
	}
	change("c7", -1)
	change("c6", +1)
	press(rules.First)
	change("g3", -1)
	change("g4", +1)
	press(rules.Second)
	change("b8", -1)
	change("h2", -1)
	change("h2", +1)
	outs := press(rules.First)
	require.NotEmpty(t, outs)
	require.IsType(t, arbiter.Prompt{}, outs[len(outs)-1], "the bishop's promotion is asked for: %v", outs)

	_, err = s.SetResult(rules.Win(rules.Second, rules.Resignation), at+time.Second, "resigned")
	require.NoError(t, err)
	_, err = s.Resolve("8h2b+", at+2*time.Second)
	require.ErrorContains(t, err, "the game is over")
	assert.Equal(t, 2, s.Plies(), "no move after the result")
}
