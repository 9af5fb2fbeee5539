package main

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arbiter/board"
	"arbiter/hardware/dgt/driver"
	"arbiter/hardware/dgt/sim"
	"arbiter/internal/config"
	"arbiter/replay"
	"arbiter/rules"
	"arbiter/rules/chess"
	"arbiter/store"
)

// dgtBusEvent is a real event with one DGT bus line (protocol dgt-bus)
// at link, the first board's address given and the others found by DGT's
// ping, and no boards.assign: a chess Swiss of two tables per board.
func dgtBusEvent(t *testing.T, dir, link string, first uint16, boards int) *config.Config {
	t.Helper()
	cfg := boardEvent(t, dir)
	cfg.Event.Name = "DGT bus"
	cfg.Boards.Ports = []config.Port{{Path: link, Protocol: driver.BusProtocol, Keys: &driver.BusPort{Addresses: []int{int(first)}}}}
	cfg.Boards.Assign = nil
	dgtSettings(cfg).BusPoll = 100 * time.Millisecond
	club := cfg.Tournaments[0]
	club.Players = nil
	for i := range 2 * boards {
		club.Players = append(club.Players, config.Player{Name: fmt.Sprintf("Player %d", i+1), Rating: 2000 - 10*i})
	}
	cfg.Tournaments = []config.Tournament{club}
	return cfg
}

// busRig is a line of emulated DGT boards in bus mode, set up at the
// start position.
type busRig struct {
	line   *sim.Line
	boards []*sim.Board
	ids    []string
}

func newBusRig(t *testing.T, link string, n int) *busRig {
	t.Helper()
	r := &busRig{}
	start := chess.Start().View()
	for i := range n {
		b := sim.NewBoard(sim.Config{Serial: fmt.Sprintf("%05d", 3001+i), Rotated: i == 1, Seed: uint64(i + 1),
			PingSpread: 300 * time.Millisecond})
		b.ConnectClock(15*time.Minute, 15*time.Minute)
		b.SetUp(start)
		r.boards = append(r.boards, b)
		r.ids = append(r.ids, fmt.Sprintf("DGT-%05d", b.Addr()))
	}
	var err error
	r.line, err = sim.Attach(link, r.boards...)
	require.NoError(t, err)
	t.Cleanup(func() { r.line.Close() })
	return r
}

// gameView is a game as /api/v1/games/{id} shows it.
type gameView struct {
	Game  store.Game `json:"game"`
	Moves []struct {
		Notation string `json:"notation"`
	} `json:"moves"`
}

func readGame(t *testing.T, url string, id uint64) gameView {
	t.Helper()
	var v gameView
	require.NoError(t, json.Unmarshal([]byte(get(t, fmt.Sprintf("%sapi/v1/games/%d", url, id))), &v))
	return v
}

func busNotations(v gameView) []string {
	var s []string
	for _, m := range v.Moves {
		s = append(s, m.Notation)
	}
	return s
}

// busGames are the openings played on the boards of the bus.
var busGames = [][]string{
	{"e4", "e5", "Nf3", "Nc6"},
	{"d4", "d5", "c4", "e6"},
	{"c4", "e5", "Nc3", "Nf6"},
}

// playBus plays moves from to to (exclusive) of each board's opening on
// its board: the pieces moved by hand, then the clock pressed by the
// mover (White at the clock's left). If url is set, each move must appear
// in its game within two seconds of the press.
func playBus(t *testing.T, r *busRig, url string, games []uint64, pos []rules.Position, from, to int) {
	t.Helper()
	for k := from; k < to; k++ {
		for i, b := range r.boards {
			san := busGames[i][k]
			_, next, err := rules.PlayText(pos[i], san)
			require.NoError(t, err, san)
			pl := &sim.Player{Board: b, Rng: rand.New(rand.NewPCG(uint64(i), uint64(k))), Step: 2 * time.Millisecond, Slide: 0.3}
			pl.Move(pos[i].View(), next.View())
			time.Sleep(50 * time.Millisecond) // the hand leaves the board before the press
			b.Press(k%2 == 0)
			pos[i] = next
			if url == "" {
				continue
			}
			pressed := time.Now()
			if !assert.Eventually(t, func() bool { return len(readGame(t, url, games[i]).Moves) == k+1 }, 2*time.Second, 20*time.Millisecond) {
				t.Fatalf("board %s: move %d %s not read within 2 s of the press: the game shows %v, the table %+v",
					r.ids[i], k+1, san, busNotations(readGame(t, url, games[i])), liveTable(t, url, r.ids[i]))
			}
			t.Logf("board %s: %s read %v after the press", r.ids[i], san, time.Since(pressed).Round(time.Millisecond))
		}
	}
}

