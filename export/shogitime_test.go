package export_test

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
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

// TestKIFTotalsAreSums: each KIF move line's running total is the sum of
// that side's move times as the lines write them (whole seconds), as KIF
// readers (tsshogi) check, also when the stored times have fractions.
func TestKIFTotalsAreSums(t *testing.T) {
	f := newFixture(t)
	orig := f.games["shogi"]
	moves, err := f.db.Moves(orig.ID)
	require.NoError(t, err)
	s, err := export.Load(f.db, "Export test", orig.ID)
	require.NoError(t, err)
	// Times with fractions that add up past whole seconds.
	for i := range s.Moves {
		s.Moves[i].Used = time.Duration(i%3+1)*time.Second + 700*time.Millisecond
	}
	require.NotEmpty(t, moves)
	var kif bytes.Buffer
	require.NoError(t, s.Write(&kif, "kif"))
	line := regexp.MustCompile(`^\s*(\d+) .*\(\s*(\d+):(\d\d)/(\d\d):(\d\d):(\d\d)\)$`)
	var total [2]int
	n := 0
	for _, l := range strings.Split(kif.String(), "\n") {
		m := line.FindStringSubmatch(l)
		if m == nil {
			continue
		}
		n++
		ply, _ := strconv.Atoi(m[1])
		atoi := func(s string) int { v, _ := strconv.Atoi(s); return v }
		side := (ply - 1) % 2
		total[side] += atoi(m[2])*60 + atoi(m[3])
		assert.Equal(t, total[side], atoi(m[4])*3600+atoi(m[5])*60+atoi(m[6]), "line %q: the total is the sum of the move times", l)
	}
	assert.GreaterOrEqual(t, n, len(s.Moves))
}

// TestShogiRecordsInTsshogi: tsshogi, the reader of Japanese shogi
// software, reads our KIF, KI2 and CSA with every move (it works out the
// running totals itself: TestKIFTotalsAreSums checks ours).
func TestShogiRecordsInTsshogi(t *testing.T) {
	f := newFixture(t)
	s, err := export.Load(f.db, "Export test", f.games["shogi"].ID)
	require.NoError(t, err)
	for i := range s.Moves {
		s.Moves[i].Used = time.Duration(i%3+1)*time.Second + 700*time.Millisecond
	}
	dir := t.TempDir()
	for _, format := range []string{"kif", "ki2", "csa"} {
		var buf bytes.Buffer
		require.NoError(t, s.Write(&buf, format))
		require.NoError(t, os.WriteFile(filepath.Join(dir, "g."+format), buf.Bytes(), 0o644))
	}
	out, err := runNode(t, `
const fs = require('fs');
const path = require('path');
const { importKIF, importKI2, importCSA } = require('tsshogi');
const dir = process.argv[process.argv.length - 1];
const out = {};
for (const [ext, read] of [['kif', importKIF], ['ki2', importKI2], ['csa', importCSA]]) {
  const r = read(fs.readFileSync(path.join(dir, 'g.' + ext), 'utf8'));
  if (r instanceof Error) { out[ext] = 'error: ' + r.message; continue; }
  const moves = r.moves.slice(1).filter(n => n.move && n.move.from !== undefined || n.move && n.move.to);
  out[ext] = { moves: moves.length };
}
console.log(JSON.stringify(out));
`, dir)
	require.NoError(t, err, out)
	n := len(s.Moves)
	assert.JSONEq(t, fmt.Sprintf(`{"kif":{"moves":%d},"ki2":{"moves":%d},"csa":{"moves":%d}}`, n, n, n), strings.TrimSpace(out))
}
