package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arbiter/board"
	"arbiter/director"
	dgtsim "arbiter/hardware/dgt/sim"
	"arbiter/hardware/sensorboard/sim"
	"arbiter/internal/config"
	"arbiter/rules"
	"arbiter/rules/chess"
	"arbiter/store"
)

// The storage-fault tests play a chess game whose illegal moves lose at
// once (the harshest rule for a storage fault to turn into a penalty) and
// make its first move while the database refuses writes (as a full disk
// does): the game must be held, the mover's making the move again must
// be the same move, and once the database takes writes again the move
// is stored once and the game goes on.

// faultDB makes cfg's serve hand over its database when its director is
// made, for a test to inject write faults into.
func faultDB(t *testing.T, cfg *config.Config) <-chan *store.DB {
	t.Helper()
	dbc := make(chan *store.DB, 1)
	testDirectors.Store(cfg, func(d *director.Director) { dbc <- d.DB() })
	t.Cleanup(func() { testDirectors.Delete(cfg) })
	return dbc
}

// losing makes the illegal moves of cfg's tournaments lose at once.
func losing(cfg *config.Config) {
	for i := range cfg.Tournaments {
		cfg.Tournaments[i].IllegalMove = "loss"
	}
}

// storageFault plays the first move of the game on board while the
// database refuses writes: move makes it (and presses), held waits until
// the board shows the game held, again makes the move again as a player
// who saw nothing happen does (taking it back, waiting, making it and
// pressing again), restore (if not nil) puts the board right once the
// move is stored, next makes the second move. It checks the game is held,
// not lost, then stored, then goes on.
func storageFault(t *testing.T, url string, db *store.DB, board string, move, held, again, restore, next func()) {
	t.Helper()
	g, ok := gameOf(t, url, board)
	require.True(t, ok)
	db.InjectWriteFault(func() error { return syscall.ENOSPC })
	defer db.InjectWriteFault(nil)
	move()
	require.Eventually(t, func() bool {
		l := liveTable(t, url, board)
		return l.Plies == 1 && !l.Clock[0].Running && !l.Clock[1].Running
	}, 10*time.Second, 20*time.Millisecond, "the game is not held: %+v", liveTable(t, url, board).Clock)
	held()
	again()
	time.Sleep(time.Second) // what the daemon makes of it, storage still failing
	l := liveTable(t, url, board)
	require.Empty(t, l.Result, "the storage fault became a penalty")
	assert.Empty(t, readGame(t, url, g.ID).Moves, "a move was stored while the database refused writes")

	db.InjectWriteFault(nil)
	require.Eventually(t, func() bool { return len(readGame(t, url, g.ID).Moves) == 1 }, 10*time.Second, 20*time.Millisecond,
		"the move was not stored once the database took writes again: %+v", liveTable(t, url, board))
	if restore != nil {
		restore()
	}
	require.Eventually(t, func() bool { return liveTable(t, url, board).Clock[1].Running }, 10*time.Second, 20*time.Millisecond,
		"Black's clock does not run after the hold")
	next()
	require.Eventually(t, func() bool { return len(readGame(t, url, g.ID).Moves) == 2 }, 10*time.Second, 20*time.Millisecond,
		"the game did not go on: %+v", liveTable(t, url, board))
	v := readGame(t, url, g.ID)
	assert.Equal(t, []string{"e4", "e5"}, busNotations(v))
	assert.Empty(t, v.Game.Result)
	assert.Equal(t, [2]int{}, v.Game.Illegal, "an illegal action was counted")
}

