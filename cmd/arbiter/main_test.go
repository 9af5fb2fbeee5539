package main

import (
	"bytes"
	"context"
	"encoding/binary"
	"io"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arbiter/store"
)

// runCLI runs the command line in-process and returns its exit code and
// standard output.
func runCLI(t *testing.T, args ...string) (int, string) {
	t.Helper()
	return runCLIContext(t, context.Background(), args...)
}

// runCLIContext runs the command line in-process until ctx ends, as
// runCLI does.
func runCLIContext(t *testing.T, ctx context.Context, args ...string) (int, string) {
	t.Helper()
	var out, errOut bytes.Buffer
	root := newRootCmd()
	root.SetArgs(args)
	root.SetOut(&out)
	root.SetErr(&errOut)
	if err := root.ExecuteContext(ctx); err != nil {
		t.Logf("arbiter %v: %v", args, err)
		return exitCode(err), out.String()
	}
	return exitOK, out.String()
}

func TestUsageErrors(t *testing.T) {
	code, _ := runCLI(t, "perft", "--game", "no-such-game")
	assert.Equal(t, exitUsage, code)
	code, _ = runCLI(t, "perft", "--depth", "x")
	assert.Equal(t, exitUsage, code)
	code, _ = runCLI(t, "no-such-command")
	assert.NotEqual(t, exitOK, code)
}

func TestDBCommands(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "event.db")
	db, err := store.Open(path, nil)
	require.NoError(t, err)
	g := store.Game{Game: "chess", First: "A", Second: "B"}
	require.NoError(t, db.CreateGame(&g))

	// Held by a running daemon: a distinct exit code.
	code, _ := runCLI(t, "db", "check", "--database", path)
	assert.Equal(t, exitDBLocked, code)
	require.NoError(t, db.Close())

	code, out := runCLI(t, "db", "check", "--database", path)
	assert.Equal(t, exitOK, code)
	assert.Contains(t, out, "ok")
	code, _ = runCLI(t, "db", "backup", "--database", path, filepath.Join(dir, "b.db"))
	assert.Equal(t, exitOK, code)
	code, _ = runCLI(t, "db", "compact", "--database", path, filepath.Join(dir, "c.db"))
	assert.Equal(t, exitOK, code)
	code, _ = runCLI(t, "db", "export", "--database", path, filepath.Join(dir, "event.jsonl"))
	assert.Equal(t, exitOK, code)
	code, _ = runCLI(t, "db", "import", "--database", filepath.Join(dir, "copy.db"), filepath.Join(dir, "event.jsonl"))
	assert.Equal(t, exitOK, code)
	code, out = runCLI(t, "db", "check", "--database", filepath.Join(dir, "copy.db"))
	assert.Equal(t, exitOK, code, out)

	// A foreign file is refused and left alone.
	notes := filepath.Join(dir, "notes.txt")
	require.NoError(t, os.WriteFile(notes, []byte("not a database, but the arbiter's notes"), 0o600))
	code, _ = runCLI(t, "db", "check", "--database", notes)
	assert.Equal(t, exitDamaged, code)
	data, _ := os.ReadFile(notes)
	assert.Equal(t, "not a database, but the arbiter's notes", string(data))
}

// An invalid configuration is refused at start with every problem listed
// and its own exit code.
func TestServeRefusesBadConfig(t *testing.T) {
	path := filepath.Join(t.TempDir(), "bad.yaml")
	require.NoError(t, os.WriteFile(path, []byte("http:\n  listen: nowhere\nlog:\n  level: loud\n"), 0o600))
	var out, errOut bytes.Buffer
	root := newRootCmd()
	root.SetArgs([]string{"serve", "--config", path})
	root.SetOut(&out)
	root.SetErr(&errOut)
	err := root.ExecuteContext(context.Background())
	require.Error(t, err)
	assert.Equal(t, exitConfig, exitCode(err))
	assert.Contains(t, err.Error(), "http.listen")
	assert.Contains(t, err.Error(), "log.level")
}

