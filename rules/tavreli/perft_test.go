package tavreli

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// TestStartPerftReference compares perft from the initial position with
// the reference generator. T1 gives depth 1 (39) by hand.
func TestStartPerftReference(t *testing.T) {
	start := StartBoard()
	require.Equal(t, uint64(39), start.Perft(1))
	depth := 3
	if testing.Short() || raceEnabled {
		depth = 2
	}
	ref := refFromBoard(&start)
	for d := 2; d <= depth; d++ {
		require.Equal(t, ref.perft(d), start.Perft(d), "depth %d", d)
	}
}

// TestPerftThroughInterface: rules.Perft over Position.Play (no Perfter)
// agrees with the fast perft.
func TestPerftThroughInterface(t *testing.T) {
	g, err := NewGame(nil)
	require.NoError(t, err)
	for _, tc := range specCounts {
		p, err := g.ParseTFEN(AnalysisPrefix + tc.tfen)
		require.NoError(t, err)
		require.Equal(t, p.Perft(2), slowPerft(p, 2), tc.name)
	}
}

func slowPerft(p *Position, depth int) uint64 {
	if depth == 0 {
		return 1
	}
	var n uint64
	for _, m := range p.Legal() {
		q, err := p.PlayMove(m)
		if err != nil {
			panic(err)
		}
		n += slowPerft(q, depth-1)
	}
	return n
}
