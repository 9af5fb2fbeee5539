package export_test

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/text/encoding/charmap"

	"arbiter/export"
)

// realPGN is a game as databases and older tools write it: every tag of
// the Seven Tag Roster, the players' Elo and FIDE ids, the opening, a tag
// of the tool's own, and a Termination the result agrees with.
const realPGN = `[Event "Tata Steel Müller Memorial"]
[Site "Wijk aan Zee NED"]
[Date "2024.01.20"]
[Round "7.3"]
[White "Müller, Zoë"]
[Black "Grünfeld, Ernö"]
[Result "1-0"]
[WhiteElo "2715"]
[BlackElo "2688"]
[WhiteFideId "1503014"]
[BlackFideId "4100018"]
[WhiteTitle "GM"]
[ECO "C42"]
[Opening "Petrov's Defence"]
[Annotator "Jörg Nüß"]
[PlyCount "9"]
[Termination "normal"]
[EventDate "2024.01.13"]

1. e4 e5 2. Nf3 Nf6 3. Nxe5 d6 4. Nf3 Nxe4 5. Qe2 1-0
`

// TestImportRealFiles: files as other tools write them are read: a UTF-8
// byte order mark, Windows-1252 (Latin-1) text with a warning that says
// so, CRLF line ends; every tag comes back in the export, and the
// Termination agrees with the result.
func TestImportRealFiles(t *testing.T) {
	latin1, err := charmap.Windows1252.NewEncoder().String(realPGN)
	require.NoError(t, err)
	crlf := strings.ReplaceAll(realPGN, "\n", "\r\n")
	for _, tc := range []struct {
		name    string
		data    []byte
		warning string
	}{
		{"utf-8", []byte(realPGN), ""},
		{"byte order mark", append([]byte("\uFEFF"), realPGN...), ""},
		{"crlf", []byte(crlf), ""},
		{"bom and crlf", append([]byte("\uFEFF"), crlf...), ""},
		{"windows-1252", []byte(latin1), "g.pgn: not UTF-8: read as Windows-1252 (Latin-1)"},
		{"windows-1252 and crlf", []byte(strings.ReplaceAll(latin1, "\n", "\r\n")), "read as Windows-1252"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			games, warnings, err := export.ReadGames("g.pgn", tc.data, "")
			require.NoError(t, err)
			require.Len(t, games, 1)
			if tc.warning == "" {
				assert.Empty(t, warnings)
			} else {
				require.Len(t, warnings, 1)
				assert.Contains(t, warnings[0], tc.warning)
			}
			g := games[0]
			assert.Equal(t, "Müller, Zoë", g.Game.First)
			assert.Equal(t, "Grünfeld, Ernö", g.Game.Second)
			assert.Equal(t, "1-0", g.Game.Result)
			assert.Equal(t, 7, g.Round)
			assert.Equal(t, 3, g.Board)

			// Exported again, the record has every tag it came with.
			s := &export.Sheet{Event: "Import test", Game: g.Game, Moves: g.Moves}
			s.Game.ID = 1
			var buf bytes.Buffer
			require.NoError(t, s.Write(&buf, "pgn"))
			out := buf.String()
			for _, line := range strings.Split(realPGN, "\n") {
				if !strings.HasPrefix(line, "[") || strings.Contains(line, "Ernő") {
					continue
				}
				assert.Contains(t, out, line+"\n", "the export keeps %s", line)
			}
			assert.NotContains(t, out, "unterminated")

			// And reads back the same.
			again, _, err := export.ReadGames("again.pgn", buf.Bytes(), "")
			require.NoError(t, err)
			assert.Equal(t, g.Game.Tags, again[0].Game.Tags)
		})
	}
}

// TestImportedTermination: a decided game whose record gives no reason is
// exported with a Termination its result agrees with, in every format
// that has one.
func TestImportedTermination(t *testing.T) {
	for _, tc := range []struct{ name, pgn string }{
		{"no termination", "[White \"A\"]\n[Black \"B\"]\n[Result \"0-1\"]\n\n1. e4 e5 0-1\n"},
		{"normal", "[White \"A\"]\n[Black \"B\"]\n[Result \"0-1\"]\n[Termination \"normal\"]\n\n1. e4 e5 0-1\n"},
		{"contradicting", "[White \"A\"]\n[Black \"B\"]\n[Result \"0-1\"]\n[Termination \"unterminated\"]\n\n1. e4 e5 0-1\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			games, _, err := export.ReadGames("g.pgn", []byte(tc.pgn), "")
			require.NoError(t, err)
			s := &export.Sheet{Game: games[0].Game, Moves: games[0].Moves}
			s.Game.ID = 1
			var buf bytes.Buffer
			require.NoError(t, s.Write(&buf, "pgn"))
			assert.Contains(t, buf.String(), `[Termination "normal"]`)
			assert.NotContains(t, buf.String(), "unterminated")
			assert.NotContains(t, buf.String(), `[Reason "none"]`)
		})
	}
	// A game still running says so.
	games, _, err := export.ReadGames("g.pgn", []byte("[White \"A\"]\n[Black \"B\"]\n[Result \"*\"]\n[Termination \"normal\"]\n\n1. e4 e5 *\n"), "")
	require.NoError(t, err)
	s := &export.Sheet{Game: games[0].Game, Moves: games[0].Moves}
	s.Game.ID = 1
	var buf bytes.Buffer
	require.NoError(t, s.Write(&buf, "pgn"))
	assert.Contains(t, buf.String(), `[Termination "unterminated"]`)
}

