package main

import (
	"bytes"
	"context"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/text/encoding/charmap"
	"golang.org/x/text/unicode/norm"

	"arbiter/director"
	"arbiter/export"
	"arbiter/internal/config"
	"arbiter/store"
)

// importConfig writes an event configuration whose database is in dir,
// with the tournaments given as YAML, and returns its path.
func importConfig(t *testing.T, dir, tournaments string) string {
	t.Helper()
	path := filepath.Join(dir, "event.yaml")
	text := fmt.Sprintf("event:\n  name: \"Archive 2026\"\n  database: %q\ntournaments:\n%s", filepath.Join(dir, "event.db"), tournaments)
	require.NoError(t, os.WriteFile(path, []byte(text), 0o644))
	return path
}

// exportGames exports stored games with `arbiter export` one after
// another.
func exportGames(t *testing.T, dbPath, format string, ids ...uint64) string {
	t.Helper()
	var all strings.Builder
	for _, id := range ids {
		code, out := runCLI(t, "export", "--database", dbPath, "--event", "Archive 2026", "--game", strconv.FormatUint(id, 10), "--format", format)
		require.Equal(t, exitOK, code)
		all.WriteString(out)
	}
	return all.String()
}

// TestImportRecordsExportUnchanged: a PGN of two games and a KIF game,
// imported into a fresh event, export back exactly as they were: moves,
// clocks, move times, results, players, dates and time controls.
func TestImportRecordsExportUnchanged(t *testing.T) {
	dir := t.TempDir()
	cfg := importConfig(t, dir, `  - name: "Open"
    game: "chess"
    system: "swiss-dutch"
    rounds: 1
    players: [{name: "P1"}, {name: "P2"}]
`)
	pgn := filepath.Join("testdata", "import", "two-games.pgn")
	kif := filepath.Join("testdata", "import", "game.kif")
	code, out := runCLI(t, "import", "--config", cfg, pgn, kif)
	require.Equal(t, exitOK, code, out)
	assert.Contains(t, out, "two-games.pgn: game 2: stored as game 2, outside any tournament: Carla Diaz - Dag Eriksen 1/2-1/2 (16 moves)")

	dbPath := filepath.Join(dir, "event.db")
	want, err := os.ReadFile(pgn)
	require.NoError(t, err)
	assert.Equal(t, string(want), exportGames(t, dbPath, "pgn", 1, 2))
	want, err = os.ReadFile(kif)
	require.NoError(t, err)
	assert.Equal(t, string(want), exportGames(t, dbPath, "kif", 3))

	// Audited, one action per game.
	db, err := store.Open(dbPath, &store.Options{ReadOnly: true})
	require.NoError(t, err)
	defer db.Close()
	actions, err := db.Actions(0)
	require.NoError(t, err)
	require.Len(t, actions, 3)
	assert.Equal(t, "import", actions[2].What)
	assert.Equal(t, uint64(3), actions[2].GameID)
	assert.Contains(t, actions[2].Data, "game.kif game 1: Haruto Sato - Yui Suzuki, 28 moves, 0-1")
}

// TestImportBadGameStoresNothing: one illegal move anywhere, and the
// error names the file, the game, the move's number and its text; nothing
// is stored, the good games neither.
func TestImportBadGameStoresNothing(t *testing.T) {
	dir := t.TempDir()
	cfg := importConfig(t, dir, "")
	good, err := os.ReadFile(filepath.Join("testdata", "import", "two-games.pgn"))
	require.NoError(t, err)
	bad := strings.Replace(string(good), "8. Ne5 Ng8", "8. Ne5 Ke3", 1)
	require.NotEqual(t, string(good), bad)
	path := filepath.Join(dir, "bad.pgn")
	require.NoError(t, os.WriteFile(path, []byte(bad), 0o644))

	root := newRootCmd()
	root.SetArgs([]string{"import", "--config", cfg, filepath.Join("testdata", "import", "game.kif"), path})
	root.SetOut(&bytes.Buffer{})
	root.SetErr(&bytes.Buffer{})
	err = root.ExecuteContext(context.Background())
	require.Error(t, err)
	for _, want := range []string{"nothing was imported", "bad.pgn", "game 2", "ply 16", "Ke3"} {
		assert.Contains(t, err.Error(), want)
	}
	db, err := store.Open(filepath.Join(dir, "event.db"), &store.Options{ReadOnly: true})
	require.NoError(t, err)
	defer db.Close()
	games, err := db.Games()
	require.NoError(t, err)
	assert.Empty(t, games, "not even the good games")
	actions, err := db.Actions(0)
	require.NoError(t, err)
	assert.Empty(t, actions)
}

