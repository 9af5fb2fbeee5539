package main

import (
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

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
