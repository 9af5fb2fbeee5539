package main

import (
	"context"
	"encoding/json"
	"io"
	"math/rand/v2"
	"net/http"
	"net/http/cookiejar"
	neturl "net/url"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/crypto/bcrypt"

	"arbiter/board"
	"arbiter/director"
	"arbiter/hardware/sensorboard/sim"
	"arbiter/internal/config"
	"arbiter/rules"
)

// boardEvent is a real event's configuration for boards SIM-1 and SIM-2
// behind the links dir/board-*: one round of a four-player chess Swiss,
// the boards assigned to tables 1 and 2.
func boardEvent(t testing.TB, dir string) *config.Config {
	t.Helper()
	cfg, err := config.Load("", nil)
	require.NoError(t, err)
	hash, err := bcrypt.GenerateFromPassword([]byte(venuePassword), bcrypt.MinCost)
	require.NoError(t, err)
	cfg.Event.Name = "Boards come and go"
	cfg.Event.Database = filepath.Join(dir, "event.db")
	cfg.HTTP.Listen = "127.0.0.1:0"
	cfg.Log.Level = os.Getenv("BOARDS_LOG")
	if cfg.Log.Level == "" {
		cfg.Log.Level = "warn"
	}
	cfg.Console.Users = []config.User{{Name: "chief", Password: string(hash)}}
	cfg.Boards.Ports = []config.Port{{Glob: filepath.Join(dir, "board-*")}}
	cfg.Demo.Enabled = false // the boards are the test's
	cfg.Boards.Scan = 200 * time.Millisecond
	tc := config.Tournament{Name: "Club", Game: "chess", System: "swiss-dutch", Rounds: 1, TimeControl: "15m+10s",
		TieBreaks: []string{"BH"}, TouchMove: "strict", AutoPair: true}
	for i, name := range []string{"Ana", "Ben", "Cai", "Dan"} {
		tc.Players = append(tc.Players, config.Player{Name: name, Rating: 2000 - 10*i})
	}
	cfg.Tournaments = []config.Tournament{tc}
	cfg.Boards.Assign = []config.Assignment{{Board: "SIM-1", Tournament: "Club", Table: 1}, {Board: "SIM-2", Tournament: "Club", Table: 2}}
	return cfg
}

// venuePassword is the console password of boardEvent's chief.
const venuePassword = "a venue password"

// consoles are the logged-in console clients of the daemons under test,
// by URL.
var consoles sync.Map // string -> *http.Client

