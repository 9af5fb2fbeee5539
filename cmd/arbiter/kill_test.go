package main

import (
	"bufio"
	"context"
	"encoding/json"
	"flag"
	"math/rand/v2"
	"net/http"
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

	"arbiter/director"
	"arbiter/store"
)

var serveKills = flag.Int("kills", 5, "how many times TestServeSurvivesSIGKILL kills the daemon")

// TestServeChild is the daemon TestServeSurvivesSIGKILL kills: this test
// binary running "arbiter serve" when started by that test.
func TestServeChild(t *testing.T) {
	db := os.Getenv("ARBITER_SERVE_CHILD")
	if db == "" {
		t.Skip("runs only as the child of TestServeSurvivesSIGKILL")
	}
	os.Exit(run(context.Background(), []string{"serve", "--database", db, "--listen", "127.0.0.1:0"}))
}

// liveMoves follows the public live stream at url and sends the moves it
// announces; other kinds of update go to others, if not nil. Both
// channels close when the stream ends.
func liveMoves(t *testing.T, ctx context.Context, url string, others chan<- string) <-chan store.Move {
	t.Helper()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url+"events", nil)
	require.NoError(t, err)
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	moves := make(chan store.Move, 4096)
	go func() {
		defer close(moves)
		if others != nil {
			defer close(others)
		}
		defer resp.Body.Close()
		sc := bufio.NewScanner(resp.Body)
		sc.Buffer(make([]byte, 1<<20), 1<<20)
		for sc.Scan() {
			data, ok := strings.CutPrefix(sc.Text(), "data: ")
			if !ok {
				continue
			}
			var u struct {
				director.Update
				Data json.RawMessage `json:"data"`
			}
			if json.Unmarshal([]byte(data), &u) != nil {
				continue
			}
			if u.Kind != "move" {
				if others != nil {
					select {
					case others <- u.Kind:
					default:
					}
				}
				continue
			}
			var m store.Move
			if json.Unmarshal(u.Data, &m) == nil {
				moves <- m
			}
		}
	}()
	return moves
}

// TestServeSurvivesSIGKILL kills the demo daemon with SIGKILL during play,
// again and again on the same database, and checks after each kill that
// every move the live stream announced is stored, as announced, once.
func TestServeSurvivesSIGKILL(t *testing.T) {
	if testing.Short() {
		t.Skip("starts and kills the daemon several times")
	}
	t.Parallel()
	path := filepath.Join(t.TempDir(), "event.db")
	rng := rand.New(rand.NewPCG(5, 6))
	announced := map[[2]uint64]store.Move{} // (game, ply) -> move
	for k := range *serveKills {
		cmd := exec.Command(os.Args[0], "-test.run=^TestServeChild$", "-test.count=1")
		cmd.Env = append(os.Environ(), "ARBITER_SERVE_CHILD="+path, "ARBITER_DEMO_SPEED=40", "ARBITER_LOG_LEVEL=error")
		stdout, err := cmd.StdoutPipe()
		require.NoError(t, err)
		require.NoError(t, cmd.Start())
		urlc := make(chan string, 1)
		go func() {
			sc := bufio.NewScanner(stdout)
			for sc.Scan() {
				if m := regexp.MustCompile(`live at (http://\S+)`).FindStringSubmatch(sc.Text()); m != nil {
					urlc <- m[1]
				}
			}
		}()
		var url string
		select {
		case url = <-urlc:
		case <-time.After(30 * time.Second):
			_ = cmd.Process.Kill()
			t.Fatalf("kill %d: the daemon did not come up", k)
		}

		ctx, cancel := context.WithCancel(context.Background())
		moves := liveMoves(t, ctx, url, nil)
		// Kill at a random moment once play is under way.
		n := 0
		var deadline <-chan time.Time
		startup := time.After(30 * time.Second)
	read:
		for {
			select {
			case m, ok := <-moves:
				if !ok {
					break read
				}
				announced[[2]uint64{m.GameID, uint64(m.Ply)}] = m
				n++
				if deadline == nil {
					deadline = time.After(time.Duration(200+rng.IntN(1500)) * time.Millisecond)
				}
			case <-deadline:
				break read
			case <-startup:
				_ = cmd.Process.Kill()
				t.Fatalf("kill %d: no move announced in 30 s", k)
			}
		}
		require.NoError(t, cmd.Process.Signal(syscall.SIGKILL))
		_ = cmd.Wait()
		cancel()
		for m := range moves { // announced before the kill
			announced[[2]uint64{m.GameID, uint64(m.Ply)}] = m
			n++
		}
		require.Positive(t, n, "kill %d: no moves announced", k)

		db, err := store.Open(path, &store.Options{ReadOnly: true})
		require.NoError(t, err, "kill %d", k)
		require.NoError(t, db.Check(), "kill %d", k)
		stored := map[uint64][]store.Move{}
		for key, want := range announced {
			ms, ok := stored[key[0]]
			if !ok {
				ms, err = db.Moves(key[0])
				require.NoError(t, err)
				stored[key[0]] = ms
			}
			require.GreaterOrEqual(t, len(ms), int(key[1]), "kill %d: game %d lost announced ply %d", k, key[0], key[1])
			got := ms[key[1]-1]
			assert.Equal(t, want.Notation, got.Notation, "kill %d: game %d ply %d", k, key[0], key[1])
			assert.Equal(t, want.Position, got.Position, "kill %d: game %d ply %d", k, key[0], key[1])
			assert.True(t, want.Wall.Equal(got.Wall), "kill %d: game %d ply %d stored at another time", k, key[0], key[1])
		}
		for g, ms := range stored {
			for i := 1; i < len(ms); i++ {
				assert.NotEqual(t, ms[i-1].Position, ms[i].Position, "kill %d: game %d: ply %d stored twice", k, g, ms[i].Ply)
			}
		}
		require.NoError(t, db.Close())
		t.Logf("kill %d: %d moves announced, all stored once", k, n)
	}
	t.Logf("%d SIGKILLs of serve, %d announced moves present", *serveKills, len(announced))
}
