package roundrobin

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arbiter/internal/scenariotest"
)

// published reads testdata/berger.txt: players → rounds → "white-black".
func published(t *testing.T) map[int][][]string {
	tables := map[int][][]string{}
	n := 0
	for _, c := range scenariotest.Read(t, "testdata/berger.txt", scenariotest.Syntax{}).Commands {
		if c.Fields[0] == "players" {
			_, err := fmt.Sscanf(c.Text, "players %d", &n)
			require.NoError(t, err, c.Pos())
			continue
		}
		tables[n] = append(tables[n], c.Fields)
	}
	require.NotEmpty(t, tables)
	return tables
}

func boardsText(bs []Board) []string {
	var out []string
	for _, b := range bs {
		out = append(out, fmt.Sprintf("%d-%d", b.First, b.Second))
	}
	return out
}

func TestPublishedTables(t *testing.T) {
	for n, rounds := range published(t) {
		s, err := Berger(n, Options{})
		require.NoError(t, err)
		require.Len(t, s.Rounds, len(rounds), "%d players", n)
		for r, want := range rounds {
			assert.Equal(t, want, boardsText(s.Rounds[r].Boards), "%d players, round %d", n, r+1)
			assert.Zero(t, s.Rounds[r].Bye)
		}
		// The odd field one smaller uses the same table, n being the bye.
		odd, err := Berger(n-1, Options{})
		require.NoError(t, err)
		for r, want := range rounds {
			var games []string
			bye := 0
			for _, g := range want {
				var a, b int
				fmt.Sscanf(g, "%d-%d", &a, &b)
				switch n {
				case a:
					bye = b
				case b:
					bye = a
				default:
					games = append(games, g)
				}
			}
			assert.Equal(t, games, boardsText(odd.Rounds[r].Boards), "%d players, round %d", n-1, r+1)
			assert.Equal(t, bye, odd.Rounds[r].Bye)
		}
	}
}

// independent builds round r of the table for even n from the arithmetic
// description, without the board order: the pairs are the numbers whose sum
// is r+1 modulo n−1, the number a with 2a ≡ r+1 meets n (White in odd
// rounds), and of two other numbers the lower has White when they differ by
// an odd amount.
func independent(n, r int) map[string]bool {
	m := n - 1
	games := map[string]bool{}
	for a := 1; a <= m; a++ {
		if (2*a-(r+1))%m == 0 {
			if r%2 == 1 {
				games[fmt.Sprintf("%d-%d", a, n)] = true
			} else {
				games[fmt.Sprintf("%d-%d", n, a)] = true
			}
			continue
		}
		for b := a + 1; b <= m; b++ {
			if (a+b-(r+1))%m != 0 {
				continue
			}
			if (b-a)%2 == 1 {
				games[fmt.Sprintf("%d-%d", a, b)] = true
			} else {
				games[fmt.Sprintf("%d-%d", b, a)] = true
			}
		}
	}
	return games
}

func TestMatchesArithmeticConstruction(t *testing.T) {
	for n := 4; n <= 30; n += 2 {
		s, err := Berger(n, Options{})
		require.NoError(t, err)
		for r, round := range s.Rounds {
			got := map[string]bool{}
			for _, g := range boardsText(round.Boards) {
				got[g] = true
			}
			assert.Equal(t, independent(n, r+1), got, "%d players, round %d", n, r+1)
		}
	}
}

func TestProperties(t *testing.T) {
	for players := 3; players <= 30; players++ {
		for _, double := range []bool{false, true} {
			s, err := Berger(players, Options{Double: double})
			require.NoError(t, err)
			n := players + players%2
			cycles := 1
			if double {
				cycles = 2
			}
			require.Len(t, s.Rounds, cycles*(n-1))
			met := map[[2]int]int{}
			for _, r := range s.Rounds {
				seen := map[int]bool{}
				for _, b := range r.Boards {
					require.False(t, seen[b.First] || seen[b.Second], "%d players round %d: someone plays twice", players, r.Number)
					seen[b.First], seen[b.Second] = true, true
					met[[2]int{min(b.First, b.Second), max(b.First, b.Second)}]++
				}
				if r.Bye != 0 {
					seen[r.Bye] = true
				}
				require.Len(t, seen, players, "%d players round %d", players, r.Number)
			}
			require.Len(t, met, players*(players-1)/2)
			for pair, c := range met {
				require.Equal(t, cycles, c, "pair %v", pair)
			}
			for p, seq := range s.Colours()[1:] {
				w, b := strings.Count(seq, "w"), strings.Count(seq, "b")
				require.LessOrEqual(t, abs(w-b), 1, "%d players: player %d colours %s", players, p+1, seq)
				if double {
					// The swap of the last two first-cycle rounds prevents
					// three equal colours in a row (byes interrupt nothing).
					played := strings.ReplaceAll(seq, "-", "")
					assert.NotContains(t, played, "www", "%d players: player %d %s", players, p+1, seq)
					assert.NotContains(t, played, "bbb", "%d players: player %d %s", players, p+1, seq)
				}
			}
		}
	}
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

func TestDoubleCycle(t *testing.T) {
	s, err := Berger(4, Options{Double: true})
	require.NoError(t, err)
	var got [][]string
	for _, r := range s.Rounds {
		got = append(got, boardsText(r.Boards))
	}
	assert.Equal(t, [][]string{
		{"1-4", "2-3"}, {"2-4", "3-1"}, {"4-3", "1-2"}, // rounds 2 and 3 swapped
		{"4-1", "3-2"}, {"3-4", "2-1"}, {"4-2", "1-3"},
	}, got)
	assert.Equal(t, 2, s.Rounds[3].Cycle)
	kept, err := Berger(4, Options{Double: true, KeepOrder: true})
	require.NoError(t, err)
	assert.Equal(t, []string{"4-3", "1-2"}, boardsText(kept.Rounds[1].Boards))
}

func TestByLot(t *testing.T) {
	_, err := Berger(6, Options{Policy: ByLot})
	require.ErrorIs(t, err, ErrNoLot)
	calls := 0
	s, err := Berger(6, Options{Policy: ByLot, Lot: func(round int, b Board) bool {
		calls++
		return (round+b.Number)%2 == 0
	}})
	require.NoError(t, err)
	assert.Equal(t, 15, calls)
	table, err := Berger(6, Options{})
	require.NoError(t, err)
	for i, r := range s.Rounds {
		for j, b := range r.Boards {
			tb := table.Rounds[i].Boards[j]
			if (r.Number+b.Number)%2 == 0 {
				assert.Equal(t, tb, b)
			} else {
				assert.Equal(t, Board{Number: tb.Number, First: tb.Second, Second: tb.First}, b)
			}
			assert.Equal(t, b.First, b.White())
			assert.Equal(t, b.Second, b.Black())
		}
	}
}

func TestErrors(t *testing.T) {
	for _, n := range []int{-1, 0, 1, MaxPlayers + 1} {
		_, err := Berger(n, Options{})
		require.Error(t, err, "%d players", n)
	}
	_, err := Berger(4, Options{Policy: 7})
	require.ErrorContains(t, err, "unknown colour policy")
	s, err := Berger(2, Options{Double: true})
	require.NoError(t, err)
	assert.Len(t, s.Rounds, 2)
}
