package main

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arbiter/board"
	"arbiter/hardware/dgt/driver"
	"arbiter/hardware/dgt/sim"
	"arbiter/hardware/sensorboard"
	"arbiter/internal/config"
	"arbiter/rules"
	"arbiter/rules/chess"
	"arbiter/store"
)

// dgtEvent is a real event with one DGT port (protocol dgt) at link and
// no boards.assign: a shogi Swiss the DGT board cannot play, then a
// two-player chess Swiss it must find by itself.
func dgtEvent(t testing.TB, dir, link string) *config.Config {
	t.Helper()
	cfg := boardEvent(t, dir)
	cfg.Event.Name = "DGT boards"
	cfg.Boards.Ports = []config.Port{{Path: link, Protocol: driver.Protocol}}
	cfg.Boards.Assign = nil
	dgtSettings(cfg).Settle = 100 * time.Millisecond
	club := cfg.Tournaments[0]
	club.Players = club.Players[:2]
	shogi := club
	shogi.Name, shogi.Game = "Shogi club", "shogi"
	cfg.Tournaments = []config.Tournament{shogi, club}
	return cfg
}

// awaitGame waits up to 15 s for the board to have a game, and returns
// it.
func awaitGame(t *testing.T, url, board string, out fmt.Stringer) store.Game {
	t.Helper()
	var g store.Game
	require.Eventually(t, func() bool {
		var ok bool
		g, ok = gameOf(t, url, board)
		return ok
	}, 15*time.Second, 50*time.Millisecond, "the board %s has no game:\n%s", board, out)
	return g
}

// gameOf returns the game the board plays, as /api/v1/games lists it.
func gameOf(t *testing.T, url, board string) (store.Game, bool) {
	t.Helper()
	var games []store.Game
	require.NoError(t, json.Unmarshal([]byte(get(t, url+"api/v1/games")), &games))
	for _, g := range games {
		if g.BoardID == board {
			return g, true
		}
	}
	return store.Game{}, false
}

// A DGT e-board on a serial port (here the emulator on a pseudo-terminal,
// once set up rotated: Black at the connector side, and once with White
// at the clock's right display as the configuration says) plays a chess game through
// "arbiter serve": it goes to the chess tournament's free table by
// itself, its game lists the board, every move appears in
// /api/v1/games/{id} within two seconds of the lever press, the daemon
// sets the clock through the board, and the mate ends the game, shows
// on the clock and stops it.
func TestServeWithDGTBoard(t *testing.T) {
	if testing.Short() {
		t.Skip("plays a game on an emulated DGT board through the daemon in real time")
	}
	for _, tc := range []struct {
		name       string
		rotated    bool
		whiteRight bool // boards.dgt.white_right
	}{
		{"rotated, White at the clock's left", true, false},
		{"White at the clock's right", false, true},
	} {
		t.Run(tc.name, func(t *testing.T) { playDGT(t, tc.rotated, tc.whiteRight) })
	}
}

// dgtOnLine plugs an emulated DGT board with a clock (15 minutes a side)
// into a pseudo-terminal behind dir/dgt0, and returns it and the link.
func dgtOnLine(t *testing.T, dir string, cfg sim.Config) (*sim.Board, *sim.Line, string) {
	t.Helper()
	link := filepath.Join(dir, "dgt0")
	b := sim.NewBoard(cfg)
	b.ConnectClock(15*time.Minute, 15*time.Minute)
	line, err := sim.Attach(link, b)
	require.NoError(t, err)
	t.Cleanup(func() { line.Close() })
	return b, line, link
}

