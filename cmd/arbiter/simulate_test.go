package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/crypto/bcrypt"

	"arbiter/store"
)

// simulateCLI runs "arbiter simulate" in the background until ctx ends,
// and returns its output and where its error arrives.
func simulateCLI(ctx context.Context, args ...string) (*syncBuffer, <-chan error) {
	out := &syncBuffer{}
	root := newRootCmd()
	root.SetArgs(append([]string{"simulate"}, args...))
	root.SetOut(out)
	root.SetErr(out)
	errc := make(chan error, 1)
	go func() { errc <- root.ExecuteContext(ctx) }()
	return out, errc
}

// A board of "arbiter simulate" ends its games within --plies as people
// do, so that an event played on it completes: the daemon, started with
// --exit-when-done on a real event's configuration whose one port is the
// simulated board, stops by itself once the game has its result, and
// the simulation stops when told to.
func TestSimulateEndsItsGames(t *testing.T) {
	if testing.Short() {
		t.Skip("plays games on a simulated board")
	}
	t.Parallel()
	dir := t.TempDir()
	link := filepath.Join(dir, "board0")
	hash, err := bcrypt.GenerateFromPassword([]byte("a venue password"), bcrypt.MinCost)
	require.NoError(t, err)
	cfgPath := filepath.Join(dir, "club.yaml")
	require.NoError(t, os.WriteFile(cfgPath, fmt.Appendf(nil, `event: {name: "Club night", database: %q}
http: {listen: "127.0.0.1:0"}
log: {level: warn}
console:
  users: [{name: chief, password: %q}]
boards:
  scan: 200ms
  ports: [{path: %q}]
tournaments:
  - name: Blitz
    game: chess
    system: double-round-robin
    rounds: 2
    time_control: "5m+3s"
    auto_pair: true
    players: [{name: Nils Berg, rating: 1980}, {name: Ana Silva, rating: 1930}]
`, filepath.Join(dir, "event.db"), hash, link), 0o600))

	simCtx, stopSim := context.WithCancel(context.Background())
	defer stopSim()
	simOut, simErr := simulateCLI(simCtx, "--game", "chess", "--link", link, "--id", "SIM-7", "--plies", "10", "--speed", "40", "--seed", "3")
	require.Eventually(t, func() bool { _, err := os.Stat(link); return err == nil }, 10*time.Second, 10*time.Millisecond, "no board:\n%s", simOut.String())

	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	root := newRootCmd()
	root.SetArgs([]string{"serve", "--config", cfgPath, "--exit-when-done"})
	var out bytes.Buffer
	root.SetOut(&out)
	require.NoError(t, root.ExecuteContext(ctx))
	require.NoError(t, ctx.Err(), "the event did not complete:\n%s\nsimulate:\n%s", out.String(), simOut.String())
	assert.Contains(t, out.String(), "every tournament is complete")

	db, err := store.Open(filepath.Join(dir, "event.db"), &store.Options{ReadOnly: true})
	require.NoError(t, err)
	defer db.Close()
	games, err := db.Games()
	require.NoError(t, err)
	require.Len(t, games, 2, "both rounds played on the board")
	for _, g := range games {
		assert.NotEmpty(t, g.Result, "game %d", g.ID)
		assert.Contains(t, []string{"resignation", "agreement", "checkmate", "stalemate"}, g.Reason, "game %d", g.ID)
		moves, err := db.Moves(g.ID)
		require.NoError(t, err)
		assert.LessOrEqual(t, len(moves), 10, "game %d within --plies", g.ID)
		assert.Equal(t, "SIM-7", g.BoardID)
	}
	assert.Regexp(t, regexp.MustCompile(`game 1: (1-0|0-1|1/2-1/2) \w+ \(ended by`), simOut.String())
	t.Logf("simulate:\n%s", simOut.String())

	stopSim()
	select {
	case err := <-simErr:
		assert.NoError(t, err)
	case <-time.After(10 * time.Second):
		t.Fatal("simulate did not stop")
	}
	_, err = os.Lstat(link)
	assert.True(t, os.IsNotExist(err), "the board's link is removed")
}

// TestSimulateChild is "arbiter simulate" for TestSimulateStopsOnSignals.
func TestSimulateChild(t *testing.T) {
	link := os.Getenv("ARBITER_SIMULATE_CHILD")
	if link == "" {
		t.Skip("runs only as the child of TestSimulateStopsOnSignals")
	}
	os.Exit(run(context.Background(), []string{"simulate", "--game", "chess", "--link", link}))
}

// "arbiter simulate" stops on SIGINT and on SIGTERM, with its board
// unplugged, also while it waits for a daemon that never comes.
func TestSimulateStopsOnSignals(t *testing.T) {
	if testing.Short() {
		t.Skip("starts the test binary")
	}
	t.Parallel()
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM} {
		link := filepath.Join(t.TempDir(), "board")
		cmd := exec.Command(os.Args[0], "-test.run=^TestSimulateChild$", "-test.count=1")
		cmd.Env = append(os.Environ(), "ARBITER_SIMULATE_CHILD="+link)
		var out bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &out
		require.NoError(t, cmd.Start())
		require.Eventually(t, func() bool { _, err := os.Stat(link); return err == nil }, 30*time.Second, 10*time.Millisecond)
		require.NoError(t, cmd.Process.Signal(sig))
		done := make(chan error, 1)
		go func() { done <- cmd.Wait() }()
		select {
		case err := <-done:
			assert.NoError(t, err, "%v: %s", sig, out.String())
		case <-time.After(10 * time.Second):
			_ = cmd.Process.Kill()
			t.Fatalf("%v: simulate did not stop:\n%s", sig, out.String())
		}
		_, err := os.Lstat(link)
		assert.True(t, os.IsNotExist(err), "%v: the link is removed", sig)
		assert.True(t, strings.Contains(out.String(), "on "), "%s", out.String())
	}
}
