package main

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arbiter/hardware/certabo"
	certplug "arbiter/hardware/certabo/plug"
	certsim "arbiter/hardware/certabo/sim"
	"arbiter/hardware/eboard/emu"
	"arbiter/hardware/millennium"
	milsim "arbiter/hardware/millennium/sim"
	"arbiter/internal/config"
	"arbiter/rules"
	"arbiter/rules/chess"
	"arbiter/store"
)

// eboard is an emulated e-board on its cable, and the people at it.
type eboard struct {
	id     string
	board  emu.Table
	line   *emu.Line
	player *emu.Player
	pos    rules.Position
	game   uint64
}

// play makes the move san on the board, and waits up to 5 s for the
// daemon to store it as the game's next move.
func (e *eboard) play(t *testing.T, url, san string, out fmt.Stringer) {
	t.Helper()
	_, next, err := rules.PlayText(e.pos, san)
	require.NoError(t, err, san)
	n := len(readGame(t, url, e.game).Moves)
	e.player.Move(e.pos.View(), next.View())
	e.pos = next
	require.Eventually(t, func() bool { return len(readGame(t, url, e.game).Moves) == n+1 }, 5*time.Second, 20*time.Millisecond,
		"board %s: %s not read: the game shows %v, the table %+v\n%s", e.id, san, busNotations(readGame(t, url, e.game)),
		liveTable(t, url, e.id), out)
	assert.Equal(t, san, busNotations(readGame(t, url, e.game))[n], "board %s", e.id)
}

