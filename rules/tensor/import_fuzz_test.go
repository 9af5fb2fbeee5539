package tensor

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// FuzzImportPGN imports arbitrary PGN into Tensor games: every imported
// game replays legally, and written back it imports to the same moves.
func FuzzImportPGN(f *testing.F) {
	data, err := os.ReadFile(filepath.Join("testdata", "sample.pgn"))
	require.NoError(f, err)
	f.Add(string(data))
	for _, s := range []string{
		"[Variant \"Tensor\"]\n\n1. Ti1:i3 Tb8:b6 2. h2-h3 d7-d6 *",
		"[Variant \"Tensor\"]\n\n1. e2-e4 *",
		"[Variant \"chess\"]\n\n1. e4 *",
		"[Variant \"Tensor\"]\n[FEN \"x\"]\n\n*",
		"[Variant \"tensor\"]\n\n1. b2-b3Tb4 *",
	} {
		f.Add(s)
	}
	g, err := New(nil)
	require.NoError(f, err)
	f.Fuzz(func(t *testing.T, s string) {
		imp, err := g.ImportPGN(strings.NewReader(s))
		if err != nil {
			return
		}
		for i, gm := range imp {
			require.Len(t, gm.After, len(gm.Moves), "game %d", i+1)
			pos := gm.Start
			for j, m := range gm.Moves {
				next, err := pos.Play(m)
				require.NoError(t, err, "game %d ply %d", i+1, j+1)
				assert.Equal(t, gm.After[j].String(), next.String(), "game %d ply %d", i+1, j+1)
				pos = gm.After[j]
			}
			rec, err := NewRecord(gm.Start, gm.Moves, nil)
			require.NoError(t, err)
			var out bytes.Buffer
			require.NoError(t, rec.WritePGN(&out))
			again, err := g.ImportPGN(&out)
			require.NoError(t, err, out.String())
			require.Len(t, again, 1)
			require.Len(t, again[0].Moves, len(gm.Moves), out.String())
			for j := range gm.Moves {
				assert.Equal(t, gm.Moves[j].String(), again[0].Moves[j].String(), "game %d ply %d", i+1, j+1)
			}
		}
	})
}
