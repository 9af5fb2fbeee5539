package export_test

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"arbiter/export"
	"arbiter/rules"
)

// addGoldenRecords seeds a fuzz target with the golden record of every
// format, by its file extension.
func addGoldenRecords(f *testing.F) {
	for _, name := range []string{"chess.pgn", "tensor.pgn", "shogi.kif", "shogi.csa", "shogi.ki2", "tavreli.latin", "tavreli.cyrillic", "kvaa.kvaa"} {
		data, err := os.ReadFile(filepath.Join("testdata", name+".golden"))
		require.NoError(f, err)
		ext := map[string]string{"kif": "kifu", "ki2": "ki2u", "latin": "tav", "cyrillic": "tav"}
		e := strings.SplitN(name, ".", 2)[1]
		if x, ok := ext[e]; ok {
			e = x
		}
		f.Add(e, data)
	}
}

// FuzzReadGames: any file, in any record format, is read or refused with
// an error, never a panic; what is read replays legally with its rules.
func FuzzReadGames(f *testing.F) {
	addGoldenRecords(f)
	f.Fuzz(func(t *testing.T, ext string, data []byte) {
		games, _, err := export.ReadGames("f."+ext, data, "")
		if err != nil {
			return
		}
		for _, g := range games {
			rg, err := rules.NewFromText(g.Game.Game, g.Game.Options)
			require.NoError(t, err)
			pos := rg.Start()
			if g.Game.StartPosition != "" {
				pos, err = rg.ParsePosition(g.Game.StartPosition)
				require.NoError(t, err)
			}
			for _, m := range g.Moves {
				_, pos, err = rules.PlayText(pos, m.Canonical)
				require.NoError(t, err, "ply %d", m.Ply)
			}
		}
	})
}

// FuzzImportRoundTrip: whatever is read is written again in every record
// format of its game and reads back the same (import → export → import):
// the same moves, result and players; and writing that again gives the
// same file.
func FuzzImportRoundTrip(f *testing.F) {
	addGoldenRecords(f)
	f.Add("pgn", []byte(realPGN))
	f.Add("pgn", append([]byte("\uFEFF"), strings.ReplaceAll(realPGN, "\n", "\r\n")...))
	f.Fuzz(func(t *testing.T, ext string, data []byte) {
		games, _, err := export.ReadGames("f."+ext, data, "")
		if err != nil {
			return
		}
		for i, g := range games {
			for _, format := range export.Formats(g.Game.Game) {
				write := func(g export.Imported) []byte {
					s := &export.Sheet{Event: "Fuzz", Game: g.Game, Moves: g.Moves}
					s.Game.ID = uint64(i + 1)
					var buf bytes.Buffer
					require.NoError(t, s.Write(&buf, format.Name), "game %d as %s", i+1, format.Name)
					return buf.Bytes()
				}
				first := write(g)
				back, _, err := export.ReadGames("r."+format.Ext, first, g.Game.Options)
				require.NoError(t, err, "game %d as %s:\n%s", i+1, format.Name, first)
				require.Len(t, back, 1, "game %d as %s:\n%s", i+1, format.Name, first)
				b := back[0]
				require.Equal(t, canonical(g.Moves), canonical(b.Moves), "game %d as %s", i+1, format.Name)
				require.Equal(t, g.Game.Result, b.Game.Result, "game %d as %s:\n%s", i+1, format.Name, first)
				require.Equal(t, first, write(b), "game %d as %s: written again differs", i+1, format.Name)
			}
		}
	})
}