// Our board, with a clock display and text: told the game is held, its
// clock stopped; the move made again (taken back to the settle, put back,
// pressed again) is the same move.
func TestStorageFaultOnOurBoard(t *testing.T) {
	if testing.Short() {
		t.Skip("plays a board through the daemon in real time")
	}
	t.Parallel()
	dir := t.TempDir()
	link := filepath.Join(dir, "board-1")
	cfg := boardEvent(t, dir)
	cfg.Tournaments[0].Players = cfg.Tournaments[0].Players[:2]
	cfg.Boards.Assign = cfg.Boards.Assign[:1]
	losing(cfg)
	dbc := faultDB(t, cfg)
	chessGame, err := rules.New("chess", nil)
	require.NoError(t, err)
	b, _, r := simBoard(t, "SIM-1", link, chessGame.Start().View())
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	url, out, errc := startServe(t, ctx, cfg, false)
	db := <-dbc
	started(t, url, "SIM-1", out)

	turns, err := sim.Replay(chessGame.Start(), movesOf(t, chessGame.Start(), "e4", "e5"))
	require.NoError(t, err)
	geo := chessGame.Geometry()
	sq := func(name string) rules.Square { s, _ := geo.Lookup(name); return s }
	white := board.SideOf(rules.First)
	storageFault(t, url, db, "SIM-1",
		func() { require.NoError(t, r.Play(ctx, turns[:1])) },
		func() {
			require.Eventually(t, func() bool {
				clk, _, alert, _ := b.HostState()
				return strings.HasPrefix(alert.Text, "PAUSED") && clk.Running == board.SideNone
			}, 10*time.Second, 20*time.Millisecond, "the board is not told the game is held")
			_, _, _, acks := b.HostState()
			for _, a := range acks {
				assert.Zero(t, a.Ply, "a move was acknowledged that is not stored")
			}
		},
		func() {
			p, err := b.Lift(sq("e4"), 1)
			require.NoError(t, err)
			b.Place(sq("e2"), p...)
			idle(b, time.Second) // the board settles taken back
			require.Eventually(t, func() bool { return liveTable(t, url, "SIM-1").Recovery }, 10*time.Second, 20*time.Millisecond,
				"the board was not seen taken back")
			p, err = b.Lift(sq("e2"), 1)
			require.NoError(t, err)
			b.Place(sq("e4"), p...)
			idle(b, 100*time.Millisecond)
			b.Press(board.ButtonClock, white, 0)
			idle(b, time.Second)
		},
		nil,
		func() { require.NoError(t, r.Play(ctx, turns[1:2])) })
	// The board hears of e5 after it is stored: its acknowledgement, and
	// the hold's text gone.
	require.EventuallyWithT(t, func(c *assert.CollectT) {
		_, _, alert, acks := b.HostState()
		assert.NotEqual(c, "PAUSED", alert.Text[:min(len(alert.Text), 6)], "the hold's text is still shown")
		if assert.NotEmpty(c, acks) {
			assert.Equal(c, uint16(2), acks[len(acks)-1].Ply, "the last acknowledgement")
		}
	}, 10*time.Second, 20*time.Millisecond)
	cancel()
	require.NoError(t, <-errc)
}

// idle lets d pass on board b, which sends its heartbeats meanwhile (the
// session judges a settled board by the board's own time).
func idle(b *sim.Board, d time.Duration) {
	for end := time.Now().Add(d); time.Now().Before(end); time.Sleep(20 * time.Millisecond) {
		b.Idle()
	}
}

// started waits until the game on board has started: its first clock
// runs.
func started(t *testing.T, url, board string, out fmt.Stringer) {
	t.Helper()
	awaitGame(t, url, board, out)
	require.Eventually(t, func() bool { return liveTable(t, url, board).Clock[0].Running }, 15*time.Second, 20*time.Millisecond,
		"the game did not start: %+v", liveTable(t, url, board))
}

// e4e5 returns the positions after 1.e4 and after 1...e5 from pos.
func e4e5(t *testing.T, pos rules.Position) (afterE4, afterE5 rules.Position) {
	t.Helper()
	_, afterE4, err := rules.PlayText(pos, "e4")
	require.NoError(t, err)
	_, afterE5, err = rules.PlayText(afterE4, "e5")
	require.NoError(t, err)
	return afterE4, afterE5
}

// movesOf reads moves in notation from pos on.
func movesOf(t *testing.T, pos rules.Position, sans ...string) []rules.Move {
	t.Helper()
	var ms []rules.Move
	for _, san := range sans {
		m, next, err := rules.PlayText(pos, san)
		require.NoError(t, err, san)
		ms = append(ms, m)
		pos = next
	}
	return ms
}

// A single DGT board with a DGT 3000: the clock stops and shows that the
// game is held; the player who takes e4 back and makes it again, pressing
// the lever again, makes the same move. A player who leaves it taken back
// until the move is stored (the board's time stood still with its clock:
// nothing was judged meanwhile) is asked to put it back, charged to
// nobody.
func TestStorageFaultOnDGTBoard(t *testing.T) {
	if testing.Short() {
		t.Skip("plays an emulated DGT board through the daemon in real time")
	}
	t.Parallel()
	t.Run("made again", func(t *testing.T) { t.Parallel(); dgtStorageFault(t, "20031", false) })
	t.Run("left taken back", func(t *testing.T) { t.Parallel(); dgtStorageFault(t, "20032", true) })
}