// A configuration that cannot be served is refused with exit code 3
// before anything is opened or written: a new database is not created, an
// existing one is not changed.
func TestServeRefusesBeforeOpeningTheDatabase(t *testing.T) {
	busy, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	defer busy.Close()
	dir := t.TempDir()
	write := func(name, text string) string {
		path := filepath.Join(dir, name)
		require.NoError(t, os.WriteFile(path, []byte(text), 0o600))
		return path
	}
	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"listen address in the file", []string{"--config", write("listen.yaml", "http:\n  listen: nowhere\n")}, "http.listen"},
		{"listen address as a flag", []string{"--listen", "nowhere"}, "flag --listen"},
		{"address in use", []string{"--listen", busy.Addr().String()}, "cannot listen on"},
		{"missing file", []string{"--config", filepath.Join(dir, "no-such.yaml")}, "no such configuration file"},
		{"empty file", []string{"--config", write("empty.yaml", "")}, "the file is empty"},
		{"unknown key", []string{"--config", write("typo.yaml", "http:\n  listne: 127.0.0.1:0\n")}, "did you mean listen?"},
		{"rounds with a fraction", []string{"--config", write("rounds.yaml", strings.Replace(eventYAML, "rounds: 3", "rounds: 2.5", 1))}, `tournaments[0].rounds = "2.5": want a whole number`},
		{"players_trf missing", []string{"--config", write("trf.yaml", eventYAML+`  - {name: "Second", game: chess, system: swiss-dutch, rounds: 3, players_trf: "`+filepath.Join(dir, "no-such.trf")+`"}`+"\n")},
			"tournaments[1].players_trf"},
		{"push token not set", []string{"--listen", "127.0.0.1:0", "--config", write("push.yaml", `tournaments:
  - {name: Open, game: chess, system: round-robin, rounds: 1, players: [{name: A}, {name: B}]}
broadcast:
  push:
    - {url: "https://lichess.org/api/broadcast/round/abcd1234/push", tournament: Open, round: 1, token_env: ARBITER_TEST_UNSET_PUSH_TOKEN}
`)}, "line 5: broadcast.push[0].token_env"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fresh := filepath.Join(t.TempDir(), "new.db")
			code, _, err := serveCLI(t, append([]string{"serve", "--database", fresh}, tc.args...)...)
			assert.Equal(t, exitConfig, code)
			assert.ErrorContains(t, err, tc.want)
			assert.NoFileExists(t, fresh, "the database was created")

			old := filepath.Join(t.TempDir(), "old.db")
			db, err := store.Open(old, nil)
			require.NoError(t, err)
			require.NoError(t, db.CreateGame(&store.Game{Game: "chess", First: "A", Second: "B"}))
			require.NoError(t, db.Close())
			before, err := os.ReadFile(old)
			require.NoError(t, err)
			code, _, _ = serveCLI(t, append([]string{"serve", "--database", old}, tc.args...)...)
			assert.Equal(t, exitConfig, code)
			after, err := os.ReadFile(old)
			require.NoError(t, err)
			assert.True(t, bytes.Equal(before, after), "the database was changed")
		})
	}
}

// eventYAML is a small event of one Swiss, its tournaments' list last.
const eventYAML = `event: {name: "Club Open"}
tournaments:
  - name: "Open"
    game: chess
    system: swiss-dutch
    rounds: 3
    players:
      - {name: "Nils Berg", rating: 1980}
      - {name: "Ana Silva", rating: 1930}
      - {name: "Eva Horvath", rating: 2040}
      - {name: "Jan Kowalski", rating: 2250}
      - {name: "Sofia Rossi", rating: 2190}
      - {name: "Lucas Martin", rating: 2110}
`

// serveCLI is runCLI that also returns the error.
func serveCLI(t *testing.T, args ...string) (int, string, error) {
	t.Helper()
	var out, errOut bytes.Buffer
	root := newRootCmd()
	root.SetArgs(args)
	root.SetOut(&out)
	root.SetErr(&errOut)
	err := root.ExecuteContext(context.Background())
	if err != nil {
		return exitCode(err), out.String(), err
	}
	return exitOK, out.String(), nil
}

// A damaged database file is refused by serve and db check with its own
// exit code and advice, before anything is written.
func TestDamagedDatabaseRefused(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "event.db")
	db, err := store.Open(good, nil)
	require.NoError(t, err)
	for range 40 {
		g := store.Game{Game: "chess", First: "A", Second: "B"}
		require.NoError(t, db.CreateGame(&g))
	}
	require.NoError(t, db.Close())
	data, err := os.ReadFile(good)
	require.NoError(t, err)

	truncated := filepath.Join(dir, "t.db")
	require.NoError(t, os.WriteFile(truncated, data[:len(data)/2], 0o600))
	empty := filepath.Join(dir, "e.db")
	require.NoError(t, os.WriteFile(empty, nil, 0o600))
	meta := filepath.Join(dir, "m.db")
	require.NoError(t, os.WriteFile(meta, flipActiveMeta(data, 60), 0o600))
	foreign := filepath.Join(dir, "f.db")
	require.NoError(t, os.WriteFile(foreign, bytes.Repeat([]byte("not an event "), 1000), 0o600))
	cases := []struct {
		name, path, want string
	}{
		{"truncated", truncated, "truncated"},
		{"empty", empty, "empty"},
		{"active meta page", meta, "arbiter db repair --database " + meta},
		{"another format", foreign, "not an arbiter database"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			before, _ := os.ReadFile(c.path)
			for _, args := range [][]string{
				{"serve", "--database", c.path, "--listen", "127.0.0.1:0"},
				{"db", "check", "--database", c.path},
			} {
				root := newRootCmd()
				root.SetArgs(args)
				root.SetOut(io.Discard)
				// Without the check serve would start the demo: stop it.
				ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
				defer cancel()
				err := root.ExecuteContext(ctx)
				require.Error(t, err, "%v", args)
				assert.Equal(t, exitDamaged, exitCode(err), "%v", args)
				assert.Contains(t, err.Error(), c.want)
				if c.name != "another format" {
					assert.Contains(t, err.Error(), "backup")
				}
				assert.Contains(t, err.Error(), "left untouched")
				assert.NotContains(t, err.Error(), "goroutine")
			}
			after, _ := os.ReadFile(c.path)
			assert.Equal(t, before, after, "the file must be left untouched")
		})
	}
}

