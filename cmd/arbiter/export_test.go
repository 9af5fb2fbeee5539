package main

import (
	"context"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arbiter/director"
	"arbiter/internal/config"
	"arbiter/rules"
	"arbiter/store"
)

// TestExportFileAllOrNothing: a failed export leaves nothing behind, so
// the corrected command succeeds; an existing file is never replaced.
func TestExportFileAllOrNothing(t *testing.T) {
	dir := t.TempDir()
	dbPath := filepath.Join(dir, "event.db")
	db, err := store.Open(dbPath, nil)
	require.NoError(t, err)
	g := store.Game{Game: "chess", First: "Ivanov\nIvan", Second: "Petrov"}
	require.NoError(t, db.CreateGame(&g))
	require.NoError(t, db.Close())
	out := filepath.Join(dir, "out", "x.pgn")
	require.NoError(t, os.Mkdir(filepath.Dir(out), 0o755))

	listing := func() []string {
		entries, err := os.ReadDir(filepath.Dir(out))
		require.NoError(t, err)
		var names []string
		for _, e := range entries {
			names = append(names, e.Name())
		}
		return names
	}

	for _, failing := range [][]string{
		{"--game", "30"},                   // no such game
		{"--game", "1", "--format", "kif"}, // no such format for chess
		{"--tournament", "7"},              // no such tournament
	} {
		code, _ := runCLI(t, append([]string{"export", "--database", dbPath, "-o", out}, failing...)...)
		assert.NotEqual(t, exitOK, code, "%v", failing)
		assert.Empty(t, listing(), "%v leaves nothing behind", failing)
	}

	code, _ := runCLI(t, "export", "--database", dbPath, "--game", "1", "-o", out)
	require.Equal(t, exitOK, code, "the corrected command")
	data, err := os.ReadFile(out)
	require.NoError(t, err)
	assert.Contains(t, string(data), "[White \"Ivanov Ivan\"]\n")
	info, err := os.Stat(out)
	require.NoError(t, err)
	assert.Equal(t, os.FileMode(0o644), info.Mode().Perm())
	assert.Equal(t, []string{"x.pgn"}, listing())

	// Never overwritten, whether the new export would succeed or fail.
	require.NoError(t, os.WriteFile(out, []byte("the arbiter's own file"), 0o644))
	for _, args := range [][]string{{"--game", "1"}, {"--game", "30"}} {
		code, _ = runCLI(t, append([]string{"export", "--database", dbPath, "-o", out}, args...)...)
		assert.Equal(t, exitError, code, "%v", args)
		data, err = os.ReadFile(out)
		require.NoError(t, err)
		assert.Equal(t, "the arbiter's own file", string(data))
		assert.Equal(t, []string{"x.pgn"}, listing())
	}
}

// TestWriteNewFileRace: when the name is taken while the export is being
// written, the other file is kept and the export fails.
func TestWriteNewFileRace(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "r.trf")
	err := writeNewFile(path, func(w io.Writer) error {
		require.NoError(t, os.WriteFile(path, []byte("first"), 0o644))
		_, err := io.WriteString(w, "second")
		return err
	})
	require.ErrorIs(t, err, fs.ErrExist)
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	assert.Equal(t, "first", string(data))
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	assert.Len(t, entries, 1)
}

// TestExportTRFChecks: a tournament's TRF with a forfeit and a bye,
// exported by the command, reads back with "arbiter check --dutch": every
// round agrees with the pairing engine, and the forfeit is + and -.
func TestExportTRFChecks(t *testing.T) {
	dir := t.TempDir()
	dbPath := filepath.Join(dir, "event.db")
	db, err := store.Open(dbPath, nil)
	require.NoError(t, err)
	cfg := &config.Config{Event: config.Event{Name: "Forfeits"}}
	tc := config.Tournament{Name: "Swiss", Game: "chess", System: "swiss-dutch", Rounds: 3, TieBreaks: []string{"BH"}}
	for i := range 5 {
		tc.Players = append(tc.Players, config.Player{Name: fmt.Sprintf("Player %d", i+1), Rating: 2000 - 10*i})
	}
	cfg.Tournaments = []config.Tournament{tc}
	d, err := director.New(directorConfig(cfg), db, slog.New(slog.DiscardHandler))
	require.NoError(t, err)
	for round := 1; round <= 2; round++ {
		require.NoError(t, d.PairNextRound(context.Background(), 1, "test", ""))
		rounds, err := db.Rounds(1)
		require.NoError(t, err)
		for _, p := range rounds[round-1].Pairings {
			if p.GameID == 0 {
				continue
			}
			o := rules.Win(rules.Second, rules.Resignation)
			if round == 1 && p.Board == 1 {
				o = rules.Win(rules.Second, rules.Forfeit)
			}
			require.NoError(t, db.SetResult(p.GameID, o.Result.String(), o.Reason.String(), time.Unix(0, 0), nil))
		}
	}
	require.NoError(t, db.Close())

	out := filepath.Join(dir, "swiss.trf")
	code, _ := runCLI(t, "export", "--database", dbPath, "--tournament", "1", "-o", out)
	require.Equal(t, exitOK, code)
	data, err := os.ReadFile(out)
	require.NoError(t, err)
	assert.Regexp(t, `(?m)^001 .{87}   \d b \+`, string(data), "the forfeit winner")
	assert.Regexp(t, `(?m)^001 .{87}   \d w -`, string(data), "the forfeit loser")
	assert.Contains(t, string(data), "0000 - U", "the bye")
	code, report := runCLI(t, "check", "--dutch", out)
	assert.Equal(t, exitOK, code, report)
	assert.Contains(t, report, "every round agrees")
}