// dgtStorageFault plays TestStorageFaultOnDGTBoard on the board of serial
// number serial; left leaves e4 taken back until it is stored.
func dgtStorageFault(t *testing.T, serial string, left bool) {
	dir := t.TempDir()
	link := filepath.Join(dir, "dgt0")
	board := dgtsim.NewBoard(dgtsim.Config{Serial: serial, Seed: 3})
	board.ConnectClock(15*time.Minute, 15*time.Minute)
	var pos rules.Position = chess.Start()
	board.SetUp(pos.View())
	line, err := dgtsim.Attach(link, board)
	require.NoError(t, err)
	t.Cleanup(func() { line.Close() })
	cfg := dgtEvent(t, dir, link)
	losing(cfg)
	dbc := faultDB(t, cfg)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	url, out, errc := startServe(t, ctx, cfg, false)
	db := <-dbc
	id := "DGT-" + serial
	started(t, url, id, out)

	afterE4, afterE5 := e4e5(t, pos)
	pl := &dgtsim.Player{Board: board, Rng: rand.New(rand.NewPCG(3, 4)), Slide: 0.3}
	play := func(from, to rules.Position, left bool) {
		pl.Move(from.View(), to.View())
		time.Sleep(300 * time.Millisecond) // the hand leaves the board before the press
		board.Press(left)
	}
	storageFault(t, url, db, id,
		func() { play(pos, afterE4, true) },
		func() {
			require.Eventually(t, func() bool {
				return slices.ContainsFunc(board.Texts(), func(s string) bool { return strings.TrimSpace(s) == "paused" }) && !board.Clock().Running
			},
				10*time.Second, 20*time.Millisecond, "the DGT clock is not stopped and showing the hold: %q %+v", board.Texts(), board.Clock())
		},
		func() {
			pl.Move(afterE4.View(), pos.View())
			time.Sleep(time.Second) // the board's time stands still with its clock
			if !left {
				play(pos, afterE4, true)
			}
		},
		func() {
			if !left {
				return
			}
			require.Eventually(t, func() bool { return liveTable(t, url, id).Recovery }, 10*time.Second, 20*time.Millisecond,
				"the board left taken back is not to be put back")
			pl.Move(pos.View(), afterE4.View())
		},
		func() { play(afterE4, afterE5, false) })
	require.Eventually(t, func() bool { return board.Clock().Running }, 10*time.Second, 20*time.Millisecond, "the DGT clock does not run again")
	cancel()
	require.NoError(t, <-errc)
}

// A DGT bus line (no clock the daemon sets, no text): the player who
// takes e4 back and makes it again while the move cannot be stored makes
// the same move.
func TestStorageFaultOnDGTBus(t *testing.T) {
	if testing.Short() {
		t.Skip("plays an emulated DGT bus line through the daemon in real time")
	}
	t.Parallel()
	dir := t.TempDir()
	link := filepath.Join(dir, "bus0")
	r := newBusRig(t, link, 1)
	cfg := dgtBusEvent(t, dir, link, r.boards[0].Addr(), 1)
	losing(cfg)
	dbc := faultDB(t, cfg)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	url, out, errc := startServe(t, ctx, cfg, false)
	db := <-dbc
	id := r.ids[0]
	started(t, url, id, out)
	board := r.boards[0]
	var pos rules.Position = chess.Start()
	afterE4, afterE5 := e4e5(t, pos)
	pl := &dgtsim.Player{Board: board, Rng: rand.New(rand.NewPCG(5, 6)), Step: 2 * time.Millisecond, Slide: 0.3}
	play := func(from, to rules.Position, left bool) {
		pl.Move(from.View(), to.View())
		time.Sleep(50 * time.Millisecond)
		board.Press(left)
	}
	storageFault(t, url, db, id,
		func() { play(pos, afterE4, true) },
		func() {},
		func() {
			pl.Move(afterE4.View(), pos.View())
			require.Eventually(t, func() bool { return liveTable(t, url, id).Recovery }, 10*time.Second, 20*time.Millisecond,
				"the board was not seen taken back")
			play(pos, afterE4, true)
		},
		nil,
		func() { play(afterE4, afterE5, false) })
	cancel()
	require.NoError(t, <-errc)
}