// playDGT plays Scholar's mate on an emulated DGT board through serve.
func playDGT(t *testing.T, rotated, whiteRight bool) {
	dir := t.TempDir()
	board, _, link := dgtOnLine(t, dir, sim.Config{Serial: "20001", Rotated: rotated, Seed: 1})
	pos := chess.Start()
	var p rules.Position = pos
	board.SetUp(p.View())

	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	cfg := dgtEvent(t, dir, link)
	dgtSettings(cfg).WhiteRight = whiteRight
	url, out, errc := startServe(t, ctx, cfg, false)

	g := awaitGame(t, url, "DGT-20001", out)
	assert.Equal(t, "chess", g.Game, "the DGT board went to the chess tournament")
	require.Eventually(t, func() bool { return liveTable(t, url, "DGT-20001").Health == "active" }, 5*time.Second, 20*time.Millisecond, "%+v", liveTable(t, url, "DGT-20001"))

	type view struct {
		Game  store.Game `json:"game"`
		Moves []struct {
			Notation string `json:"notation"`
		} `json:"moves"`
	}
	read := func() view {
		var v view
		require.NoError(t, json.Unmarshal([]byte(get(t, fmt.Sprintf("%sapi/v1/games/%d", url, g.ID))), &v))
		return v
	}
	pl := &sim.Player{Board: board, Rng: rand.New(rand.NewPCG(1, 2)), Slide: 0.3}
	for i, san := range []string{"e4", "e5", "Bc4", "Nc6", "Qh5", "Nf6", "Qxf7#"} {
		_, next, err := rules.PlayText(p, san)
		require.NoError(t, err, san)
		pl.Move(p.View(), next.View())
		time.Sleep(300 * time.Millisecond)    // the hand leaves the board before the press
		board.Press((i%2 == 0) != whiteRight) // White sits at the clock's left unless configured
		pressed := time.Now()
		if !assert.Eventually(t, func() bool { return len(read().Moves) == i+1 }, 2*time.Second, 20*time.Millisecond) {
			// What the table saw, for the one who reads the failure.
			t.Fatalf("move %d %s not read within 2 s of the press: the table shows %+v, the board %v\n%s",
				i+1, san, liveTable(t, url, "DGT-20001"), board.Fields(), out.String())
		}
		t.Logf("%s read %v after the press", san, time.Since(pressed).Round(time.Millisecond))
		assert.Equal(t, san, read().Moves[i].Notation)
		p = next
	}
	require.Eventually(t, func() bool { return read().Game.Result == "1-0" }, 5*time.Second, 20*time.Millisecond)
	// The clock was set and run by the daemon, and shows the result.
	require.Eventually(t, func() bool { return board.Text() == "1-0 mate" }, 5*time.Second, 20*time.Millisecond,
		"the clock shows %q", board.Text())
	// and stands: the game is over.
	require.Eventually(t, func() bool { return !board.Clock().Running }, 5*time.Second, 20*time.Millisecond,
		"the clock still runs after the mate: %+v", board.Clock())
	assert.GreaterOrEqual(t, board.Counters().Acks, 7, "a clock command for the start and each move was acknowledged")
	cancel()
	require.NoError(t, <-errc)

	// The board's bytes are in the raw log, both ways, as DGT's.
	db, err := store.Open(cfg.Event.Database, nil)
	require.NoError(t, err)
	frames, err := db.RawFrames("DGT-20001", 0, 0)
	require.NoError(t, err)
	sent, received := 0, 0
	for _, f := range frames {
		require.Equal(t, driver.Protocol, f.Protocol, "raw record %d", f.Seq)
		if f.Sent {
			sent++
		} else {
			received++
		}
	}
	assert.Positive(t, sent, "the host's commands are logged")
	assert.Positive(t, received, "the board's messages are logged")
	require.NoError(t, db.Close())

	// The raw log replays to the stored moves, read as the daemon read
	// them: with its settle time and White at the clock's side it was told.
	code, report := runCLI(t, "replay", "--database", cfg.Event.Database, "--all")
	assert.Equal(t, exitOK, code, report)
	assert.Contains(t, report, "board DGT-20001")
}

// A port of an unknown protocol is refused with exit code 3, listed with
// the other problems.
func TestServeRefusesUnknownBoardProtocol(t *testing.T) {
	path := filepath.Join(t.TempDir(), "bad.yaml")
	require.NoError(t, os.WriteFile(path, []byte("log:\n  level: loud\nboards:\n  ports:\n    - {path: /dev/ttyACM0, protocol: novag}\n"), 0o600))
	code, out, err := serveCLI(t, "serve", "--config", path)
	require.Error(t, err)
	assert.Equal(t, exitConfig, code)
	for _, want := range []string{"boards.ports[0].protocol", `"novag"`, "unknown protocol", "log.level"} {
		assert.Contains(t, err.Error()+out, want)
	}
}

