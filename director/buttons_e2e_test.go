package director_test

import (
	"context"
	"log/slog"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arbiter/board"
	"arbiter/director"
	"arbiter/hardware/sensorboard"
	"arbiter/hardware/sensorboard/sim"
	"arbiter/rules"
	"arbiter/store"
)

// simTable is one game played end to end: a simulated board on a
// pseudo-terminal, read by the real driver, its events given to the
// director, which sends the board what it shows.
type simTable struct {
	t      *testing.T
	d      *director.Director
	db     *store.DB
	tbl    *director.Table
	board  *sim.Board
	runner *sim.Runner
	ctx    context.Context
	pos    rules.Position
}

// quickHuman plays without habits, fast, so the games take little time.
var quickHuman = sim.Human{
	Think: [2]time.Duration{50 * time.Millisecond, 100 * time.Millisecond},
	Hand:  [2]time.Duration{30 * time.Millisecond, 60 * time.Millisecond},
	Glide: [2]time.Duration{10 * time.Millisecond, 20 * time.Millisecond},
	Press: [2]time.Duration{50 * time.Millisecond, 100 * time.Millisecond},
}

func newSimTable(t *testing.T, game string) *simTable {
	t.Helper()
	return newSimTableOn(t, game, sim.Config{Caps: board.CapHeight | board.CapText | board.CapLights})
}

// newSimTableOn is newSimTable on a board of configuration bc: its id
// ("S1" if none), capabilities, trays and buttons; its geometry is the
// game's.
func newSimTableOn(t *testing.T, game string, bc sim.Config) *simTable {
	t.Helper()
	if bc.ID == "" {
		bc.ID = "S1"
	}
	cfg := eventConfig(t, "swiss-dutch", 2, 1)
	cfg.Tournaments[0].Game = game
	d, db := newEventFrom(t, cfg)
	dir := t.TempDir()
	var ctx context.Context
	drv, err := sensorboard.New(sensorboard.Config{
		Ports: []sensorboard.PortSpec{{Glob: filepath.Join(dir, "board-*")}},
		Scan:  50 * time.Millisecond, ReadTimeout: 20 * time.Millisecond,
		Now: d.Now, Logger: slog.New(slog.DiscardHandler),
		Handler: func(e board.Event) { d.BoardEvent(ctx, e) },
	})
	require.NoError(t, err)
	d.SetSender(drv)
	tbl, err := d.AddTable(d.TournamentIDs()[0], bc.ID)
	require.NoError(t, err)
	ctx = run(t, d)
	dctx, stop := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() { _ = drv.Run(dctx); close(done) }()
	t.Cleanup(func() { stop(); <-done })

	rg, err := rules.New(game, nil)
	require.NoError(t, err)
	bc.Geometry, bc.Graph, bc.Seed = rg.Geometry(), sim.GraphName(rg), 1
	b, err := sim.NewBoard(bc, sim.NewReal())
	require.NoError(t, err)
	start := rg.Start()
	b.Load(start.View())
	p, err := sim.Attach(b, filepath.Join(dir, "board-"+bc.ID))
	require.NoError(t, err)
	t.Cleanup(func() { _ = p.Close() })
	// The board's heartbeats tell the host it has settled.
	beat, quiet := context.WithCancel(ctx)
	go func() {
		for beat.Err() == nil {
			b.Idle()
			time.Sleep(50 * time.Millisecond)
		}
	}()
	t.Cleanup(quiet)
	r := sim.NewRunner(b, sim.NewReal())
	r.Human = quickHuman
	s := &simTable{t: t, d: d, db: db, tbl: tbl, board: b, runner: r, ctx: ctx, pos: start}
	require.Eventually(t, func() bool { return tbl.Live().Clock[0].Running }, 10*time.Second, 20*time.Millisecond, "the game did not start")
	return s
}

// play plays moves on the board and waits until the table has them.
func (s *simTable) play(moves ...string) {
	s.t.Helper()
	turns, err := sim.ReplayText(s.pos, moves)
	require.NoError(s.t, err)
	plies := s.tbl.Live().Plies
	require.NoError(s.t, s.runner.Play(s.ctx, turns))
	for _, m := range moves {
		_, s.pos, err = rules.PlayText(s.pos, m)
		require.NoError(s.t, err)
	}
	require.Eventually(s.t, func() bool { return s.tbl.Live().Plies == plies+len(moves) }, 10*time.Second, 20*time.Millisecond, "moves %v", moves)
}

