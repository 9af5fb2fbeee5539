package store_test

import (
	"bufio"
	"context"
	"flag"
	"fmt"
	"math/rand/v2"
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

	"arbiter/store"
)

const crashBoards = 16

// crashMove is the deterministic move a crash child writes at a ply, so the
// parent knows exactly what every acknowledged move must look like.
func crashMove(gameID uint64, ply int) store.Move {
	return store.Move{GameID: gameID, Ply: ply, Notation: fmt.Sprintf("g%d-%d", gameID, ply),
		Canonical: "m" + strconv.Itoa(ply), Position: strings.Repeat("p", ply%40),
		BoardMs: int64(ply), HostNs: int64(ply), ClockFirst: time.Duration(ply), Wall: wall}
}

// TestCrashChild is the writer that TestCrashRecovery kills; it runs only
// when started by that test.
func TestCrashChild(t *testing.T) {
	path := os.Getenv("ARBITER_STORE_CRASH_CHILD")
	if path == "" {
		t.Skip("runs only as the child of TestCrashRecovery")
	}
	db, err := store.Open(path, nil)
	if err != nil {
		fmt.Println("error", err)
		os.Exit(1)
	}
	games, err := db.Games()
	if err != nil {
		fmt.Println("error", err)
		os.Exit(1)
	}
	for len(games) < crashBoards {
		g := store.Game{Game: "tavreli", BoardID: fmt.Sprintf("B%02d", len(games)+1), Started: wall}
		if err := db.CreateGame(&g); err != nil {
			fmt.Println("error", err)
			os.Exit(1)
		}
		games = append(games, g)
	}
	next := make([]int, len(games))
	for i, g := range games {
		ms, err := db.Moves(g.ID)
		if err != nil {
			fmt.Println("error", err)
			os.Exit(1)
		}
		next[i] = len(ms) + 1
	}
	raw := db.NewRawLog(20 * time.Millisecond)
	go raw.Run(context.Background())
	out := bufio.NewWriter(os.Stdout)
	for i := 0; ; i++ {
		b := i % len(games)
		for range 5 {
			if _, err := raw.Append(games[b].BoardID, int64(i), wall, []byte("frame")); err != nil {
				fmt.Println("error", err)
				os.Exit(1)
			}
		}
		m := crashMove(games[b].ID, next[b])
		if err := db.AppendMove(&m); err != nil {
			fmt.Println("error", err)
			os.Exit(1)
		}
		// Acknowledge only after the commit returned.
		fmt.Fprintf(out, "ack %d %d\n", m.GameID, m.Ply)
		out.Flush()
		next[b]++
	}
}

var crashKills = flag.Int("store.kills", 0, "TestCrashRecovery: how many SIGKILLs (default 15, 6 with -short; the long run: 300)")

// TestCrashRecovery kills a writing child with SIGKILL at random moments
// and checks, after each kill, that every acknowledged move is stored
// exactly as acknowledged, nothing is duplicated, and the database checks
// clean.
func TestCrashRecovery(t *testing.T) {
	kills := 15
	if testing.Short() {
		kills = 6
	}
	if *crashKills > 0 {
		kills = *crashKills
	}
	path := filepath.Join(t.TempDir(), "crash.db")
	rng := rand.New(rand.NewPCG(1, 2))
	acked := map[uint64]int{} // game -> highest acknowledged ply
	totalAcks := 0
	for k := range kills {
		cmd := exec.Command(os.Args[0], "-test.run=^TestCrashChild$", "-test.count=1")
		cmd.Env = append(os.Environ(), "ARBITER_STORE_CRASH_CHILD="+path)
		stdout, err := cmd.StdoutPipe()
		require.NoError(t, err)
		require.NoError(t, cmd.Start())
		lines := make(chan string, 1024)
		go func() {
			sc := bufio.NewScanner(stdout)
			for sc.Scan() {
				lines <- sc.Text()
			}
			close(lines)
		}()
		// The child's run time starts at its first acknowledgement: on a
		// loaded machine starting the process alone can take longer than
		// the whole window.
		window := time.Duration(30+rng.IntN(200)) * time.Millisecond
		var deadline <-chan time.Time
		startup := time.After(30 * time.Second)
	read:
		for {
			select {
			case l, ok := <-lines:
				if !ok {
					break read
				}
				if deadline == nil && strings.HasPrefix(l, "ack ") {
					deadline = time.After(window)
				}
				var g uint64
				var ply int
				if _, err := fmt.Sscanf(l, "ack %d %d", &g, &ply); err != nil {
					if strings.HasPrefix(l, "error") {
						t.Fatalf("kill %d: child: %s", k, l)
					}
					continue
				}
				acked[g] = max(acked[g], ply)
				totalAcks++
			case <-deadline:
				break read
			case <-startup:
				t.Fatalf("kill %d: the child acknowledged nothing in 30 s", k)
			}
		}
		require.NoError(t, cmd.Process.Signal(syscall.SIGKILL))
		_ = cmd.Wait()
		for l := range lines { // acknowledgements written before the kill
			var g uint64
			var ply int
			if _, err := fmt.Sscanf(l, "ack %d %d", &g, &ply); err == nil {
				acked[g] = max(acked[g], ply)
				totalAcks++
			}
		}

		db, err := store.Open(path, nil)
		require.NoError(t, err, "kill %d", k)
		require.NoError(t, db.Check(), "kill %d", k)
		for g, ply := range acked {
			ms, err := db.Moves(g)
			require.NoError(t, err)
			require.GreaterOrEqual(t, len(ms), ply, "kill %d: game %d lost acknowledged moves", k, g)
			for i, m := range ms {
				require.Equal(t, crashMove(g, i+1), m, "kill %d: game %d ply %d", k, g, i+1)
			}
		}
		boards, err := db.RawBoards()
		require.NoError(t, err)
		for _, b := range boards {
			fs, err := db.RawFrames(b, 0, 0)
			require.NoError(t, err)
			for i, f := range fs {
				require.Equal(t, uint64(i+1), f.Seq, "raw log of %s has a gap or duplicate", b)
			}
		}
		require.NoError(t, db.Close())
	}
	t.Logf("%d SIGKILLs, %d acknowledged moves, all present", kills, totalAcks)
	assert.Positive(t, totalAcks)
}