// The demo can put a simulated DGT board in its chess tournament
// (demo.dgt): it plays its games to the end beside our boards, every
// move read right.
func TestDemoWithDGTBoard(t *testing.T) {
	if testing.Short() {
		t.Skip("plays a demo tournament")
	}
	t.Parallel()
	cfg := fastDemo(t, 1, 30)
	cfg.Demo.DGT = true
	var chess []config.Tournament
	for _, tc := range cfg.Tournaments {
		if tc.Game == "chess" {
			chess = append(chess, tc)
		}
	}
	require.Len(t, chess, 1)
	cfg.Tournaments = chess
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	url, out, errc := startServe(t, ctx, cfg, true)
	g := awaitGame(t, url, "DGT-00001", out)
	require.NoError(t, <-errc)
	require.NoError(t, ctx.Err(), "the demo did not finish in time:\n%s", out.String())
	m := demoSummary(t, out.String())
	t.Log(m[0])
	assert.Equal(t, "0", m[3], "moves misread")
	assert.Equal(t, "0", m[5], "games abandoned")

	db, err := store.Open(cfg.Event.Database, nil)
	require.NoError(t, err)
	defer db.Close()
	g, err = db.Game(g.ID)
	require.NoError(t, err)
	assert.NotEmpty(t, g.Result, "the DGT board's game ended")
	moves, err := db.Moves(g.ID)
	require.NoError(t, err)
	assert.NotEmpty(t, moves, "moves read from the DGT board")
	t.Logf("the DGT board's game: %d moves, %s (%s)", len(moves), g.Result, g.Reason)
}

// dgtSettings are the DGT protocols' settings of cfg (boards.dgt).
func dgtSettings(cfg *config.Config) *driver.Settings {
	return cfg.Boards.SettingsOf(driver.Protocol).(*driver.Settings)
}

// The protocol names of the configuration are those the drivers write in
// the raw log and replays look up: a port's protocol is its records'.
func TestProtocolNamesAgree(t *testing.T) {
	for _, name := range []string{driver.Protocol, sensorboard.Protocol, ""} {
		p, ok := board.Lookup(name)
		require.True(t, ok, "protocol %q is registered", name)
		assert.Equal(t, cmp.Or(name, sensorboard.Protocol), p.Name)
	}
}

