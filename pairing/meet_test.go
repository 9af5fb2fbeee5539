package pairing

import (
	"slices"
	"testing"

	"github.com/stretchr/testify/require"
)

// compatible is the rule the meetings bit set records: a and b may meet
// unless they met before or have the same absolute colour preference,
// except in the last round when either is a topscorer.
func compatible(s *state, a, b *player) bool {
	if slices.Contains(a.forbidden, b.index) || slices.Contains(b.forbidden, a.index) {
		return false
	}
	if !a.absolutePref() || !b.absolutePref() || a.colourPref != b.colourPref {
		return true
	}
	if s.playedRounds >= s.expectedRounds-1 {
		threshold := s.playedRounds * max(s.win, s.draw) >> 1
		return s.pairScore(a) > threshold || s.pairScore(b) > threshold
	}
	return false
}

// The meetings bit set says what compatible says, for every pair of every
// round of some corpus tournaments and of late synthetic rounds, where
// absolute colour preferences and the last-round exception are common.
func TestMeetings(t *testing.T) {
	files := corpusFiles(t)
	forbidden, checked := 0, 0
	check := func(d *dutch) {
		d.setup()
		for i, p := range d.sorted {
			for j, o := range d.sorted {
				if i == j {
					require.False(t, d.meet.may(i, j), "a player meets himself")
					continue
				}
				want := compatible(d.s, p, o)
				require.Equal(t, want, d.meet.may(i, j), "players %d and %d", p.id, o.id)
				checked++
				if !want {
					forbidden++
				}
			}
		}
	}
	for i := 0; i < len(files); i += 7 {
		tour := loadCorpus(t, files[i])
		for r := 1; r <= tour.PlayedRounds(); r++ {
			s, err := newState(BeforeRound(tour, r), r, Options{Round: r})
			require.NoError(t, err)
			check(&dutch{s: s})
		}
	}
	for _, n := range []int{63, 64, 65, 130} {
		tour := syntheticHistory(n, 8, 2)
		tour.Rounds = 9
		s, err := newState(tour, 9, Options{Round: 9})
		require.NoError(t, err)
		check(&dutch{s: s})
	}
	require.Positive(t, forbidden)
	t.Logf("%d pairs checked, %d may not meet", checked, forbidden)
}
