package tiebreak

import (
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// build makes a tournament from a compact text, one player per line:
//
//	ID RATING: entry entry …
//
// An entry is OPP COLOUR RESULT for a game ("2w1", "3b=", "4w+", "4b-",
// colours w/b, results 1 = 0 + -) or a single letter for a round without an
// opponent: U (PAB), F, H, Z.
func build(t testing.TB, text string) *Tournament {
	t.Helper()
	tour := &Tournament{Scoring: DefaultScoring}
	for n, line := range strings.Split(strings.TrimSpace(text), "\n") {
		head, entries, ok := strings.Cut(line, ":")
		require.True(t, ok, "line %d: no colon", n+1)
		var p Player
		_, err := fmt.Sscan(head, &p.ID, &p.Rating)
		require.NoError(t, err, "line %d", n+1)
		for _, e := range strings.Fields(entries) {
			p.Games = append(p.Games, parseEntry(t, e))
		}
		tour.Players = append(tour.Players, p)
	}
	return tour
}

func parseEntry(t testing.TB, e string) Game {
	t.Helper()
	byes := map[string]Result{"U": PairingBye, "F": FullBye, "H": HalfBye, "Z": Absent}
	if r, ok := byes[e]; ok {
		return Game{Result: r}
	}
	require.GreaterOrEqual(t, len(e), 3, "entry %q", e)
	opp, err := strconv.Atoi(e[:len(e)-2])
	require.NoError(t, err, "entry %q", e)
	g := Game{Opponent: opp, Colour: map[byte]Colour{'w': White, 'b': Black}[e[len(e)-2]]}
	results := map[byte]Result{'1': Win, '=': Draw, '0': Loss, '+': ForfeitWin, '-': ForfeitLoss}
	r, ok := results[e[len(e)-1]]
	require.True(t, ok, "entry %q: result", e)
	g.Result = r
	return g
}

// column returns the values of tie-break c by player ID.
func column(st *Standings, c int) map[int]float64 {
	m := map[int]float64{}
	for _, r := range st.Rows {
		if r.Values[c].OK {
			m[r.ID] = r.Values[c].Num
		}
	}
	return m
}
