package kvaa

import (
	"slices"
	"testing"

	"github.com/stretchr/testify/require"

	"arbiter/rules"
)

// newGame returns the game with options "k=v,...".
func newGame(t testing.TB, opts string) *Game {
	t.Helper()
	o, err := rules.ParseOptions(opts)
	require.NoError(t, err)
	g, err := NewFromOptions(o)
	require.NoError(t, err, opts)
	return g
}

// mustState parses a KPS under g.
func mustState(t testing.TB, g *Game, kps string) State {
	t.Helper()
	s, err := g.ParseState(kps)
	require.NoError(t, err)
	return s
}

// turnStrings returns the legal turns of s as sorted strings.
func turnStrings(g *Game, s *State) []string {
	var out []string
	for _, t := range g.Turns(s, nil) {
		out = append(out, t.String())
	}
	slices.Sort(out)
	return out
}

func sorted(s []string) []string {
	s = slices.Clone(s)
	slices.Sort(s)
	return s
}
