package pairing

import (
	"fmt"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"arbiter/pairing/internal/matching"
)

// withShuffle runs f with the matcher's vertices numbered in the random
// order drawn from seed.
func withShuffle(seed uint64, f func()) {
	matching.ShuffleSeed = seed
	defer func() { matching.ShuffleSeed = 0 }()
	f()
}

// TestIndependentOfMatchingOrder checks that the pairing does not depend on
// which maximum weight matching the solver finds when several have the
// same weight: numbering the vertices in another order changes the
// solver's search and so its choice among them. The corpus is paired under
// shuffled numberings (half the files with each of two seeds; every eighth
// with -short or under the race detector), and generated tournaments must
// come out the same as without shuffling. This is what allows the solver's
// search order to change for speed.
func TestIndependentOfMatchingOrder(t *testing.T) {
	files := corpusFiles(t)
	step := 2
	if testing.Short() || raceEnabled {
		step = 8
	}
	checked := 0
	for i, f := range files {
		if i%step > 1 {
			continue
		}
		tour := loadCorpus(t, f)
		withShuffle(uint64(i%2+1), func() {
			diffs, err := Check(tour, Options{})
			require.NoError(t, err, f)
			for _, d := range diffs {
				t.Errorf("%s (shuffled): %s", filepath.Base(f), d)
			}
		})
		checked++
	}
	require.Positive(t, checked)

	for _, c := range []struct{ n, rounds int }{{61, 0}, {200, 3}, {301, 6}, {400, 8}} {
		tour := syntheticHistory(c.n, c.rounds, 7)
		want, err := Pair(tour, Options{})
		require.NoError(t, err)
		for _, seed := range []uint64{3, 4} {
			withShuffle(seed, func() {
				got, err := Pair(tour, Options{})
				require.NoError(t, err)
				require.Equal(t, fmt.Sprint(want.Boards, want.Bye), fmt.Sprint(got.Boards, got.Bye),
					"%d players, round %d, shuffle seed %d", c.n, c.rounds+1, seed)
			})
		}
	}
}

// TestShuffleChangesTies guards the test above: on a graph where every
// perfect matching weighs the same, a shuffled numbering finds another one.
func TestShuffleChangesTies(t *testing.T) {
	match := func() []int {
		m := matching.New(12, 1)
		w := matching.Weight{5}
		for a := 0; a < 12; a++ {
			for b := 0; b < a; b++ {
				m.Set(a, b, w)
			}
		}
		return m.Compute()
	}
	plain := match()
	differs := false
	for seed := uint64(1); seed <= 4 && !differs; seed++ {
		withShuffle(seed, func() { differs = fmt.Sprint(match()) != fmt.Sprint(plain) })
	}
	require.True(t, differs, "shuffling never changed the matching found: %v", plain)
}
