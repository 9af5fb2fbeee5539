package chess

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arbiter/internal/scenariotest"
	"arbiter/rules"
)

func TestImportPGN(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("testdata", "import.pgn"))
	require.NoError(t, err)
	games, err := ImportPGN(bytes.NewReader(data))
	require.NoError(t, err)
	require.Len(t, games, 2)

	g := games[0]
	require.Len(t, g.Moves, 42)
	assert.Equal(t, "1-0", g.Record.Result)
	tc, _ := g.Record.Tag("TimeControl")
	assert.Equal(t, "5400+30", tc)
	m0, m1 := g.Record.Moves[0], g.Record.Moves[1]
	assert.True(t, m0.HasClock)
	assert.Equal(t, 90*time.Minute+10*time.Second, m0.Clock)
	assert.Equal(t, 89*time.Minute+58500*time.Millisecond, m1.Clock)
	assert.Equal(t, "solid", m1.Comment)
	assert.Equal(t, "e2e4", g.Moves[0].String())
	assert.Equal(t, "e1g1", g.Moves[8].String())
	assert.Equal(t, 11, g.Record.Moves[2].Line)

	mini := games[1]
	require.Len(t, mini.Moves, 1)
	last := mini.After[0]
	assert.Equal(t, rules.Win(rules.Black, rules.Checkmate), last.Outcome(nil))
}

// Export: the imported games written again match the golden file, and
// reading the export gives the same moves and clocks back.
func TestExportPGN(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("testdata", "import.pgn"))
	require.NoError(t, err)
	games, err := ImportPGN(bytes.NewReader(data))
	require.NoError(t, err)
	var out bytes.Buffer
	for _, g := range games {
		var clocks []time.Duration
		if g.Record.Moves[0].HasClock {
			for i := range g.Moves {
				clocks = append(clocks, time.Duration(5400-i*20)*time.Second)
			}
		}
		rec, err := NewRecord(g.Start, g.Moves, clocks)
		require.NoError(t, err)
		for _, tag := range g.Record.Tags {
			if tag.Name != "SetUp" && tag.Name != "FEN" {
				rec.SetTag(tag.Name, tag.Value)
			}
		}
		rec.Result = g.Record.Result
		require.NoError(t, WritePGN(&out, rec))
	}
	scenariotest.Golden(t, filepath.Join("testdata", "export.golden.pgn"), out.Bytes())

	again, err := ImportPGN(bytes.NewReader(out.Bytes()))
	require.NoError(t, err)
	require.Len(t, again, 2)
	for i := range again {
		assert.Equal(t, games[i].After[len(games[i].After)-1].String(), again[i].After[len(again[i].After)-1].String())
	}
	assert.Equal(t, 5400*time.Second-20*time.Second, again[0].Record.Moves[1].Clock)
}

func TestImportErrors(t *testing.T) {
	for _, tc := range []struct{ pgn, want string }{
		{"1. e4 e5 2. Nf4 *", `game 1: PGN line 1 column 13: ply 3: move "Nf4": no legal move matches`},
		{"[Event \"x\"]\n\n1. e4\n   Ke3 *", `PGN line 4 column 4: ply 2: move "Ke3"`},
		{"1. e4 {unterminated", "PGN line 1 column 7: unterminated comment"},
		{"[Event \"x]\n1. e4 *", "PGN line 1 column 1: tag Event: unterminated string"},
		{"1. e4 e5", "game ends without a result token"},
		{"1. e4 ) *", "unmatched ')'"},
		{"[Variant \"Tensor\"]\n1. e4 *", `variant "Tensor" is not chess`},
		{"[SetUp \"1\"]\n[FEN \"8/8/8\"]\n1. e4 *", "FEN tag"},
	} {
		_, err := ImportPGN(strings.NewReader(tc.pgn))
		assert.ErrorContains(t, err, tc.want, tc.pgn)
	}
}

func TestTermination(t *testing.T) {
	assert.Equal(t, "time forfeit", Termination(rules.Loss(rules.White, rules.Time)))
	assert.Equal(t, "normal", Termination(rules.Win(rules.White, rules.Checkmate)))
	assert.Equal(t, "rules infraction", Termination(rules.Loss(rules.White, rules.IllegalMove)))
}
