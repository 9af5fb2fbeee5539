package tensor

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arbiter/rules"
)

// The sample record of section 4.4: every move replays, the final
// position is the one the specification gives, and exporting the game
// again reproduces the record (canonical TLAN, check marks, tags).
func TestSampleRecord(t *testing.T) {
	g := mustGame(t)
	data, err := os.ReadFile(filepath.Join("testdata", "sample.pgn"))
	require.NoError(t, err)
	games, err := g.ImportPGN(bytes.NewReader(data))
	require.NoError(t, err)
	require.Len(t, games, 1)
	imp := games[0]
	require.Len(t, imp.Moves, 13)
	final := imp.After[len(imp.After)-1]
	// The specification prints rank 7 as "p1p1qppp", which has 8 squares
	// on a 10-file board: a typo. After the moves a7, c7 and f7-j7 still
	// hold their pawns and the queen stands on e7.
	assert.Equal(t, "r1nb1kbn1r/p1p1qppppp/1p1p2t3/T9/10/6NPT1/PPPPPPP1PP/1RNBQ2RK1 b kq - 2 7", final.String())

	rec, err := NewRecord(imp.Start, imp.Moves, nil)
	require.NoError(t, err)
	var out bytes.Buffer
	require.NoError(t, rec.WritePGN(&out))
	assert.Equal(t, string(data), out.String())
}

func TestRecordClocksRoundTrip(t *testing.T) {
	g := mustGame(t)
	pos := g.StartPosition()
	start := pos
	var moves []rules.Move
	var clocks []time.Duration
	for i, s := range []string{"e2-e4", "Tb8:d6", "Ra1-b1Ta1", "e7-e5"} {
		m, err := pos.ParseMove(s)
		require.NoError(t, err, s)
		next, err := pos.Play(m)
		require.NoError(t, err)
		pos = next.(*Position)
		moves = append(moves, m)
		clocks = append(clocks, time.Duration(90-i)*time.Minute+1500*time.Millisecond)
	}
	rec, err := NewRecord(start, moves, clocks)
	require.NoError(t, err)
	rec.SetTag("TimeControl", "5400+30")
	rec.Result = "*"
	var out bytes.Buffer
	require.NoError(t, rec.WritePGN(&out))
	assert.Contains(t, out.String(), "1. e2-e4 {[%clk 1:30:01.5]} 1... Tb8:d6 {[%clk 1:29:01.5]}")
	assert.Contains(t, out.String(), `[Variant "Tensor"]`)

	games, err := g.ImportPGN(strings.NewReader(out.String()))
	require.NoError(t, err)
	require.Len(t, games, 1)
	assert.Equal(t, pos.String(), games[0].After[3].String())
	for i, rm := range games[0].Record.Moves {
		assert.True(t, rm.HasClock)
		assert.Equal(t, clocks[i], rm.Clock)
	}
}

func TestImportErrorsNameLineAndToken(t *testing.T) {
	g := mustGame(t)
	_, err := g.ImportPGN(strings.NewReader("[Variant \"Tensor\"]\n\n1. e2-e4 e7-e5\n2. Tb1:b4 *\n"))
	require.Error(t, err)
	assert.Contains(t, err.Error(), "line 4 column 4")
	assert.Contains(t, err.Error(), `"Tb1:b4"`)

	_, err = g.ImportPGN(strings.NewReader("[Event \"x\"]\n\n1. e2-e4 *\n"))
	require.ErrorContains(t, err, "Variant")
}