// A Millennium ChessLink board and a Certabo board (emulators on
// pseudo-terminals, the ports given with protocol millennium and certabo)
// play a chess round through "arbiter serve": each goes to a free chess
// table by itself (not the shogi one), its moves are stored as they are
// made, with captures and castling, the Certabo set having been
// calibrated from the start position (kept in boards.certabo.calibration).
// The Millennium board's LEDs show the last move; a move taken back is the
// illegal action it is, its squares blink on the LEDs until it is put
// back. The raw logs replay to the stored moves.
func TestServeWithEBoards(t *testing.T) {
	if testing.Short() {
		t.Skip("plays games on emulated Millennium and Certabo boards through the daemon in real time")
	}
	dir := t.TempDir()
	mb := milsim.NewBoard(milsim.Config{ID: [4]byte{0x12, 0x34, 0x56, 0x78}, Seed: 1})
	cb := certsim.NewBoard(certsim.Config{Period: 100 * time.Millisecond, Seed: 2})
	start := chess.Start()
	mb.SetUp(start.View())
	cb.SetUpCalibration()
	boards := []*eboard{{id: "MIL-12345678", board: mb}, {id: certabo.IDPrefix + "certabo0", board: cb}}
	for i, name := range []string{"mil0", "certabo0"} {
		line, err := emu.Attach(filepath.Join(dir, name), boards[i].board.(emu.Firmware))
		require.NoError(t, err)
		t.Cleanup(func() { line.Close() })
		boards[i].line, boards[i].pos = line, start
		boards[i].player = &emu.Player{Board: boards[i].board, Rng: rand.New(rand.NewPCG(uint64(i), 9)), Carry: true, Slide: 0.3, PushOff: 0.3}
	}
	cfg := boardEvent(t, dir)
	cfg.Event.Name = "E-boards"
	cfg.Boards.Ports = []config.Port{{Path: boards[0].line.Path(), Protocol: millennium.Protocol}, {Path: boards[1].line.Path(), Protocol: certabo.Protocol}}
	cfg.Boards.Assign = nil
	calibration := filepath.Join(dir, "certabo.json")
	cfg.Boards.SettingsOf(certabo.Protocol).(*certplug.Settings).Calibration = calibration
	club := cfg.Tournaments[0]
	shogi := club
	shogi.Name, shogi.Game, shogi.Players = "Shogi club", "shogi", club.Players[:2]
	cfg.Tournaments = []config.Tournament{shogi, club}

	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	url, out, errc := startServe(t, ctx, cfg, false)
	// The Certabo set is calibrated, then set up.
	require.Eventually(t, func() bool { c, err := certabo.LoadCalibration(calibration); return err == nil && c.Len() == 34 },
		10*time.Second, 50*time.Millisecond, "the Certabo set is calibrated\n%s", out)
	cb.SetUp(start.View())
	for _, b := range boards {
		g := awaitGame(t, url, b.id, out)
		assert.Equal(t, "chess", g.Game, "board %s", b.id)
		b.game = g.ID
		require.Eventually(t, func() bool { return liveTable(t, url, b.id).Health == "active" }, 10*time.Second, 20*time.Millisecond)
	}
	time.Sleep(time.Second) // the set-ups seen and the clocks started
	for _, san := range []string{"e4", "e5", "Nf3", "Nc6", "Bc4", "Nf6", "O-O", "Nxe4"} {
		for _, b := range boards {
			time.Sleep(300 * time.Millisecond) // the other player thinks
			b.play(t, url, san, out)
		}
	}
	// The Millennium board shows the last move on its LEDs.
	f6, e4 := rules.Square(45), rules.Square(28)
	require.Eventually(t, func() bool { return mb.Lit(f6) == 0xff && mb.Lit(e4) == 0xff }, 3*time.Second, 20*time.Millisecond,
		"the last move Nxe4 on the LEDs")
	require.Eventually(t, func() bool { return cb.Lit(f6) && cb.Lit(e4) }, 3*time.Second, 20*time.Millisecond,
		"the last move Nxe4 on the Certabo's LEDs")
	// Black takes Nxe4 back: an illegal action; the squares to put right
	// blink quickly, until the move is made again.
	m := boards[0]
	before := m.pos
	var taken rules.Position
	_, taken, err := rules.PlayText(chess.Start(), "e4")
	require.NoError(t, err)
	for _, san := range []string{"e5", "Nf3", "Nc6", "Bc4", "Nf6", "O-O"} {
		_, taken, err = rules.PlayText(taken, san)
		require.NoError(t, err)
	}
	m.player.Move(before.View(), taken.View())
	require.Eventually(t, func() bool { return mb.Lit(e4) == 0xcc && mb.Lit(f6) == 0xcc }, 5*time.Second, 20*time.Millisecond,
		"the take-back's squares blink: e4 %#x f6 %#x; the table %+v", mb.Lit(e4), mb.Lit(f6), liveTable(t, url, m.id))
	require.True(t, liveTable(t, url, m.id).Recovery, "the board is to be put right")
	m.player.Move(taken.View(), before.View())
	require.Eventually(t, func() bool { return !liveTable(t, url, m.id).Recovery }, 5*time.Second, 20*time.Millisecond)
	require.Eventually(t, func() bool { return mb.Lit(e4) == 0xff && mb.Lit(f6) == 0xff }, 3*time.Second, 20*time.Millisecond,
		"the last move on the LEDs again")
	for _, b := range boards {
		b.play(t, url, "Re1", out)
	}
	cancel()
	require.NoError(t, <-errc)

	code, report := runCLI(t, "replay", "--database", cfg.Event.Database, "--all")
	assert.Equal(t, exitOK, code, report)
	for _, b := range boards {
		assert.Contains(t, report, "board "+b.id)
	}
	require.NoError(t, withDB(cfg.Event.Database, true, func(db *store.DB) error {
		alerts, err := db.Alerts(false)
		require.NoError(t, err)
		var kinds []string
		for _, a := range alerts {
			kinds = append(kinds, a.Kind+": "+a.Message)
		}
		require.Len(t, alerts, 2, "the take-back alone: %s", strings.Join(kinds, "; "))
		assert.Equal(t, "retraction", alerts[0].Kind)
		assert.Equal(t, "recovery", alerts[1].Kind)
		for _, a := range alerts {
			assert.Equal(t, m.game, a.GameID, "on the Millennium board's game: %s", a.Message)
		}
		return nil
	}))
}

// The demo can put a simulated Millennium board and a simulated Certabo
// board (its set calibrated first, as an arbiter does) in its chess
// tournament (demo.boards_of), beside the DGT board: they play their games
// to the end, every move read right, and the demo finishes by itself.
func TestDemoWithEBoards(t *testing.T) {
	if testing.Short() {
		t.Skip("plays a demo tournament")
	}
	t.Parallel()
	cfg := fastDemo(t, 1, 16)
	cfg.Demo.DGT = true
	cfg.Demo.BoardsOf = []string{millennium.Protocol, certabo.Protocol}
	var chess []config.Tournament
	for _, tc := range cfg.Tournaments {
		if tc.Game == "chess" {
			chess = append(chess, tc)
		}
	}
	require.Len(t, chess, 1)
	cfg.Tournaments = chess
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	url, out, errc := startServe(t, ctx, cfg, true)
	ids := []string{"DGT-00001", "MIL-514D0001", certabo.IDPrefix + "certabo-1"}
	games := make([]store.Game, len(ids))
	for i, id := range ids {
		games[i] = awaitGame(t, url, id, out)
	}
	require.NoError(t, <-errc)
	require.NoError(t, ctx.Err(), "the demo did not finish in time:\n%s", out.String())
	m := demoSummary(t, out.String())
	t.Log(m[0])
	assert.Equal(t, "0", m[3], "moves misread")
	assert.Equal(t, "0", m[5], "games abandoned\n%s", out)
	require.NoError(t, withDB(cfg.Event.Database, true, func(db *store.DB) error {
		for i, id := range ids {
			g, err := db.Game(games[i].ID)
			require.NoError(t, err)
			assert.NotEmpty(t, g.Result, "board %s: its game ended", id)
			moves, err := db.Moves(g.ID)
			require.NoError(t, err)
			assert.NotEmpty(t, moves, "board %s: moves read", id)
			t.Logf("board %s: %d moves, %s (%s)", id, len(moves), g.Result, g.Reason)
		}
		return nil
	}))
}