// console returns a client logged in to the console of the daemon at url
// as boardEvent's chief.
func console(t *testing.T, url string) *http.Client {
	t.Helper()
	if c, ok := consoles.Load(url); ok {
		return c.(*http.Client)
	}
	jar, err := cookiejar.New(nil)
	require.NoError(t, err)
	c := &http.Client{Jar: jar, Timeout: 10 * time.Second,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := c.Get(url + "console/login")
	require.NoError(t, err)
	page, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	require.NoError(t, err)
	m := regexp.MustCompile(`name="csrf" value="([^"]+)"`).FindSubmatch(page)
	require.NotNil(t, m, "the login form's token")
	resp, err = c.PostForm(url+"console/login", neturl.Values{"csrf": {string(m[1])}, "name": {"chief"}, "password": {venuePassword}})
	require.NoError(t, err)
	resp.Body.Close()
	require.Equal(t, http.StatusSeeOther, resp.StatusCode, "console login")
	consoles.Store(url, c)
	return c
}

// liveTable returns a table as /api/v1/tables shows it.
func liveTable(t *testing.T, url, board string) director.Live {
	t.Helper()
	return findTable(t, []byte(get(t, url+"api/v1/tables")), board)
}

// consoleTable returns a table as the console's /api/v1/console/tables
// shows it: with the port of its board, which the public tables leave
// out. The daemon is boardEvent's.
func consoleTable(t *testing.T, url, board string) director.Live {
	t.Helper()
	resp, err := console(t, url).Get(url + "api/v1/console/tables")
	require.NoError(t, err)
	body, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	require.NoError(t, err)
	require.Equal(t, http.StatusOK, resp.StatusCode, "%s", body)
	return findTable(t, body, board)
}

// findTable returns the table of a board in a JSON list of tables.
func findTable(t *testing.T, body []byte, board string) director.Live {
	t.Helper()
	var tables []director.Live
	require.NoError(t, json.Unmarshal(body, &tables))
	for _, l := range tables {
		if l.Table == board {
			return l
		}
	}
	t.Fatalf("no table for board %s", board)
	return director.Live{}
}

// simBoard is a simulated chess board with fast players, plugged in
// behind link, its pieces in the position v.
func simBoard(t *testing.T, id, link string, v rules.View) (*sim.Board, *sim.PTY, *sim.Runner) {
	t.Helper()
	chess, err := rules.New("chess", nil)
	require.NoError(t, err)
	b, err := sim.NewBoard(sim.Config{ID: id, Geometry: chess.Geometry(), Caps: board.CapHeight | board.CapClockDisplay | board.CapText,
		Seed: uint64(len(link))}, sim.NewReal())
	require.NoError(t, err)
	b.Load(v)
	p, err := sim.Attach(b, link)
	require.NoError(t, err)
	t.Cleanup(func() { p.Close() })
	r := sim.NewRunner(b, sim.NewReal())
	r.Human = sim.Human{
		Think: [2]time.Duration{50 * time.Millisecond, 150 * time.Millisecond},
		Hand:  [2]time.Duration{20 * time.Millisecond, 50 * time.Millisecond},
		Glide: [2]time.Duration{5 * time.Millisecond, 10 * time.Millisecond},
		Press: [2]time.Duration{30 * time.Millisecond, 60 * time.Millisecond},
	}
	return b, p, r
}

// Boards that come and go at a real event (issue 18 §4): "arbiter
// simulate" started before "arbiter serve" has every move read; a board
// whose old port is closed, and one whose old port stays open but silent
// while its link now leads to a new device, are both picked up again and
// their games go on from the stored moves; the tables show the boards
// lost and back; and every stored move of both boards replays from its
// raw frames ("arbiter replay --all").
func TestSimulatedBoardsComeAndGo(t *testing.T) {
	if testing.Short() {
		t.Skip("plays two boards through a daemon in real time")
	}
	t.Parallel()
	dir := t.TempDir()
	link1, link2 := filepath.Join(dir, "board-1"), filepath.Join(dir, "board-2")
	cfg := boardEvent(t, dir)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	chess, err := rules.New("chess", nil)
	require.NoError(t, err)

	// SIM-1 is "arbiter simulate", started before the daemon: one game of
	// eight moves, then it exits (its port closes) with the game
	// unfinished.
	simOut := &syncBuffer{}
	simDone := make(chan error, 1)
	go func() {
		cmd := newRootCmd()
		cmd.SetArgs([]string{"simulate", "--game", "chess", "--id", "SIM-1", "--link", link1, "--speed", "20", "--plies", "8", "--games", "1", "--seed", "3", "--abandon"})
		cmd.SetOut(simOut)
		cmd.SetErr(simOut)
		simDone <- cmd.ExecuteContext(ctx)
	}()
	// SIM-2 is a board the test plays move by move.
	b2, _, r2 := simBoard(t, "SIM-2", link2, chess.Start().View())
	turns2, err := sim.RandomGame(chess.Start(), 10, rand.New(rand.NewPCG(5, 6)))
	require.NoError(t, err)
	require.Len(t, turns2, 10)
	require.Eventually(t, func() bool { _, err := os.Lstat(link1); return err == nil }, 10*time.Second, 10*time.Millisecond)
	time.Sleep(300 * time.Millisecond)

	serveCtx, stopServe := context.WithCancel(ctx)
	defer stopServe()
	if keep := os.Getenv("BOARDS_KEEP"); keep != "" {
		t.Cleanup(func() {
			time.Sleep(time.Second)
			data, _ := os.ReadFile(cfg.Event.Database)
			_ = os.WriteFile(keep, data, 0o600)
		})
	}
	url, _, errc := startServe(t, serveCtx, cfg, false)

	// Every move of the simulated game is read, then its board is lost.
	select {
	case err := <-simDone:
		require.NoError(t, err, simOut.String())
	case <-ctx.Done():
		t.Fatalf("simulate did not finish:\n%s", simOut.String())
	}
	m := regexp.MustCompile(`game 1: (\d+) moves`).FindStringSubmatch(simOut.String())
	require.NotNil(t, m, simOut.String())
	plies1, _ := strconv.Atoi(m[1])
	var l1 director.Live
	require.Eventually(t, func() bool {
		l1 = consoleTable(t, url, "SIM-1")
		return l1.Health == "disconnected" && l1.Lost == 1 && l1.Port == "" && l1.Plies == plies1
	}, 10*time.Second, 50*time.Millisecond, "SIM-1 is not shown lost with all %d moves read: %d read, health %s", plies1, l1.Plies, l1.Health)

	// SIM-2 plays six moves, then falls silent on its open port while its
	// link moves to a new device, where the same board (same pieces)
	// answers.
	require.NoError(t, r2.Play(ctx, turns2[:6]))
	require.Eventually(t, func() bool { return liveTable(t, url, "SIM-2").Plies == 6 }, 10*time.Second, 50*time.Millisecond)
	b2.SetOutput(nil)
	_, _, r2b := simBoard(t, "SIM-2", link2, b2.View())
	require.Eventually(t, func() bool {
		l := liveTable(t, url, "SIM-2")
		return l.Health == "active" && l.Lost == 1 && !l.Back.IsZero()
	}, 15*time.Second, 50*time.Millisecond, "SIM-2 was not picked up again on its new device")
	require.NoError(t, r2b.Play(ctx, turns2[6:]))
	require.Eventually(t, func() bool { return liveTable(t, url, "SIM-2").Plies == 10 }, 10*time.Second, 50*time.Millisecond,
		"SIM-2's game did not go on")

	// SIM-1 comes back behind its old link, with the pieces where the
	// simulated game left them, and its game goes on.
	l1 = liveTable(t, url, "SIM-1")
	require.Equal(t, plies1, l1.Plies)
	pos, err := chess.ParsePosition(l1.Position)
	require.NoError(t, err)
	_, _, r1 := simBoard(t, "SIM-1", link1, pos.View())
	more, err := sim.RandomGame(pos, 2, rand.New(rand.NewPCG(7, 8)))
	require.NoError(t, err)
	require.NoError(t, r1.Play(ctx, more))
	var last director.Live
	assert.Eventually(t, func() bool {
		last = consoleTable(t, url, "SIM-1")
		return last.Plies == plies1+len(more) && last.Health == "active" && last.Lost == 1 && !last.Back.IsZero() && last.Port == link1
	}, 10*time.Second, 50*time.Millisecond, "SIM-1's game did not go on after its return")
	if t.Failed() {
		last.View = nil
		t.Fatalf("SIM-1: %+v (played %d after %d)", last, len(more), plies1)
	}
	assert.Empty(t, liveTable(t, url, "SIM-1").Port, "the public tables show no device path")

	stopServe()
	require.NoError(t, <-errc)
	code, report := runCLI(t, "replay", "--database", cfg.Event.Database, "--all")
	assert.Equal(t, exitOK, code, report)
	assert.NotContains(t, report, "no raw frames")
	assert.NotContains(t, report, "the daemon restarted", "one daemon ran the event")
	assert.Contains(t, report, "board SIM-1")
	assert.Contains(t, report, "board SIM-2")
}