// TestImportedTavreliTermination: the Tavreli record of a decided game
// without a reason has no "none" for its Termination.
func TestImportedTavreliTermination(t *testing.T) {
	f := newFixture(t)
	s := f.sheet(t, "tavreli")
	s.Game.Reason = ""
	var buf bytes.Buffer
	require.NoError(t, s.Write(&buf, "latin"))
	require.NotEmpty(t, s.Game.Result)
	assert.NotContains(t, buf.String(), `[Termination "none"]`)
}

// TestImportedPGNOutsideReaders: chess.js (strict) and pgn-parser read
// the export of a real file's import, with its tags.
func TestImportedPGNOutsideReaders(t *testing.T) {
	games, _, err := export.ReadGames("g.pgn", append([]byte("\uFEFF"), strings.ReplaceAll(realPGN, "\n", "\r\n")...), "")
	require.NoError(t, err)
	s := &export.Sheet{Event: "Import test", Game: games[0].Game, Moves: games[0].Moves}
	s.Game.ID = 1
	var buf bytes.Buffer
	require.NoError(t, s.Write(&buf, "pgn"))
	file := filepath.Join(t.TempDir(), "g.pgn")
	require.NoError(t, os.WriteFile(file, buf.Bytes(), 0o644))
	out, err := runNode(t, `
const fs = require('fs');
const { Chess } = require('chess.js');
const { parse } = require('@mliebelt/pgn-parser');
const text = fs.readFileSync(process.argv[process.argv.length - 1], 'utf8');
const c = new Chess();
c.loadPgn(text, { strict: true });
const h = c.getHeaders();
const games = parse(text, { startRule: 'games' });
console.log(JSON.stringify({ moves: c.history().length, event: h.Event, eco: h.ECO, elo: h.WhiteElo, termination: h.Termination,
  parsed: games.length, parsedMoves: games[0].moves.length }));
`, file)
	require.NoError(t, err, "%s\n%s", out, buf.String())
	assert.JSONEq(t, `{"moves":9,"event":"Tata Steel Müller Memorial","eco":"C42","elo":"2715","termination":"normal","parsed":1,"parsedMoves":9}`, strings.TrimSpace(out))
}

// TestPGNUTCTags: a game's PGN says when it began in UTC (UTCDate and
// UTCTime, which broadcasts show); a record that gives them is read to
// that second and written back the same; a record with only its date gets
// no made-up time.
func TestPGNUTCTags(t *testing.T) {
	f := newFixture(t)
	s := f.sheet(t, "chess")
	var buf bytes.Buffer
	require.NoError(t, s.Write(&buf, "pgn"))
	started := s.Game.Started.UTC()
	assert.Contains(t, buf.String(), `[UTCDate "`+started.Format("2006.01.02")+`"]`)
	assert.Contains(t, buf.String(), `[UTCTime "`+started.Format("15:04:05")+`"]`)

	with := "[White \"A\"]\n[Black \"B\"]\n[Date \"2026.11.21\"]\n[UTCDate \"2026.11.20\"]\n[UTCTime \"23:30:05\"]\n[Result \"*\"]\n\n1. e4 *\n"
	games, _, err := export.ReadGames("g.pgn", []byte(with), "")
	require.NoError(t, err)
	assert.Equal(t, "2026-11-20T23:30:05Z", games[0].Game.Started.Format(time.RFC3339))
	s = &export.Sheet{Game: games[0].Game, Moves: games[0].Moves}
	s.Game.ID = 1
	buf.Reset()
	require.NoError(t, s.Write(&buf, "pgn"))
	assert.Contains(t, buf.String(), "[UTCDate \"2026.11.20\"]\n[UTCTime \"23:30:05\"]\n")

	games, _, err = export.ReadGames("g.pgn", []byte("[White \"A\"]\n[Black \"B\"]\n[Date \"2026.11.21\"]\n[Result \"*\"]\n\n1. e4 *\n"), "")
	require.NoError(t, err)
	s = &export.Sheet{Game: games[0].Game, Moves: games[0].Moves}
	s.Game.ID = 1
	buf.Reset()
	require.NoError(t, s.Write(&buf, "pgn"))
	assert.Contains(t, buf.String(), `[UTCDate "2026.11.21"]`)
	assert.NotContains(t, buf.String(), "UTCTime")
}