// A single DGT e-board (USB/serial) whose daemon stops in mid-game while
// the players go on, three moves each with its lever press: when the
// daemon starts again the board shows three moves more than the stored
// game, which no legal move explains. The daemon asks the board for its
// EEPROM log, reads the three moves from it one by one, and the game goes
// on with no recovery asked of the players. So it does when the board
// comes back after it was knocked off its cable. The raw log replays to
// the stored moves.
func TestServeRecallsMovesFromDGTBoardLog(t *testing.T) {
	if testing.Short() {
		t.Skip("plays a game on an emulated DGT board through two daemons in real time")
	}
	dir := t.TempDir()
	link := filepath.Join(dir, "dgt0")
	b := sim.NewBoard(sim.Config{Serial: "20002", Seed: 3})
	b.ConnectClock(15*time.Minute, 15*time.Minute)
	var pos rules.Position = chess.Start()
	pl := &sim.Player{Board: b, Rng: rand.New(rand.NewPCG(3, 4)), Slide: 0.3}
	pl.Move(rules.View{Stacks: make([][]rules.Piece, 64)}, pos.View()) // the pieces set up by hand, which the board logs
	line, err := sim.Attach(link, b)
	require.NoError(t, err)
	t.Cleanup(func() { line.Close() })
	cfg := dgtEvent(t, dir, link)
	sans := []string{"e4", "e5", "Nf3", "Nc6", "Bb5", "a6", "Ba4"}
	play := func(i int) {
		_, next, err := rules.PlayText(pos, sans[i])
		require.NoError(t, err, sans[i])
		pl.Move(pos.View(), next.View())
		time.Sleep(200 * time.Millisecond) // the hand leaves the board before the press
		b.Press(i%2 == 0)                  // White sits at the clock's left
		pos = next
	}

	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	url, out, errc := startServe(t, ctx, cfg, false)
	g := awaitGame(t, url, "DGT-20002", out)
	require.Eventually(t, func() bool { return liveTable(t, url, "DGT-20002").Health == "active" }, 5*time.Second, 20*time.Millisecond)
	for i := range 3 {
		play(i)
		require.Eventually(t, func() bool { return len(readGame(t, url, g.ID).Moves) == i+1 }, 2*time.Second, 20*time.Millisecond,
			"move %d %s: %v\n%s", i+1, sans[i], busNotations(readGame(t, url, g.ID)), out.String())
	}
	cancel()
	require.NoError(t, <-errc)

	// The daemon is down; the players go on.
	for i := 3; i < 6; i++ {
		play(i)
	}

	ctx, cancel = context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	url, out, errc = startServe(t, ctx, cfg, false)
	require.Eventually(t, func() bool { return len(readGame(t, url, g.ID).Moves) == 6 }, 20*time.Second, 50*time.Millisecond,
		"the moves made while the daemon was down are not read: %v, the table %+v\n%s",
		busNotations(readGame(t, url, g.ID)), liveTable(t, url, "DGT-20002"), out.String())
	assert.Equal(t, sans[:6], busNotations(readGame(t, url, g.ID)))
	assert.False(t, liveTable(t, url, "DGT-20002").Recovery, "no recovery asked of the players")
	// The clocks are held until the arbiter resumes them: the board's
	// clock stands at the times the daemon holds (issue 32 N3), once the
	// hold has been said on its display.
	// The daemon's clocks are read as the board's are: the table's view
	// may show the last move read from the log a moment after it is
	// stored.
	require.EventuallyWithT(t, func(c *assert.CollectT) {
		holds := liveTable(t, url, "DGT-20002").Clock
		assert.False(c, holds[0].Running || holds[1].Running, "the daemon's clocks run: %+v", holds)
		clk := b.Clock()
		assert.False(c, clk.Running, "the board's clock runs")
		assert.Empty(c, b.Text(), "the board's clock shows text")
		assert.Equal(c, [2]time.Duration{
			(time.Duration(holds[0].Millis) * time.Millisecond).Truncate(time.Second),
			(time.Duration(holds[1].Millis) * time.Millisecond).Truncate(time.Second),
		}, [2]time.Duration{clk.Left, clk.Right}, "the board's clock shows the times the daemon holds")
	}, 10*time.Second, 20*time.Millisecond)
	assert.Contains(t, b.Texts(), "paused  ", "the hold is said on the clock")
	play(6)
	require.Eventually(t, func() bool { return len(readGame(t, url, g.ID).Moves) == 7 }, 2*time.Second, 20*time.Millisecond,
		"the game does not go on after the recall: %v\n%s", busNotations(readGame(t, url, g.ID)), out.String())
	assert.Equal(t, sans, busNotations(readGame(t, url, g.ID)))

	// The board is knocked off its cable (a Bluetooth board out of range
	// goes on by itself); two moves are made before it is back.
	line.Close()
	require.Eventually(t, func() bool { return liveTable(t, url, "DGT-20002").Health == "disconnected" }, 10*time.Second, 20*time.Millisecond,
		"%+v", liveTable(t, url, "DGT-20002"))
	sans = append(sans, "Nf6", "O-O")
	play(7)
	play(8)
	line, err = sim.Attach(link, b)
	require.NoError(t, err)
	t.Cleanup(func() { line.Close() })
	require.Eventually(t, func() bool { return len(readGame(t, url, g.ID).Moves) == 9 }, 20*time.Second, 50*time.Millisecond,
		"the moves made while the board was off its cable are not read: %v, the table %+v\n%s",
		busNotations(readGame(t, url, g.ID)), liveTable(t, url, "DGT-20002"), out.String())
	assert.Equal(t, sans, busNotations(readGame(t, url, g.ID)))
	assert.False(t, liveTable(t, url, "DGT-20002").Recovery, "no recovery asked of the players")
	cancel()
	require.NoError(t, <-errc)

	code, report := runCLI(t, "replay", "--database", cfg.Event.Database, "--all")
	assert.Equal(t, exitOK, code, report)
	assert.Contains(t, report, "board DGT-20002")

	// A game that began before the board's first frame (a board attaching
	// slowly on a loaded host) opens its frames with the host's start and
	// the board's answers: it replays too.
	db, err := store.Open(cfg.Event.Database, nil)
	require.NoError(t, err)
	// The arbiter is told that the clocks are held after the restart, with
	// what the board's clock showed, and that Ba4 was played while they
	// were (nobody resumed them): nothing about the five moves read from
	// the board's log.
	alerts, err := db.Alerts(false)
	require.NoError(t, err)
	irregular, held := 0, 0
	for _, a := range alerts {
		switch a.Kind {
		case "irregularity":
			irregular += a.Count
			t.Logf("irregularity ×%d, last: %s", a.Count, a.Message)
		case "clocks-held":
			held += a.Count
			t.Logf("clocks-held: %s", a.Message)
			assert.Regexp(t, `^the daemon restarted: the clocks are held until the arbiter resumes them \(the board's clock showed White \d+:\d\d, Black \d+:\d\d\)$`, a.Message)
		}
	}
	assert.Equal(t, 1, held, "the restart")
	assert.Equal(t, 1, irregular, "Ba4")
	g, err = db.Game(g.ID)
	require.NoError(t, err)
	require.Greater(t, g.RawFrom, uint64(1), "the board's handshake comes before the game when recorded")
	g.RawFrom = 1
	require.NoError(t, db.UpdateGame(&g))
	require.NoError(t, db.Close())
	code, report = runCLI(t, "replay", "--database", cfg.Event.Database, "--game", fmt.Sprint(g.ID))
	assert.Equal(t, exitOK, code, report)
}

