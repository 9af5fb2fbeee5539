package pairing

import (
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"arbiter/internal/shared"

	"arbiter/pairing/internal/matching"
)

// TestEveryMatchingOptimal checks every matching the engine computes while
// pairing some corpus rounds and large generated ones: its weight must
// equal that of a matching solved afresh, without the incremental repairs,
// warm starts and fixed pairs that make the engine fast. Fixed pairs are
// left out of both.
func TestEveryMatchingOptimal(t *testing.T) {
	checked := 0
	matching.CheckMatching = func(m *matching.Matcher, mate []int) {
		got, fresh := m.WeighAfresh(mate)
		require.Equal(t, fresh, got, "matching %d", m.Calls())
		checked++
	}
	defer func() { matching.CheckMatching = nil }()
	files := corpusFiles(t)
	step := 3
	if testing.Short() || raceEnabled {
		step = 40
	}
	var some []string
	for i := 0; i < len(files); i += step {
		some = append(some, files[i])
	}
	// A warm start before the solver's first matching once went wrong on
	// this one (round 2).
	some = append(some, filepath.Join(shared.Dir(t, "pairing-corpus"), "default-00070.trf"))
	for _, f := range some {
		_, err := Check(loadCorpus(t, f), Options{})
		require.NoError(t, err)
	}
	if !testing.Short() && !raceEnabled {
		for _, c := range [][2]int{{64, 0}, {200, 0}, {120, 5}, {151, 7}} {
			_, err := Pair(syntheticHistory(c[0], c[1], 3), Options{})
			require.NoError(t, err)
		}
	}
	require.Positive(t, checked)
	t.Logf("%d matchings checked", checked)
}
