package pairing

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"arbiter/pairing/internal/matching"
)

// TestFieldsByEdition checks that the weight fields are named by each
// edition's own criterion numbers, top down, and as wide as the criteria
// need: a counter of players per criterion that counts them, a counter per
// score for those that sum scores.
func TestFieldsByEdition(t *testing.T) {
	cases := []struct {
		edition Edition
		played  int
		numbers string
		bits    int
	}{
		{Dutch2026, 2, "C6 C7 C8 C8 C9 C10 C11 C12 C13 C14 C15 C16 C17 C18 C19 C20 C21 room", 75},
		{Dutch2017, 2, "C5 C6 C7 C7 - C8 C9 C10 C11 C12 C13 C14 C15 C16 C17 C18 C19 room", 75},
		{Dutch2026, 1, "C6 C7 C8 C8 C9 C10 C11 C12 C13 C14 C15 C18 C19 room", 59},
		{Dutch2017, 0, "C5 C6 C7 C7 - C8 C9 C10 C11 room", 43},
	}
	for _, c := range cases {
		d := &dutch{s: &state{edition: c.edition, playedRounds: c.played}, sgBits: 3}
		fs := d.fieldsWith(layout{cur: 5, next: 7})
		var numbers []string
		for _, f := range fs {
			n, _, _ := strings.Cut(f.label(c.edition), " ")
			switch {
			case f.crit == 0:
				n = "room"
			case strings.HasPrefix(n, "("):
				n = "-"
			}
			numbers = append(numbers, n)
		}
		require.Equal(t, c.numbers, strings.Join(numbers, " "), "%s, %d rounds played", c.edition, c.played)
		require.Equal(t, c.bits, d.fieldBitsWith(layout{cur: 5, next: 7}), "%s, %d rounds played", c.edition, c.played)
	}
	require.Equal(t, "(no criterion of 2017) fewest unplayed games for the bye", field{crit: ByeUnplayed}.label(Dutch2017))
}

// TestNarrowErrorNamesCriterion checks that a bracket too wide for the
// fields names the criterion by the number of the edition being paired.
func TestNarrowErrorNamesCriterion(t *testing.T) {
	for _, c := range []struct {
		edition   Edition
		cur, next string
	}{
		{Dutch2026, "C7 lowest downfloater scores", "C8 best pairing of the next bracket"},
		{Dutch2017, "C6 lowest downfloater scores", "C7 best pairing of the next bracket"},
	} {
		tour := syntheticHistory(40, 3, 2)
		s, err := newState(tour, 4, Options{Round: 4, Edition: c.edition})
		require.NoError(t, err)
		d := &dutch{s: s}
		d.setup()
		all := make([]int, len(d.sorted))
		for v := range all {
			all[v] = v
		}
		d.setWidth(layout{1, 64})
		err = d.layOut(all, nil)
		require.ErrorIs(t, err, errNarrow)
		require.ErrorContains(t, err, c.cur)
		d.setWidth(layout{64, 1})
		err = d.layOut(all[:len(all)/2], all[len(all)/2:])
		require.ErrorIs(t, err, errNarrow)
		require.ErrorContains(t, err, c.next)
	}
}

// TestFieldWriterChecksCriterion checks that writing a field the layout
// does not have there panics instead of weighing another criterion.
func TestFieldWriterChecksCriterion(t *testing.T) {
	d := &dutch{s: &state{playedRounds: 2}, sgBits: 3}
	f := fieldWriter{w: matching.NewWeight(2), pos: 75, fields: d.fieldsWith(layout{5, 7})}
	f.next(MaxPairs)
	require.Panics(t, func() { f.next(NextBracket) })
}