// A player makes an illegal move on a DGT board and presses the lever;
// he puts the position back and makes a legal move, but his side of the
// lever is down already: a rocker clock has no second press (issue 32
// F2). The legal move is taken when the board has settled on it with the
// clock showing his opponent to move, as DGT's own software reads a
// rocker clock, and the game goes on with the opponent's move and press.
func TestServeDGTLegalMoveAfterAnIllegalOneNeedsNoSecondPress(t *testing.T) {
	if testing.Short() {
		t.Skip("plays on an emulated DGT board through the daemon in real time")
	}
	dir := t.TempDir()
	b, _, link := dgtOnLine(t, dir, sim.Config{Serial: "20004", Seed: 4})
	var pos rules.Position = chess.Start()
	b.SetUp(pos.View())
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	cfg := dgtEvent(t, dir, link)
	url, out, errc := startServe(t, ctx, cfg, false)
	g := awaitGame(t, url, "DGT-20004", out)
	require.Eventually(t, func() bool { return liveTable(t, url, "DGT-20004").Health == "active" }, 5*time.Second, 20*time.Millisecond)

	pl := &sim.Player{Board: b, Rng: rand.New(rand.NewPCG(4, 5))}
	var sans []string
	move := func(san string, press bool) {
		t.Helper()
		_, next, err := rules.PlayText(pos, san)
		require.NoError(t, err, san)
		pl.Move(pos.View(), next.View())
		time.Sleep(200 * time.Millisecond) // the hand leaves the board before the press
		if press {
			b.Press(pos.Turn() == rules.White) // White sits at the clock's left
		}
		pos = next
		sans = append(sans, san)
	}
	moves := func(n int, what string) {
		t.Helper()
		require.Eventually(t, func() bool { return len(readGame(t, url, g.ID).Moves) == n }, 10*time.Second, 20*time.Millisecond,
			"%s: the game shows %v, the table %+v\n%s", what, busNotations(readGame(t, url, g.ID)), liveTable(t, url, "DGT-20004"), out.String())
		assert.Equal(t, sans, busNotations(readGame(t, url, g.ID)))
	}
	move("e4", true)
	moves(1, "e4")
	move("e5", true)
	moves(2, "e5")

	// Ke1-e3, and the press: an illegal move.
	before := pos.View()
	illegal := rules.View{Stacks: append([][]rules.Piece(nil), before.Stacks...)}
	illegal.Stacks[4], illegal.Stacks[20] = nil, before.Stacks[4] // e1 to e3
	pl.Move(before, illegal)
	time.Sleep(200 * time.Millisecond)
	b.Press(true)
	require.Eventually(t, func() bool { return liveTable(t, url, "DGT-20004").Recovery }, 10*time.Second, 20*time.Millisecond,
		"the illegal move is seen: %+v\n%s", liveTable(t, url, "DGT-20004"), out.String())
	// The king goes back; a legal move with it (the piece touched), and
	// its press, which moves no lever.
	pl.Move(illegal, before)
	require.Eventually(t, func() bool { return !liveTable(t, url, "DGT-20004").Recovery }, 10*time.Second, 20*time.Millisecond, "the position put back")
	move("Ke2", true)
	moves(3, "Ke2, its lever already down")
	move("Nc6", true)
	moves(4, "Nc6 and its press")
	move("Nf3", true)
	moves(5, "Nf3 and its press")
	assert.False(t, liveTable(t, url, "DGT-20004").Recovery)
	cancel()
	require.NoError(t, <-errc)

	// The raw log replays to the stored moves.
	code, report := runCLI(t, "replay", "--database", cfg.Event.Database, "--all")
	assert.Equal(t, exitOK, code, report)
}
