package pairing

import (
	"errors"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"arbiter/pairing/internal/matching"
)

// withNarrow runs f with every round's first layout replaced by narrow's.
func withNarrow(narrow func(layout) layout, f func()) {
	narrowHook = narrow
	defer func() { narrowHook = nil }()
	f()
}

// TestLayOut checks the per-score-group counters of a bracket: higher
// scores above lower ones, each as wide as its player count needs, the
// next score group lowest in the next bracket's field, and errNarrow when
// the fields are too narrow for them.
func TestLayOut(t *testing.T) {
	tour := syntheticHistory(40, 3, 2)
	s, err := newState(tour, 4, Options{Round: 4})
	require.NoError(t, err)
	d := &dutch{s: s}
	d.setup()
	byScore := map[int][]int{}
	var scores []int // descending
	for v, p := range d.sorted {
		if len(byScore[p.pscore]) == 0 {
			scores = append(scores, p.pscore)
		}
		byScore[p.pscore] = append(byScore[p.pscore], v)
	}
	require.GreaterOrEqual(t, len(scores), 3)
	// Two MDPs from the top group, the second group, the third next.
	top, res, next := scores[0], scores[1], scores[2]
	cur := append(append([]int(nil), byScore[top][:2]...), byScore[res]...)
	nres, nnext := len(byScore[res]), len(byScore[next])
	need := layout{2 + matching.BitLen(nres), 2 + matching.BitLen(nres) + matching.BitLen(nnext)}

	d.setWidth(need)
	require.NoError(t, d.layOut(cur, byScore[next]))
	require.Equal(t, map[int]int{res: 0, top: matching.BitLen(nres)}, d.shifts)
	require.Equal(t, map[int]int{next: 0, res: matching.BitLen(nnext), top: matching.BitLen(nnext) + matching.BitLen(nres)}, d.nextShifts)

	d.setWidth(layout{need.cur - 1, need.next})
	require.ErrorIs(t, d.layOut(cur, byScore[next]), errNarrow)
	d.setWidth(layout{need.cur, need.next - 1})
	require.ErrorIs(t, d.layOut(cur, byScore[next]), errNarrow)
}

// TestWordsForFirstMatching checks that a narrow layout still leaves room
// for the first matching of an odd round, whose weights count every score
// group of the round: many small groups make them the wider ones.
func TestWordsForFirstMatching(t *testing.T) {
	d := &dutch{s: &state{playedRounds: 40}, sgBits: 2, roundShift: 200}
	first := 2 + d.roundShift + d.sgBits + 4 // with the matcher's spare bits
	require.Less(t, 2+d.fieldBitsWith(layout{1, 1})+4+64, first, "the bracket fields alone fit a word less")
	require.GreaterOrEqual(t, 64*d.wordsFor(layout{1, 1}), first)
}

// TestNarrowLayoutRetry checks the rounds whose brackets do not fit the
// first, narrow layout: paired again with the round-wide one, they come
// out as if they had fitted. The layouts are forced too narrow from the
// first bracket, or six bits short, which in the corpus fails in a later
// bracket about 120 times and in the 301-player round here once.
func TestNarrowLayoutRetry(t *testing.T) {
	narrows := []struct {
		name   string
		narrow func(layout) layout
		always bool // every round with a score group of two is paired again
	}{
		{"one bit", func(layout) layout { return layout{1, 1} }, true},
		{"six bits short", func(l layout) layout { return layout{max(1, l.cur-6), max(1, l.next-6)} }, false},
	}
	files := corpusFiles(t)
	step := 4
	if testing.Short() || raceEnabled {
		step = 16
	}
	for _, nw := range narrows {
		name := nw.name
		for i, f := range files {
			if i%step != 0 {
				continue
			}
			tour := loadCorpus(t, f)
			withNarrow(nw.narrow, func() {
				diffs, err := Check(tour, Options{})
				require.NoError(t, err, f)
				for _, d := range diffs {
					t.Errorf("%s (%s): %s", filepath.Base(f), name, d)
				}
			})
		}
		retried := 0
		for _, c := range []struct{ n, rounds int }{{61, 2}, {200, 4}, {301, 7}} {
			tour := syntheticHistory(c.n, c.rounds, 11)
			pair := func() *Pairing {
				p, err := Pair(tour, Options{Trace: true})
				require.NoError(t, err)
				return p
			}
			want := pair()
			// Whether the round is paired again: its first layout fails.
			s, err := newState(tour, c.rounds+1, Options{Round: c.rounds + 1})
			require.NoError(t, err)
			d := &dutch{s: s}
			d.setup()
			_, _, err = d.pairIn(nw.narrow(d.narrowLayout()))
			again := errors.Is(err, errNarrow)
			if !again {
				require.NoError(t, err)
			}
			if again {
				retried++
			}
			if nw.always {
				require.True(t, again, "%d players, round %d, %s: paired again", c.n, c.rounds+1, name)
			}
			withNarrow(nw.narrow, func() {
				got := pair()
				require.Equal(t, want.Boards, got.Boards, "%d players, round %d, %s", c.n, c.rounds+1, name)
				require.Equal(t, want.Bye, got.Bye)
				// The explanation tells of the round paired, not of both.
				require.Equal(t, want.Trace.Brackets, got.Trace.Brackets)
			})
		}
		require.Positive(t, retried, "%s: no generated round was paired again", name)
	}
}
