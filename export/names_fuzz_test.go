package export_test

import (
	"bytes"
	"html"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arbiter/export"
	"arbiter/internal/oneline"
	"arbiter/rules/chess"
	"arbiter/rules/kvaa"
	"arbiter/rules/shogi/kifu"
	"arbiter/rules/tavreli"
	"arbiter/rules/tensor"
)

// hostileNames once made files their own readers refused: a newline split
// a record, a NUL was written raw, a CR stayed inside a PGN tag.
var hostileNames = []string{
	"Ivanov\nIvan", "a\x00b", "Doe\r\nJane", "CR\rinside", "tab\tname", "\xff\xfelatin", "line\u2028sep",
	`quote " and \ backslash`, "[White \"x\"]", "{brace} ;semi", "  ", "", "名人\n戦", "Иванов\x85Пётр",
	evilFirst, evilSecond,
}

// TestWritersHostileNames writes every game in every format, and the
// printable page, for each hostile name.
func TestWritersHostileNames(t *testing.T) {
	f := newFixture(t)
	for _, n := range hostileNames {
		checkNames(t, f, n, "Event\n"+n)
	}
}

// FuzzWritersNames feeds every record writer arbitrary player and event
// names: each file must read back with our own reader, with the names as
// one line and the same moves, and hold no control character.
func FuzzWritersNames(f *testing.F) {
	for i, n := range hostileNames {
		f.Add(n, hostileNames[(i+1)%len(hostileNames)])
	}
	fx := newFixture(f)
	f.Fuzz(func(t *testing.T, name, event string) {
		checkNames(t, fx, name, event)
	})
}

func checkNames(t *testing.T, f *fixture, name, event string) {
	t.Helper()
	for _, c := range cases {
		s, err := export.Load(f.db, event, f.games[c.game].ID)
		require.NoError(t, err)
		s.Game.First, s.Game.Second, s.Tournament = name, name+"\x00second", event
		for _, format := range export.Formats(c.game) {
			var buf bytes.Buffer
			require.NoError(t, s.Write(&buf, format.Name), "%s %s", c.game, format.Name)
			out := buf.String()
			noControls(t, out, c.game+" "+format.Name)
			assert.Equal(t, canonical(s.Moves), readBack(t, c.game, format.Name, buf.Bytes()), "%s %s moves", c.game, format.Name)
			first, second := readNames(t, c.game, format.Name, buf.Bytes())
			want := oneline.Clean(name)
			if c.game == "kvaa" {
				want = strings.ReplaceAll(want, `"`, "'")
			}
			assert.Equal(t, want, first, "%s %s first player", c.game, format.Name)
			assert.NotEmpty(t, second, "%s %s second player", c.game, format.Name)
		}
		var buf bytes.Buffer
		require.NoError(t, s.WriteHTML(&buf))
		out := buf.String()
		noControls(t, out, c.game+" html")
		assert.Contains(t, html.UnescapeString(out), oneline.Clean(name), "%s html", c.game)
	}
}

// noControls: valid UTF-8 with no control character but the line end.
func noControls(t *testing.T, out, what string) {
	t.Helper()
	require.True(t, utf8.ValidString(out), "%s: invalid UTF-8", what)
	for i, l := range strings.Split(out, "\n") {
		for _, r := range l {
			require.False(t, unicode.IsControl(r) || r == '\u2028' || r == '\u2029', "%s line %d %q holds %U", what, i+1, l, r)
		}
	}
}

// readNames reads the two player names back with the game's own reader.
func readNames(t *testing.T, game, format string, data []byte) (string, string) {
	t.Helper()
	switch game {
	case "tavreli":
		rec, err := tavreli.ParseGame(string(data))
		require.NoError(t, err)
		w, _ := rec.Tag("White")
		b, _ := rec.Tag("Black")
		return w, b
	case "shogi":
		read := map[string]func([]byte) (*kifu.Record, error){"kif": kifu.ReadKIF, "csa": kifu.ReadCSA, "ki2": kifu.ReadKI2}[format]
		rec, err := read(data)
		require.NoError(t, err)
		return rec.Meta.Sente, rec.Meta.Gote
	case "chess", "tensor":
		var (
			imp []chess.Imported
			err error
		)
		if game == "chess" {
			imp, err = chess.ImportPGN(bytes.NewReader(data))
		} else {
			var g *tensor.Game
			g, err = tensor.New(nil)
			require.NoError(t, err)
			imp, err = g.ImportPGN(bytes.NewReader(data))
		}
		require.NoError(t, err)
		require.Len(t, imp, 1)
		w, _ := imp[0].Record.Tag("White")
		b, _ := imp[0].Record.Tag("Black")
		return w, b
	case "kvaa":
		rec, err := kvaa.ParseRecord(string(data))
		require.NoError(t, err)
		s, _ := rec.Tag("South")
		n, _ := rec.Tag("North")
		return s, n
	}
	t.Fatalf("no reader for %s", game)
	return "", ""
}