// A line of three DGT e-boards in bus mode (the emulator on one
// pseudo-terminal, one board set up rotated) plays a chess round through
// "arbiter serve": every board, known by its configured address or found
// by DGT's ping, takes a free table by itself and its game lists the
// board; every move appears in /api/v1/games/{id}. Then the daemon stops
// in mid-game while the players go on, and when it starts again the
// moves made meanwhile are read from the boards' own logs.
func TestServeWithDGTBus(t *testing.T) {
	if testing.Short() {
		t.Skip("plays a round on emulated DGT boards in bus mode through the daemon in real time")
	}
	dir := t.TempDir()
	link := filepath.Join(dir, "dgtbus0")
	r := newBusRig(t, link, 3)
	cfg := dgtBusEvent(t, dir, link, r.boards[0].Addr(), len(r.boards))

	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	url, out, errc := startServe(t, ctx, cfg, false)
	games := make([]uint64, len(r.boards))
	pos := make([]rules.Position, len(r.boards))
	for i, id := range r.ids {
		var g store.Game
		require.Eventually(t, func() bool {
			var ok bool
			g, ok = gameOf(t, url, id)
			return ok
		}, 20*time.Second, 50*time.Millisecond, "the DGT bus board %s has no game: %s\n%s", id, get(t, url+"api/v1/games"), out.String())
		assert.Equal(t, "chess", g.Game)
		games[i], pos[i] = g.ID, chess.Start()
		require.Eventually(t, func() bool { return liveTable(t, url, id).Health == "active" }, 10*time.Second, 20*time.Millisecond,
			"%+v", liveTable(t, url, id))
	}
	playBus(t, r, url, games, pos, 0, 2)
	cancel()
	require.NoError(t, <-errc)

	// The daemon is down; the players go on.
	playBus(t, r, "", games, pos, 2, 4)

	ctx, cancel = context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	url, out, errc = startServe(t, ctx, cfg, false)
	for i, id := range r.ids {
		require.Eventually(t, func() bool { return len(readGame(t, url, games[i]).Moves) == 4 }, 15*time.Second, 50*time.Millisecond,
			"board %s: the moves made while the daemon was down are not read: %v\n%s", id, busNotations(readGame(t, url, games[i])), out.String())
		assert.Equal(t, busGames[i], busNotations(readGame(t, url, games[i])), "board %s", id)
	}
	cancel()
	require.NoError(t, <-errc)
	replayBusGames(t, cfg.Event.Database, r.ids, games)
}

// replayBusGames checks every bus board's game through "arbiter replay":
// its raw log (protocol dgt-bus) gives the stored moves, each read right
// as the daemon read it, with no alert the daemon did not raise and no
// record the replayer could not fit. The daemon restarted in mid-game, so
// the replay covers the moves before the restart.
func replayBusGames(t *testing.T, database string, ids []string, games []uint64) {
	t.Helper()
	code, report := runCLI(t, "replay", "--database", database, "--all")
	assert.Equal(t, exitOK, code, report)
	require.NoError(t, withDB(database, true, func(db *store.DB) error {
		for i, id := range ids {
			rep, err := replay.Game(context.Background(), db, games[i], replay.Options{})
			require.NoError(t, err, "board %s", id)
			var text strings.Builder
			require.NoError(t, rep.WriteText(&text))
			t.Log(text.String())
			assert.Equal(t, id, rep.Board)
			assert.True(t, rep.OK(), "board %s: %s", id, text.String())
			assert.GreaterOrEqual(t, len(rep.Plies), 2, "board %s: the moves before the restart are replayed: %s", id, text.String())
			for _, p := range rep.Plies {
				assert.True(t, p.Same(), "board %s ply %d: %s", id, p.Ply, text.String())
			}
			assert.Empty(t, rep.Alerts, "board %s: no false alert: %s", id, text.String())
			assert.Empty(t, rep.Corrupt, "board %s: every record fits: %s", id, text.String())
			assert.Zero(t, rep.Stats.Bad, "board %s: %s", id, text.String())
		}
		return nil
	}))
}

// The bus protocol's name in the configuration is the driver's.
func TestBusProtocolNameAgrees(t *testing.T) {
	p, ok := board.Lookup(driver.BusProtocol)
	require.True(t, ok)
	assert.Equal(t, driver.BusProtocol, p.Name)
}

// A bad bus address is refused with exit code 3, named with its key.
func TestServeRefusesBadBusAddress(t *testing.T) {
	path := filepath.Join(t.TempDir(), "bad.yaml")
	require.NoError(t, os.WriteFile(path, []byte("boards:\n  ports:\n    - {path: /dev/ttyUSB0, protocol: dgt-bus, addresses: [3618, 20000]}\n"), 0o600))
	code, out, err := serveCLI(t, "serve", "--config", path)
	require.Error(t, err)
	assert.Equal(t, exitConfig, code)
	for _, want := range []string{"boards.ports[0].addresses[1]", `"20000"`, "between 1 and 16383"} {
		assert.Contains(t, err.Error()+out, want)
	}
}
