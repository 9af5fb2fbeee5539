package export_test

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arbiter/export"
	"arbiter/rules/shogi/kifu"
)

// TestShogiRecordTimes: the KIF and CSA records say the time control in
// their own headers (持ち時間 and 秒読み, $TIME_LIMIT) and the time of
// every move, from the clock's measure or, for moves stored without one,
// from the times the moves were made; each reads back with the same times.
func TestShogiRecordTimes(t *testing.T) {
	f := newFixture(t)
	orig := f.games["shogi"]
	moves, err := f.db.Moves(orig.ID)
	require.NoError(t, err)
	// The same game stored without the clock's measure of each move.
	g := orig
	g.ID = 0
	require.NoError(t, f.db.CreateGame(&g))
	prev := g.Started
	var want []time.Duration
	for _, m := range moves {
		m.GameID, m.Used = g.ID, 0
		require.NoError(t, f.db.AppendMove(&m))
		want = append(want, m.Wall.Sub(prev))
		prev = m.Wall
	}
	for _, tc := range []struct {
		name  string
		id    uint64
		times func(i int) time.Duration
	}{
		{"clock", orig.ID, func(i int) time.Duration { return moves[i].Used.Truncate(time.Second) }},
		{"wall", g.ID, func(i int) time.Duration { return want[i] }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, err := export.Load(f.db, "Export test", tc.id)
			require.NoError(t, err)
			var kif, csa bytes.Buffer
			require.NoError(t, s.Write(&kif, "kif"))
			require.NoError(t, s.Write(&csa, "csa"))
			assert.Contains(t, kif.String(), "\n持ち時間：10分\n")
			assert.Contains(t, kif.String(), "\n秒読み：30秒\n")
			assert.Contains(t, csa.String(), "\n$TIME_LIMIT:00:10+30\n")
			for name, read := range map[string]func([]byte) (*kifu.Record, error){"kif": kifu.ReadKIF, "csa": kifu.ReadCSA} {
				data := map[string][]byte{"kif": kif.Bytes(), "csa": csa.Bytes()}[name]
				rec, err := read(data)
				require.NoError(t, err, name)
				assert.Equal(t, 10*time.Minute, rec.Meta.MainTime, name)
				assert.Equal(t, 30*time.Second, rec.Meta.Byoyomi, name)
				require.Len(t, rec.Moves, len(moves), name)
				for i, m := range rec.Moves {
					assert.Equal(t, tc.times(i), m.Time, "%s: time of move %d", name, i+1)
				}
			}
			// One time line after every move of the CSA record.
			assert.Equal(t, len(moves), strings.Count(csa.String(), "\nT"))
		})
	}
}
