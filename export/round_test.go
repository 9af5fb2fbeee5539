package export_test

import (
	"bytes"
	"errors"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arbiter/export"
	"arbiter/rules"
	"arbiter/rules/chess"
	"arbiter/rules/shogi/kifu"
	"arbiter/store"
)

// roundFixture turns round 1 of every tournament of the fixture into a
// round of three boards: board 1 finished, board 2 still in play, board 3
// finished, and a bye that has no game.
func roundFixture(t testing.TB) (*fixture, map[string][]store.Game) {
	t.Helper()
	f := newFixture(t)
	tours, err := f.db.Tournaments()
	require.NoError(t, err)
	out := map[string][]store.Game{}
	for i, c := range cases {
		tour := tours[i]
		gs := []store.Game{f.games[c.game]}
		gs = append(gs, play(t, f.db, tour, c.plies/2, rules.Outcome{}))
		gs = append(gs, play(t, f.db, tour, c.plies/3, rules.Win(rules.Second, rules.Resignation)))
		pairings := []store.Pairing{{Board: 4, First: 7, Result: "bye"}}
		// Stored out of board order on purpose: the feed sorts them.
		for j := len(gs) - 1; j >= 0; j-- {
			g := gs[j]
			g.BoardNo = j + 1
			require.NoError(t, f.db.UpdateGame(&g))
			gs[j] = g
			pairings = append(pairings, store.Pairing{Board: j + 1, First: 2*j + 1, Second: 2*j + 2, GameID: g.ID, Result: g.Result})
		}
		require.NoError(t, f.db.PutRound(&store.Round{TournamentID: tour.ID, Number: 1, PairedAt: started, Pairings: pairings}))
		out[c.game] = gs
	}
	return f, out
}

// splitRecords cuts a feed of records that each start with an Event tag.
func splitRecords(text string) []string {
	parts := strings.Split(text, "\n\n[Event ")
	for i := 1; i < len(parts); i++ {
		parts[i] = "[Event " + parts[i]
	}
	return parts
}

func TestWriteRoundEveryBoardInOrder(t *testing.T) {
	f, games := roundFixture(t)
	tours, err := f.db.Tournaments()
	require.NoError(t, err)
	for i, c := range cases {
		for _, format := range export.Formats(c.game) {
			for _, ext := range []string{format.Name, format.Ext} {
				t.Run(c.game+"."+ext, func(t *testing.T) {
					var buf bytes.Buffer
					require.NoError(t, export.WriteRound(&buf, f.db, "Export test", tours[i].ID, 1, ext))
					var parts []string
					switch format.Name {
					case "csa":
						parts = strings.Split(buf.String(), "/\n")
					case "kif", "ki2":
						parts = strings.SplitAfter(buf.String(), "\n\n")
						parts = mergeKIF(parts)
					default:
						parts = splitRecords(buf.String())
					}
					require.Len(t, parts, 3, "one record per board with a game:\n%s", buf.String())
					for b, part := range parts {
						if !strings.HasSuffix(part, "\n") {
							part += "\n"
						}
						moves, err := f.db.Moves(games[c.game][b].ID)
						require.NoError(t, err)
						assert.Equal(t, canonical(moves), readBack(t, c.game, format.Name, []byte(strings.TrimSuffix(part, "\n")+"\n")), "board %d", b+1)
					}
				})
			}
		}
	}
}

// mergeKIF undoes SplitAfter on blank lines inside one KIF record: a KIF
// record has none, except that the feed puts one between two records.
func mergeKIF(parts []string) []string {
	var out []string
	for _, p := range parts {
		if p != "" {
			out = append(out, p)
		}
	}
	return out
}

func TestWriteRoundPGNForBroadcasts(t *testing.T) {
	f, games := roundFixture(t)
	id := f.games["chess"].TournamentID
	var buf bytes.Buffer
	require.NoError(t, export.WriteRound(&buf, f.db, "Export test", id, 1, "pgn"))
	imp, err := chess.ImportPGN(bytes.NewReader(buf.Bytes()))
	require.NoError(t, err)
	require.Len(t, imp, 3)
	for b, g := range imp {
		rec := g.Record
		round, _ := rec.Tag("Round")
		board, _ := rec.Tag("Board")
		assert.Equal(t, "1."+strconv.Itoa(b+1), round)
		assert.Equal(t, strconv.Itoa(b+1), board)
		for j, m := range rec.Moves {
			assert.True(t, m.HasClock, "board %d move %d has [%%clk]", b+1, j+1)
		}
		want := games["chess"][b].Result
		if want == "" {
			want = "*"
		}
		assert.Equal(t, want, rec.Result, "board %d", b+1)
	}
	assert.Contains(t, buf.String(), "{[%clk 0:09:")

	// CSA: the games of one file are separated by a "/" line.
	buf.Reset()
	require.NoError(t, export.WriteRound(&buf, f.db, "Export test", f.games["shogi"].TournamentID, 1, "csa"))
	parts := strings.Split(buf.String(), "\n/\n")
	require.Len(t, parts, 3)
	rec, err := kifu.ReadCSA([]byte(parts[1] + "\n"))
	require.NoError(t, err)
	assert.False(t, rec.End.Outcome().Over(), "board 2 is still in play")
}

func TestWriteRoundErrors(t *testing.T) {
	f, _ := roundFixture(t)
	id := f.games["chess"].TournamentID
	for _, tc := range []struct {
		name   string
		tour   uint64
		round  int
		format string
		is     error
		says   string
	}{
		{"round not paired", id, 2, "pgn", store.ErrNotFound, "round 2"},
		{"no such tournament", 999, 1, "pgn", store.ErrNotFound, "999"},
		{"format of another game", id, 1, "kif", export.ErrFormat, `"kif"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var buf bytes.Buffer
			err := export.WriteRound(&buf, f.db, "Export test", tc.tour, tc.round, tc.format)
			require.Error(t, err)
			assert.True(t, errors.Is(err, tc.is), "%v", err)
			assert.Contains(t, err.Error(), tc.says)
			assert.Zero(t, buf.Len(), "nothing written on an error")
		})
	}
}

// BenchmarkWriteRound is the cost of one poll of a round feed: three
// boards of chess (20, 10 and 6 plies) read from the store, replayed and
// written as PGN.
func BenchmarkWriteRound(b *testing.B) {
	f, _ := roundFixture(b)
	id := f.games["chess"].TournamentID
	var buf bytes.Buffer
	b.ReportAllocs()
	for b.Loop() {
		buf.Reset()
		if err := export.WriteRound(&buf, f.db, "Export test", id, 1, "pgn"); err != nil {
			b.Fatal(err)
		}
	}
}
