package chesscoretest

import (
	"bytes"
	"io"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arbiter/rules/internal/chesscore"
)

// CheckImport checks games imported from PGN, as the import fuzz targets
// of the games built on chesscore do: every game replays legally through
// its recorded positions, and written back by write it imports again by
// read to the same moves.
func CheckImport(t *testing.T, imp []chesscore.Imported, write func(g chesscore.Imported, w io.Writer) error, read func(io.Reader) ([]chesscore.Imported, error)) {
	t.Helper()
	for i, g := range imp {
		require.Len(t, g.After, len(g.Moves), "game %d", i+1)
		pos := g.Start
		for j, m := range g.Moves {
			next, err := pos.Play(m)
			require.NoError(t, err, "game %d ply %d", i+1, j+1)
			assert.Equal(t, g.After[j].String(), next.String(), "game %d ply %d", i+1, j+1)
			pos = g.After[j]
		}
		var out bytes.Buffer
		require.NoError(t, write(g, &out))
		again, err := read(bytes.NewReader(out.Bytes()))
		require.NoError(t, err, out.String())
		require.Len(t, again, 1)
		require.Len(t, again[0].Moves, len(g.Moves), out.String())
		for j := range g.Moves {
			assert.Equal(t, g.Moves[j].String(), again[0].Moves[j].String(), "game %d ply %d", i+1, j+1)
		}
	}
}
