package kvaa

import (
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestReachableSmall enumerates complete games from reduced set-ups under
// several rule sets and compares the counts with the reference
// implementation's own enumeration.
func TestReachableSmall(t *testing.T) {
	tests := []struct {
		opts, setup string
		long        bool
	}{
		{"", "N../../.../../..S S 0 0 - - 0 1", false},
		{"", "N../../.../../..S S 1 0 - - 0 1", false},
		{"placement=4.5.1.1,capture=compulsory", "N../../.../../..S N 1 1 - - 0 1", true},
		{"placement=4.5.1.3,scheme=R7", "N../../.../../..S S 1 0 - - 0 1", true},
		{"placement=4.5.1.4,scheme=R5", "N../../.../../..S S 0 1 - - 0 1", true},
		{"scheme=R5,mirror_rule=off", "N.N/../.../../S.S S 0 0 - - 0 1", true},
	}
	for _, tc := range tests {
		t.Run(tc.opts+"/"+tc.setup, func(t *testing.T) {
			if tc.long && testing.Short() {
				t.Skip("long enumeration")
			}
			g := newGame(t, tc.opts)
			s := mustState(t, g, tc.setup)
			c := g.Reachable(s)
			rr := refRulesOf(g.cfg)
			n, term := rr.reachable(refParse(tc.setup))
			assert.Equal(t, n, c.Positions)
			assert.Equal(t, term, c.Terminal)
			t.Logf("%d positions, %d terminal, %d turns", c.Positions, c.Terminal, c.Turns)
		})
	}
}

// Every position reachable from the standard start under the default
// options, by repetition key, and how many end the game by themselves.
// Measured with this engine; the sampled check below compares one position
// in every fullSample with the reference implementation.
const (
	fullPositions = 247_329_014
	fullTerminal  = 349_980
	fullTurns     = 1_462_106_622
	fullSample    = 997
)

// TestReachableFull enumerates the whole default game. It takes minutes
// and a few gigabytes, so it runs only with KVAA_ENUMERATE_FULL=1.
func TestReachableFull(t *testing.T) {
	if os.Getenv("KVAA_ENUMERATE_FULL") == "" {
		t.Skip("set KVAA_ENUMERATE_FULL=1 to enumerate the full game")
	}
	g := newGame(t, "")
	rr := refRulesOf(g.cfg)
	n, sampled := 0, 0
	c := g.explore(g.StartState(), func(s State, ts []Turn) {
		n++
		if n%fullSample != 0 {
			return
		}
		sampled++
		ref := refParse(s.String())
		var got []string
		for _, tr := range ts {
			next := s
			g.Apply(&next, tr)
			got = append(got, tr.String()+" "+next.String())
		}
		var want []string
		for _, tr := range rr.legal(ref) {
			want = append(want, tr+" "+rr.play(ref, tr).kps())
		}
		require.Equal(t, sorted(want), sorted(got), s.String())
	})
	t.Logf("%d positions, %d terminal, %d turns; %d checked against the reference", c.Positions, c.Terminal, c.Turns, sampled)
	assert.Equal(t, fullPositions, c.Positions)
	assert.Equal(t, fullTerminal, c.Terminal)
	assert.Equal(t, fullTurns, c.Turns)
}
