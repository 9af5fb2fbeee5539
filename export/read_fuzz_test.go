package export_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"arbiter/export"
	"arbiter/rules"
)

// FuzzReadGames: any file, in any record format, is read or refused with
// an error, never a panic; what is read replays legally with its rules.
func FuzzReadGames(f *testing.F) {
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
	f.Fuzz(func(t *testing.T, ext string, data []byte) {
		games, err := export.ReadGames("f."+ext, data, "")
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