// press presses a board button, each press gap after the one before.
func (s *simTable) press(kind board.ButtonKind, side rules.Color, presses int, gap time.Duration) {
	s.t.Helper()
	var steps []sim.Step
	for i := range presses {
		steps = append(steps, sim.Step{At: time.Duration(i) * gap, Op: sim.OpPress, Button: kind, Side: board.SideOf(side)})
	}
	require.NoError(s.t, s.runner.Run(s.ctx, steps))
}

// result waits for the game's stored result.
func (s *simTable) result() store.Game {
	s.t.Helper()
	id := s.tbl.Live().GameID
	var g store.Game
	require.Eventually(s.t, func() bool {
		var err error
		g, err = s.db.Game(id)
		return err == nil && g.Result != ""
	}, 10*time.Second, 20*time.Millisecond, "no result")
	return g
}

// actions returns the game's audit log entries by their kind.
func (s *simTable) actions() map[string][]store.Action {
	acts, err := s.db.Actions(s.tbl.Live().GameID)
	require.NoError(s.t, err)
	out := map[string][]store.Action{}
	for _, a := range acts {
		out[a.What] = append(out[a.What], a)
	}
	return out
}

// Games ended at a simulated board by its buttons (issue 18 §3): a
// resignation confirmed by a second press, a draw offered and accepted,
// and an incorrect draw claim that costs the claimant two minutes (FIDE
// 9.5.3). The board shows the result.
func TestBoardButtonsEndToEnd(t *testing.T) {
	t.Run("resignation", func(t *testing.T) {
		s := newSimTable(t, "chess")
		s.play("e2e4", "e7e5")
		s.press(board.ButtonResign, rules.Black, 2, 500*time.Millisecond)
		g := s.result()
		assert.Equal(t, "1-0", g.Result)
		assert.Equal(t, "resignation", g.Reason)
		require.Len(t, s.actions()["resignation"], 1)
		require.Eventually(t, func() bool {
			_, _, alert, _ := s.board.HostState()
			return alert.Level == board.AlertInfo && alert.Text != ""
		}, 5*time.Second, 20*time.Millisecond, "the board shows the result")
	})
	t.Run("draw offer accepted", func(t *testing.T) {
		s := newSimTable(t, "chess")
		s.play("e2e4")
		s.press(board.ButtonOffer, rules.White, 1, 0)
		require.Eventually(t, func() bool { return s.tbl.Live().Offer != "" }, 5*time.Second, 20*time.Millisecond, "no offer")
		require.Eventually(t, func() bool {
			_, _, alert, _ := s.board.HostState()
			return alert.Text == "White offers draw"
		}, 5*time.Second, 20*time.Millisecond, "the board shows the offer")
		s.press(board.ButtonOffer, rules.Black, 1, 0)
		g := s.result()
		assert.Equal(t, "1/2-1/2", g.Result)
		assert.Equal(t, "agreement", g.Reason)
		acts := s.actions()
		require.Len(t, acts["draw-offer"], 1)
		require.Len(t, acts["draw-accept"], 1)
	})
	t.Run("incorrect claim", func(t *testing.T) {
		s := newSimTable(t, "chess")
		s.play("g1f3", "g8f6")
		before := s.tbl.Live().Clock[1].Millis
		s.press(board.ButtonClaim, rules.White, 1, 0)
		var claims []store.Action
		require.Eventually(t, func() bool { claims = s.actions()["draw-claim"]; return len(claims) == 1 }, 5*time.Second, 20*time.Millisecond, "no claim")
		assert.Contains(t, claims[0].Data, "incorrect")
		assert.Contains(t, claims[0].Data, "2m0s added to Black's clock")
		// The audit is written inside the claim; the table's live view is
		// refreshed when the claim's command returns, a moment later.
		assert.Eventually(t, func() bool { return s.tbl.Live().Clock[1].Millis >= before+110_000 },
			5*time.Second, 20*time.Millisecond, "two minutes to Black")
		g, err := s.db.Game(s.tbl.Live().GameID)
		require.NoError(t, err)
		assert.Empty(t, g.Result, "the game goes on")
		require.Eventually(t, func() bool {
			_, _, alert, _ := s.board.HostState()
			return alert.Level == board.AlertWarning
		}, 5*time.Second, 20*time.Millisecond, "the board shows the incorrect claim")
		s.play("b1c3")
	})
}