// TestImportIntoRound: the games of a round played without boards go to
// their boards by the players' names, whatever their case, spacing or
// Unicode form of an accent; the results count in the tournament's
// report; a game on the wrong board is refused.
func TestImportIntoRound(t *testing.T) {
	dir := t.TempDir()
	cfgPath := importConfig(t, dir, `  - name: "Open"
    game: "chess"
    system: "round-robin"
    rounds: 3
    tiebreaks: ["SB"]
    players: [{name: "Anna Berg", rating: 2500}, {name: "Boris Chen", rating: 2400}, {name: "Carla Díaz"}, {name: "Dag Eriksen"}]
`)
	cfg, err := config.Load(cfgPath, nil)
	require.NoError(t, err)
	db, err := store.Open(cfg.Event.Database, nil)
	require.NoError(t, err)
	d, err := director.New(directorConfig(cfg), db, slog.New(slog.DiscardHandler))
	require.NoError(t, err)
	require.NoError(t, d.PairNextRound(context.Background(), 1, "test", ""))
	rounds, err := db.Rounds(1)
	require.NoError(t, err)
	players, err := db.Players(1)
	require.NoError(t, err)
	name := func(id int) string { return players[id-1].Name }
	var pgn strings.Builder
	for _, p := range rounds[0].Pairings {
		fmt.Fprintf(&pgn, "[Event \"x\"]\n[Round \"1.%d\"]\n[White \"%s\"]\n[Black \"%s\"]\n[Result \"1-0\"]\n\n1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n\n",
			p.Board, strings.ToUpper(name(p.First)), norm.NFD.String(strings.ReplaceAll(name(p.Second), " ", "  ")+" "))
	}
	require.NoError(t, db.Close())
	path := filepath.Join(dir, "round1.pgn")
	require.NoError(t, os.WriteFile(path, []byte(pgn.String()), 0o644))

	// The wrong colours are refused.
	swapped := filepath.Join(dir, "swapped.pgn")
	p1 := rounds[0].Pairings[0]
	require.NoError(t, os.WriteFile(swapped, []byte(fmt.Sprintf("[White \"%s\"]\n[Black \"%s\"]\n[Result \"*\"]\n\n1. e4 *\n", name(p1.Second), name(p1.First))), 0o644))
	code, _ := runCLI(t, "import", "--config", cfgPath, "--tournament", "1", "--round", "1", swapped)
	assert.Equal(t, exitError, code)

	code, out := runCLI(t, "import", "--config", cfgPath, "--tournament", "1", path)
	require.Equal(t, exitOK, code, out)
	assert.Contains(t, out, "Open round 1 board 2")

	db, err = store.Open(cfg.Event.Database, &store.Options{ReadOnly: true})
	require.NoError(t, err)
	defer db.Close()
	rounds, err = db.Rounds(1)
	require.NoError(t, err)
	for _, p := range rounds[0].Pairings {
		assert.Equal(t, "1-0", p.Result, "board %d", p.Board)
		g, err := db.Game(p.GameID)
		require.NoError(t, err)
		assert.Equal(t, "checkmate", g.Reason)
		moves, err := db.Moves(p.GameID)
		require.NoError(t, err)
		assert.Len(t, moves, 7)
	}
	var buf bytes.Buffer
	require.NoError(t, export.WriteTRF(&buf, director.Reports{DB: db}, 1))
	assert.Contains(t, buf.String(), " w 1")
}

// TestImportLatin1File: a PGN from an older Windows tool (Windows-1252,
// CRLF) is imported with a warning that says how it was read; its names
// are stored right and its tags come back in the export.
func TestImportLatin1File(t *testing.T) {
	dir := t.TempDir()
	cfg := importConfig(t, dir, `  - name: "Open"
    game: "chess"
    system: "swiss-dutch"
    rounds: 1
    players: [{name: "P1"}, {name: "P2"}]
`)
	text := "[Event \"Café Open\"]\r\n[Site \"Zürich SUI\"]\r\n[Date \"2019.05.04\"]\r\n[Round \"3\"]\r\n" +
		"[White \"Müller, Jörg\"]\r\n[Black \"Señor, José\"]\r\n[Result \"1-0\"]\r\n[WhiteElo \"2301\"]\r\n[ECO \"C20\"]\r\n\r\n" +
		"1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\r\n"
	latin1, err := charmap.Windows1252.NewEncoder().String(text)
	require.NoError(t, err)
	file := filepath.Join(dir, "old.pgn")
	require.NoError(t, os.WriteFile(file, []byte(latin1), 0o644))
	code, out := runCLI(t, "import", "--config", cfg, file)
	require.Equal(t, exitOK, code, out)
	assert.Contains(t, out, "warning: "+file+": not UTF-8: read as Windows-1252 (Latin-1)")
	assert.Contains(t, out, "Müller, Jörg - Señor, José 1-0")
	pgn := exportGames(t, filepath.Join(dir, "event.db"), "pgn", 1)
	for _, tag := range []string{`[Event "Café Open"]`, `[Site "Zürich SUI"]`, `[Date "2019.05.04"]`, `[Round "3"]`,
		`[White "Müller, Jörg"]`, `[WhiteElo "2301"]`, `[ECO "C20"]`, `[Termination "normal"]`} {
		assert.Contains(t, pgn, tag+"\n")
	}
}