// "arbiter ports --protocol" asks the ports named for that protocol's
// handshake: a Millennium board answers its id, a Certabo board its
// frames; a port with neither says so; an unknown protocol is refused.
func TestPortsProbesAProtocol(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	mb := milsim.NewBoard(milsim.Config{ID: [4]byte{0xab, 0xcd, 0, 7}})
	ml, err := emu.Attach(filepath.Join(dir, "mil0"), mb)
	require.NoError(t, err)
	defer ml.Close()
	cb := certsim.NewBoard(certsim.Config{Period: 50 * time.Millisecond})
	cl, err := emu.Attach(filepath.Join(dir, "certabo0"), cb)
	require.NoError(t, err)
	defer cl.Close()

	code, out := runCLI(t, "ports", "--protocol", millennium.Protocol, "--path", ml.Path(), "--path", cl.Path(), "--timeout", "1s")
	require.Equal(t, exitOK, code, out)
	assert.Regexp(t, `mil0\s+MIL-ABCD0007\s+ChessLink 01\.03\s+8x8`, out)
	assert.Regexp(t, `certabo0\s+-\s+.*no answer within 1s`, out, "a Certabo board is no ChessLink")
	code, out = runCLI(t, "ports", "--protocol", certabo.Protocol, "--glob", filepath.Join(dir, "cert*"))
	require.Equal(t, exitOK, code, out)
	assert.Regexp(t, `certabo0\s+CERTABO-certabo0\s+Certabo RFID\s+8x8`, out)
	code, _ = runCLI(t, "ports", "--protocol", "novag", "--path", ml.Path())
	assert.Equal(t, exitUsage, code, "an unknown protocol")
}

// arbiter preflight probes a Millennium and a Certabo port through their
// protocols' probes, as it does ours and DGT's: each board that answers
// is named, with where it goes; a Millennium port with no board is an
// error.
func TestPreflightProbesEBoards(t *testing.T) {
	dir := t.TempDir()
	mb := milsim.NewBoard(milsim.Config{ID: [4]byte{0x12, 0x34, 0x56, 0x78}, Seed: 1})
	mb.SetUp(chess.Start().View())
	cb := certsim.NewBoard(certsim.Config{Period: 100 * time.Millisecond, Seed: 2})
	cb.SetUpCalibration()
	var paths []string
	for i, fw := range []emu.Firmware{mb, cb} {
		line, err := emu.Attach(filepath.Join(dir, fmt.Sprintf("eboard%d", i)), fw)
		require.NoError(t, err)
		t.Cleanup(func() { line.Close() })
		paths = append(paths, line.Path())
	}
	missing := filepath.Join(dir, "rfcomm9")
	ports := fmt.Sprintf("boards:\n  ports:\n    - {path: %q, protocol: millennium}\n    - {path: %q, protocol: certabo}\n    - {path: %q, protocol: millennium}\n",
		paths[0], paths[1], missing)
	path := filepath.Join(dir, "weekend.yaml")
	require.NoError(t, os.WriteFile(path, []byte(organiserYAML(t, dir, "0.0.0.0:8080", ports)), 0o600))

	code, out := runCLI(t, "preflight", "--config", path)
	assert.Equal(t, exitConfig, code, out)
	plain := squeeze(out)
	for _, want := range []string{
		"ok ports " + paths[0] + " millennium: board MIL-12345678",
		"ok ports " + paths[1] + " certabo: board " + certabo.IDPrefix,
		"error ports " + missing + " does not exist",
	} {
		assert.Contains(t, plain, want)
	}
	assert.Equal(t, 2, strings.Count(plain, "not in boards.assign: takes a free table of Weekend Rapid"), out)
}
