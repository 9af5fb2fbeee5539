package tensor

import (
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"arbiter/rules/internal/chesscore/chesscoretest"
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
		chesscoretest.CheckImport(t, imp, func(gm Imported, w io.Writer) error {
			rec, err := NewRecord(gm.Start, gm.Moves, nil)
			if err != nil {
				return err
			}
			return rec.WritePGN(w)
		}, g.ImportPGN)
	})
}
