package chess

import (
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"arbiter/rules/internal/chesscore/chesscoretest"
)

// FuzzImportPGN imports arbitrary PGN into games, not only through the
// low-level reader: every imported game replays legally, and written back
// as PGN it imports to the same moves.
func FuzzImportPGN(f *testing.F) {
	data, err := os.ReadFile(filepath.Join("testdata", "import.pgn"))
	require.NoError(f, err)
	f.Add(string(data))
	for _, s := range []string{
		"1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 *",
		"[SetUp \"1\"]\n[FEN \"8/8/8/8/8/2k5/4q3/K7 b - - 0 40\"]\n\n40... Qb2# 0-1",
		"[FEN \"bad fen\"]\n\n1. e4 *",
		"[Variant \"Tensor\"]\n\n1. e4 *",
		"1. e4 e4 *",
		"1. O-O *",
		"1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0",
		"1. a4 b5 2. axb5 a6 3. bxa6 Bb7 4. axb7 Nc6 5. bxa8=Q *",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		imp, err := ImportPGN(strings.NewReader(s))
		if err != nil {
			return
		}
		chesscoretest.CheckImport(t, imp, func(g Imported, w io.Writer) error {
			rec, err := NewRecord(g.Start, g.Moves, nil)
			if err != nil {
				return err
			}
			return WritePGN(w, rec)
		}, ImportPGN)
	})
}