// TestServeFullDiskChild is the daemon TestServeStopsDuringStorageFault
// stops: this test binary running the demo as "arbiter serve" does,
// whose database refuses writes (as a full disk does) once moves have
// been stored.
func TestServeFullDiskChild(t *testing.T) {
	path := os.Getenv("ARBITER_FULL_DISK_CHILD")
	if path == "" {
		t.Skip("runs only as the child of TestServeStopsDuringStorageFault")
	}
	fill := func(db *store.DB) {
		go func() {
			for {
				time.Sleep(50 * time.Millisecond)
				games, err := db.Games()
				if err != nil || len(games) == 0 {
					continue
				}
				if ms, err := db.Moves(games[0].ID); err == nil && len(ms) >= 2 {
					db.InjectWriteFault(func() error { return syscall.ENOSPC })
					return
				}
			}
		}()
	}
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM)
	defer stop()
	cmd := newServeCmd()
	require.NoError(t, cmd.Flags().Set("database", path))
	require.NoError(t, cmd.Flags().Set("listen", "127.0.0.1:0"))
	cfg, err := config.Load("", cmd.Flags())
	require.NoError(t, err)
	err = serve(ctx, cfg, serveOptions{flags: cmd.Flags(), out: os.Stdout, opened: fill})
	if err != nil {
		fmt.Fprintln(os.Stderr, "arbiter:", err)
		os.Exit(exitCode(err))
	}
	os.Exit(exitOK)
}

// SIGTERM while the disk is full: the daemon says what it could not store
// (moves waiting, clocks, raw frames) and exits 0; what it stored before
// checks clean, and none of what it said it lost is there.
func TestServeStopsDuringStorageFault(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the demo daemon in a child process")
	}
	t.Parallel()
	path := filepath.Join(t.TempDir(), "event.db")
	cmd := exec.Command(os.Args[0], "-test.run=^TestServeFullDiskChild$", "-test.count=1")
	cmd.Env = append(os.Environ(), "ARBITER_FULL_DISK_CHILD="+path, "ARBITER_DEMO_SPEED=40", "ARBITER_LOG_LEVEL=error")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	stdout, err := cmd.StdoutPipe()
	require.NoError(t, err)
	require.NoError(t, cmd.Start())
	urlc := make(chan string, 1)
	var told syncBuffer // what the daemon tells on its standard output
	toldAll := make(chan struct{})
	go func() {
		defer close(toldAll)
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			fmt.Fprintln(&told, sc.Text())
			if m := regexp.MustCompile(`live at (http://\S+)`).FindStringSubmatch(sc.Text()); m != nil {
				urlc <- m[1]
			}
		}
	}()
	var url string
	select {
	case url = <-urlc:
	case <-time.After(60 * time.Second):
		_ = cmd.Process.Kill()
		t.Fatalf("the daemon did not come up:\n%s", stderr.String())
	}
	require.Eventually(t, func() bool {
		status, body := healthz(t, url)
		return status == 503 && strings.Contains(body, "no space left")
	}, 60*time.Second, 50*time.Millisecond, "the disk never filled")
	// Play goes on a while: moves wait, held.
	require.Eventually(t, func() bool {
		for _, l := range liveTables(t, url) {
			if l.GameID != 0 && l.Result == "" && !l.Clock[0].Running && !l.Clock[1].Running && l.Plies > 2 {
				return true
			}
		}
		return false
	}, 60*time.Second, 50*time.Millisecond, "no game held with a move waiting")
	require.NoError(t, cmd.Process.Signal(syscall.SIGTERM))
	<-toldAll
	err = cmd.Wait()
	require.NoError(t, err, "the daemon stopped during a storage fault with an error:\n%s", stderr.String())
	report := told.String()
	t.Logf("the daemon's last words:\n%s", report)
	require.Contains(t, report, "not stored:", report)
	lost := regexp.MustCompile(`game (\d+) move (\d+) (\S+) \(table`).FindAllStringSubmatch(report, -1)
	require.NotEmpty(t, lost, "no waiting move said:\n%s", report)
	assert.Contains(t, report, "raw frame")

	db, err := store.Open(path, &store.Options{ReadOnly: true})
	require.NoError(t, err)
	defer db.Close()
	require.NoError(t, db.Check())
	for _, m := range lost {
		var g uint64
		var ply int
		_, err := fmt.Sscan(m[1]+" "+m[2], &g, &ply)
		require.NoError(t, err)
		ms, err := db.Moves(g)
		require.NoError(t, err)
		assert.Less(t, len(ms), ply, "game %d move %d is said lost but stored", g, ply)
	}
}

// liveTables returns every table as /api/v1/tables shows it.
func liveTables(t *testing.T, url string) []director.Live {
	t.Helper()
	var tables []director.Live
	require.NoError(t, json.Unmarshal([]byte(get(t, url+"api/v1/tables")), &tables))
	return tables
}