// flipActiveMeta returns data (a database of page size 4096) with byte off
// of its active meta page's data flipped.
func flipActiveMeta(data []byte, off int) []byte {
	bad := bytes.Clone(data)
	txid := func(page int) uint64 { return binary.LittleEndian.Uint64(data[page*4096+16+48:]) }
	active := 0
	if txid(1) > txid(0) {
		active = 1
	}
	bad[active*4096+16+off] ^= 0xff
	return bad
}

// A damaged active meta page, as an arbiter meets it: serve refuses the
// file (exit 6) and advises db repair; db repair says what accepting the
// previous transaction loses and writes nothing; with --accept-previous it
// repairs the file in place, the original kept aside byte for byte, and
// the event opens again without its last move.
func TestDBRepair(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "event.db")
	db, err := store.Open(path, nil)
	require.NoError(t, err)
	for range 3 {
		g := store.Game{Game: "chess", First: "A", Second: "B"}
		require.NoError(t, db.CreateGame(&g))
	}
	for ply, san := range []string{"e4", "e5", "Nf3"} {
		require.NoError(t, db.AppendMove(&store.Move{GameID: 3, Ply: ply + 1, Notation: san, Canonical: san}))
	}
	require.NoError(t, db.Close())
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	bad := flipActiveMeta(data, 58)
	require.NoError(t, os.WriteFile(path, bad, 0o600))

	code, out := runCLI(t, "db", "repair", "--database", path)
	assert.Equal(t, exitDamaged, code)
	assert.Contains(t, out, "Accepting transaction")
	assert.Contains(t, out, "  - game 3 move 3 Nf3\n")
	after, err := os.ReadFile(path)
	require.NoError(t, err)
	assert.Equal(t, bad, after, "nothing is written without --accept-previous")

	code, out = runCLI(t, "db", "repair", "--database", path, "--accept-previous")
	require.Equal(t, exitOK, code, out)
	assert.Contains(t, out, "The original file is kept as "+path+".damaged-")
	matches, err := filepath.Glob(path + ".damaged-*")
	require.NoError(t, err)
	require.Len(t, matches, 1)
	aside, err := os.ReadFile(matches[0])
	require.NoError(t, err)
	assert.Equal(t, bad, aside, "the original is kept aside as it was")

	code, out = runCLI(t, "db", "check", "--database", path)
	assert.Equal(t, exitOK, code, out)
	db, err = store.Open(path, nil)
	require.NoError(t, err)
	defer db.Close()
	ms, err := db.Moves(3)
	require.NoError(t, err)
	assert.Len(t, ms, 2, "the last transaction's move is gone, knowingly")

	code, out = runCLI(t, "db", "repair", "--database", path)
	assert.Equal(t, exitDBLocked, code, "a database in use is not repaired: %s", out)
}

// arbiter replay stops when it is interrupted (SIGINT or SIGTERM cancel
// the command's context, see main): it says so and replays no further
// game, instead of going through them all.
func TestReplayStopsWhenInterrupted(t *testing.T) {
	path := filepath.Join(t.TempDir(), "event.db")
	db, err := store.Open(path, nil)
	require.NoError(t, err)
	for range 3 {
		require.NoError(t, db.CreateGame(&store.Game{Game: "chess", First: "A", Second: "B", BoardID: "DGT-00001"}))
	}
	require.NoError(t, db.Close())
	ctx, cancel := context.WithCancel(context.Background())
	cancel() // as the signal does
	var out bytes.Buffer
	root := newRootCmd()
	root.SetArgs([]string{"replay", "--database", path, "--all"})
	root.SetOut(&out)
	root.SetErr(&out)
	err = root.ExecuteContext(ctx)
	require.ErrorContains(t, err, "replay interrupted after 0 of 3 games")
	require.ErrorIs(t, err, context.Canceled)
	assert.NotContains(t, out.String(), "game 1", "no game is replayed once interrupted")
}
