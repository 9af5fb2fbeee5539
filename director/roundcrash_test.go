package director_test

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arbiter/director"
	"arbiter/rules"
	"arbiter/store"
)

// crashConfig is the event the round-crash child plays: a Swiss of ten
// players, its rounds paired as soon as the one before ends.
func crashConfig() director.Config {
	tc := director.Tournament{Name: "Crash Swiss", Game: "chess", System: "swiss-dutch", Rounds: 3, TimeControl: "5m+3s", AutoPair: true}
	for i := range 10 {
		tc.Players = append(tc.Players, store.Player{Name: fmt.Sprintf("Player %d", i+1), Rating: 2000 - 10*i})
	}
	return director.Config{Name: "crash", Tournaments: []director.Tournament{tc}}
}

// TestRoundCrashChild is the daemon TestRoundWholeAfterCrash kills: it
// plays round 1 of the crash event by hand and, from the last result on
// (which pairs round 2), kills itself at the start of write transaction
// number ARBITER_ROUND_CRASH_AT, ARBITER_ROUND_CRASH_DELAY later. It runs
// only as that test's child.
func TestRoundCrashChild(t *testing.T) {
	path := os.Getenv("ARBITER_ROUND_CRASH_CHILD")
	if path == "" {
		t.Skip("runs only as the child of TestRoundWholeAfterCrash")
	}
	at, _ := strconv.Atoi(os.Getenv("ARBITER_ROUND_CRASH_AT"))
	delay, _ := time.ParseDuration(os.Getenv("ARBITER_ROUND_CRASH_DELAY"))
	db, err := store.Open(path, nil)
	require.NoError(t, err)
	d, err := director.New(crashConfig(), db, slog.New(slog.NewTextHandler(io.Discard, nil)))
	require.NoError(t, err)
	ctx := context.Background()
	go d.Run(ctx)
	id := d.TournamentIDs()[0]
	var rounds []store.Round
	require.Eventually(t, func() bool {
		rounds, err = db.Rounds(id)
		return err == nil && len(rounds) == 1
	}, 30*time.Second, 5*time.Millisecond, "round 1 was not paired")
	var games []uint64
	for _, p := range rounds[0].Pairings {
		if p.GameID != 0 {
			games = append(games, p.GameID)
		}
	}
	for _, g := range games[:len(games)-1] {
		require.NoError(t, d.SetResult(ctx, g, rules.Draw(rules.Agreement), "chief", "scoresheet"))
	}
	writes := 0
	db.InjectWriteFault(func() error {
		if writes++; writes == at {
			kill := func() { _ = syscall.Kill(os.Getpid(), syscall.SIGKILL) }
			if delay == 0 {
				kill()
			}
			time.AfterFunc(delay, kill)
		}
		return nil
	})
	require.NoError(t, d.SetResult(ctx, games[len(games)-1], rules.Draw(rules.Agreement), "chief", "scoresheet"))
	require.Eventually(t, func() bool {
		rounds, err = db.Rounds(id)
		return err == nil && len(rounds) == 2
	}, 30*time.Second, 5*time.Millisecond, "round 2 was not paired")
	time.Sleep(delay + 100*time.Millisecond) // a kill meant for now comes
	fmt.Println("not killed after", writes, "writes")
}

// roundsWhole checks that every game of the event belongs to exactly one
// board of a stored round and every round's board with two players has
// its game: a round is whole or absent. It returns the rounds.
func roundsWhole(t *testing.T, db *store.DB, id uint64, what string) []store.Round {
	t.Helper()
	rounds, err := db.Rounds(id)
	require.NoError(t, err)
	games, err := db.Games()
	require.NoError(t, err)
	onBoard := map[uint64]int{}
	for _, r := range rounds {
		for _, p := range r.Pairings {
			if p.Second == 0 {
				continue
			}
			require.NotZero(t, p.GameID, "%s: round %d board %d has no game", what, r.Number, p.Board)
			onBoard[p.GameID]++
		}
	}
	for _, g := range games {
		require.Equal(t, 1, onBoard[g.ID], "%s: game %d (round %d board %d) belongs to %d boards", what, g.ID, g.Round, g.BoardNo, onBoard[g.ID])
	}
	require.Len(t, games, len(onBoard), "%s: a board's game is missing", what)
	return rounds
}

// A daemon killed at each write of pairing a round, and within the
// round's own transaction: on restart the round is whole or absent,
// and the restarted daemon pairs it once (whole, with one audit record).
func TestRoundWholeAfterCrash(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a child process per kill")
	}
	type kill struct {
		at    int
		delay time.Duration
	}
	// Write 1 is the last result of round 1; round 2's writes follow.
	var kills []kill
	for at := 1; at <= 9; at++ {
		kills = append(kills, kill{at, 0})
	}
	for _, d := range []time.Duration{20 * time.Microsecond, 200 * time.Microsecond, time.Millisecond, 3 * time.Millisecond} {
		kills = append(kills, kill{2, d})
	}
	for _, k := range kills {
		t.Run(fmt.Sprintf("write %d +%v", k.at, k.delay), func(t *testing.T) {
			t.Parallel()
			path := filepath.Join(t.TempDir(), "event.db")
			cmd := exec.Command(os.Args[0], "-test.run=^TestRoundCrashChild$", "-test.count=1", "-test.v")
			cmd.Env = append(os.Environ(), "ARBITER_ROUND_CRASH_CHILD="+path,
				"ARBITER_ROUND_CRASH_AT="+strconv.Itoa(k.at), "ARBITER_ROUND_CRASH_DELAY="+k.delay.String())
			out, err := cmd.CombinedOutput()
			killed := err != nil && strings.Contains(err.Error(), "killed")
			if err != nil && !killed {
				t.Fatalf("child: %v\n%s", err, out)
			}
			if !killed {
				require.Contains(t, string(out), "not killed", "%s", out)
			}

			db, err := store.Open(path, nil)
			require.NoError(t, err)
			defer db.Close()
			id := uint64(1)
			before := roundsWhole(t, db, id, "after the kill")
			require.NotEmpty(t, before)

			// The restart: round 2 is paired if it is not there, once.
			d, err := director.New(crashConfig(), db, slog.New(slog.NewTextHandler(io.Discard, nil)))
			require.NoError(t, err)
			ctx, cancel := context.WithCancel(context.Background())
			done := make(chan struct{})
			go func() { d.Run(ctx); close(done) }()
			defer func() { cancel(); <-done }()
			// A result the kill lost is entered again, as the arbiter would.
			for _, p := range before[0].Pairings {
				if p.GameID != 0 && p.Result == "" {
					require.NoError(t, d.SetResult(ctx, p.GameID, rules.Draw(rules.Agreement), "chief", "scoresheet"))
				}
			}
			var after []store.Round
			require.Eventually(t, func() bool {
				after, err = db.Rounds(id)
				return err == nil && len(after) == 2
			}, 30*time.Second, 5*time.Millisecond, "round 2 was not paired after the restart")
			cancel()
			<-done
			after = roundsWhole(t, db, id, "after the restart")
			require.Len(t, after, 2, "no round is paired twice")
			if len(before) == 2 {
				assert.Equal(t, before[1].Pairings, after[1].Pairings, "the round stored before the kill stands")
			}
			acts, err := db.Actions(0)
			require.NoError(t, err)
			paired := 0
			for _, a := range acts {
				if a.What == "pair-round" {
					paired++
				}
			}
			assert.Equal(t, 2, paired, "one audit record per round")
		})
	}
}
