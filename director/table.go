package director

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"arbiter/arbiter"
	"arbiter/board"
	"arbiter/clock"
	"arbiter/rules"
	"arbiter/store"
)

// Watcher is told what happens at tables: a game started, and every
// decision of a session once it is stored (moves, alerts, prompts,
// recoveries, results). The board displays and the demo players watch.
// Calls come from the table's goroutine and must not block.
type Watcher interface {
	GameStarted(t *Table, g store.Game, start rules.Position)
	Decided(t *Table, o arbiter.Output)
}

// Table is one playing table of a tournament: the sensor board on it (if
// any) and the game being played there. All game state is owned by the
// table's goroutine; other goroutines talk to it through Input and Do.
type Table struct {
	ID         string // board id, or a name for a table without a board
	Tournament uint64
	Number     int

	db     *store.DB
	hub    *Hub
	log    *slog.Logger
	now    func() time.Duration
	wall   func() time.Time
	notify *Director

	events chan arbiter.Event
	cmds   chan func()

	capsMu sync.Mutex
	caps   arbiter.Caps // what the board on the table senses
	shows  board.Caps   // the board's display capabilities (text, lights)
	// boardClock is the last reading of the clock the board carries (a
	// DGT 3000), nil before one: after a restart, the times the players
	// saw while the daemon was down.
	boardClock *board.ClockReading
	// shown: an alert or lit squares are on the board's display, to clear
	// once resolved (the table's goroutine only).
	shown bool

	// Owned by the table goroutine.
	game    *store.Game
	rgame   rules.Game
	session *arbiter.Session
	// policy is the arbitration the game began with, and begunCaps what
	// the board sensed then (its session's caps).
	policy    arbiter.Config
	begunCaps arbiter.Caps
	resumed   bool          // the game was interrupted by a restart
	epoch     time.Duration // host instant the game started; stored HostNs are relative to it
	unsaved   []unsavedMove // moves decided but not yet stored (a full disk), in order
	offer     *offer        // an open draw or jishogi offer (claims.go)
	panel     panel         // the players' buttons and the board's display (buttons.go)

	// pendingOver is the game's end, decided while its moves or its result
	// could not be stored: stored after them (storage.go).
	pendingOver *arbiter.GameOver
	hold        storageHold // the game held while its moves cannot be stored

	// resynced is when the board was last asked for its whole state while
	// its game waited for the set-up.
	resynced time.Duration
	// backlog is the board's last dump and what it reported since while
	// no game ran, for the next game's session.
	backlog arbiter.Backlog

	mu   sync.RWMutex
	live Live // what the web shows, copied under mu
	gone bool // the board is lost and has not come back yet (under mu)
}

// Live is a table's state for display.
type Live struct {
	Table      string       `json:"table"`
	Tournament uint64       `json:"tournament"`
	Number     int          `json:"number"`
	GameID     uint64       `json:"game,omitempty"`
	Game       string       `json:"gameType,omitempty"`
	First      string       `json:"first,omitempty"`
	Second     string       `json:"second,omitempty"`
	Position   string       `json:"position,omitempty"`
	View       *BoardView   `json:"view,omitempty"`
	Turn       string       `json:"turn,omitempty"`
	Plies      int          `json:"plies"`
	LastMove   string       `json:"lastMove,omitempty"`
	Clock      [2]ClockFace `json:"clock"`
	Result     string       `json:"result,omitempty"`
	Recovery   bool         `json:"recovery,omitempty"`
	Offer      string       `json:"offer,omitempty"` // an open draw or jishogi offer
	Health     string       `json:"health"`
	// HealthSince is when the board's link took its present health.
	HealthSince time.Time `json:"healthSince,omitzero"`
	// Port is where the board is connected now (a device path), empty
	// while it is not.
	Port string `json:"port,omitempty"`
	// Lost counts the times the board was lost (disconnected or not
	// responding) since the daemon started; Back is when it last came
	// back after a loss.
	Lost    int             `json:"lost,omitempty"`
	Back    time.Time       `json:"back,omitzero"`
	Prompt  *arbiter.Prompt `json:"prompt,omitempty"`
	Updated time.Time       `json:"updated"`
}

// ClockFace is one side's clock for display.
type ClockFace struct {
	Millis  int64  `json:"ms"`
	Running bool   `json:"running"`
	Phase   string `json:"phase,omitempty"`
	Periods int    `json:"periods,omitempty"`
}

// BoardView is a position drawn for the web: every square's stack from
// bottom to top, and the zones.
type BoardView struct {
	Width   int          `json:"width"`
	Height  int          `json:"height"`
	Squares []SquareView `json:"squares"`
	Zones   []ZoneView   `json:"zones,omitempty"`
}

// SquareView is one square with its stack, pieces written as in
// rules.Piece.String ("P(H)", "s+").
type SquareView struct {
	Name  string   `json:"name"`
	File  int      `json:"file"`
	Rank  int      `json:"rank"`
	Stack []string `json:"stack,omitempty"`
}

// ZoneView is an off-board zone.
type ZoneView struct {
	Name   string   `json:"name"`
	Owner  string   `json:"owner"`
	Pieces []string `json:"pieces,omitempty"`
}

// NewBoardView draws a position's physical view.
func NewBoardView(g rules.Game, p rules.Position) *BoardView {
	geo := g.Geometry()
	v := p.View()
	bv := &BoardView{Width: geo.Width(), Height: geo.Height(), Squares: make([]SquareView, geo.Len())}
	for i := range bv.Squares {
		sq := rules.Square(i)
		f, r := geo.Coords(sq)
		s := SquareView{Name: rules.SquareName(g, sq), File: f, Rank: r}
		for _, pc := range v.Stacks[sq] {
			s.Stack = append(s.Stack, pc.String())
		}
		bv.Squares[i] = s
	}
	for i, z := range geo.Zones() {
		zv := ZoneView{Name: z.Name, Owner: g.SideName(z.Owner)}
		for _, pc := range v.Zones[i] {
			zv.Pieces = append(zv.Pieces, pc.String())
		}
		bv.Zones = append(bv.Zones, zv)
	}
	return bv
}

func newTable(id string, tournament uint64, number int, d *Director) *Table {
	t := &Table{
		ID: id, Tournament: tournament, Number: number,
		db: d.db, hub: d.hub, log: d.log.With("table", id), now: d.now, wall: d.wall, notify: d,
		events: make(chan arbiter.Event, 1024),
		cmds:   make(chan func()),
	}
	t.live = Live{Table: id, Tournament: tournament, Number: number, Health: "no board"}
	return t
}

// Live returns a copy of the table's display state.
func (t *Table) Live() Live {
	t.mu.RLock()
	defer t.mu.RUnlock()
	return t.live
}

// Input queues a board event. It blocks when the table is far behind, which
// slows only this board.
func (t *Table) Input(ctx context.Context, e arbiter.Event) {
	select {
	case t.events <- e:
	case <-ctx.Done():
	}
}

// Do runs f on the table's goroutine and waits for it. When Do returns,
// [Table.Live] shows what f did.
func (t *Table) Do(ctx context.Context, f func() error) error {
	errc := make(chan error, 1)
	select {
	case t.cmds <- func() { err := f(); t.refresh(); errc <- err }:
	case <-ctx.Done():
		return ctx.Err()
	}
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
		return ctx.Err()
	}
}

// SetHealth records the board's link health for display: a board that
// is disconnected or does not respond is lost, and is back when it is
// active again.
func (t *Table) SetHealth(h string) {
	t.mu.Lock()
	now := t.wall()
	if t.live.Health != h {
		t.live.HealthSince = now
	}
	switch h {
	case "disconnected", "not-responding":
		if !t.gone {
			t.gone = true
			t.live.Lost++
		}
		if h == "disconnected" {
			t.live.Port = ""
		}
	case "active":
		if t.gone {
			t.gone = false
			t.live.Back = now
		}
	}
	t.live.Health = h
	t.live.Updated = now
	t.mu.Unlock()
	t.hub.Publish(Update{Kind: "board", Table: t.ID, At: now, Data: h})
}

// setPort records where the board is connected now.
func (t *Table) setPort(port string) {
	t.mu.Lock()
	t.live.Port = port
	t.mu.Unlock()
}

func (t *Table) setCaps(c arbiter.Caps) {
	t.capsMu.Lock()
	t.caps = c
	t.capsMu.Unlock()
}

// setShows keeps what the table's board can display (CAP_TEXT, CAP_LIGHTS),
// and whether it keeps its own log of the game.
func (t *Table) setShows(c board.Caps) {
	t.capsMu.Lock()
	t.shows = c & (board.CapText | board.CapLights | board.CapLog)
	t.capsMu.Unlock()
}

// showsCaps returns what the table's board can display.
func (t *Table) showsCaps() board.Caps {
	t.capsMu.Lock()
	defer t.capsMu.Unlock()
	return t.shows
}

// setBoardClock keeps the last reading of the board's own clock.
func (t *Table) setBoardClock(c *board.ClockReading) {
	if c == nil {
		return
	}
	r := *c
	t.capsMu.Lock()
	t.boardClock = &r
	t.capsMu.Unlock()
}

// boardClockText says what the board's own clock showed last, for the
// arbiter, or "" when it carries none.
func (t *Table) boardClockText() string {
	t.capsMu.Lock()
	c := t.boardClock
	t.capsMu.Unlock()
	if c == nil || t.rgame == nil {
		return ""
	}
	return fmt.Sprintf("the board's clock showed %s %s, %s %s", t.rgame.SideName(rules.First), clock.Text(c.First),
		t.rgame.SideName(rules.Second), clock.Text(c.Second))
}

// Caps returns what the table's board senses.
func (t *Table) Caps() arbiter.Caps {
	t.capsMu.Lock()
	defer t.capsMu.Unlock()
	return t.caps
}

// Run is the table's goroutine.
func (t *Table) Run(ctx context.Context) {
	timer := time.NewTimer(time.Hour)
	defer timer.Stop()
	for {
		t.arm(timer)
		select {
		case <-ctx.Done():
			t.drain()
			t.shutdown()
			return
		case e := <-t.events:
			t.handle(e)
		case f := <-t.cmds:
			f()
			continue // Do's f refreshed the view before it answered
		case <-timer.C:
			t.storeUnsaved() // retried every second: the event resumes when the disk does
			if t.session != nil {
				t.apply(t.session.Tick(t.now()))
				t.resyncSetup()
			}
		}
		t.refresh()
	}
}

// handle takes one board event.
func (t *Table) handle(e arbiter.Event) {
	if t.session != nil && !t.session.Outcome().Over() {
		t.backlog.Clear()
	} else {
		t.backlog.Keep(e) // for the next game
	}
	t.recap()
	if t.session != nil {
		start := time.Now()
		outs := t.session.Handle(e)
		t.notify.metrics.observe(&t.notify.metrics.decide, time.Since(start))
		t.notify.metrics.Events.Add(1)
		t.apply(outs)
		t.boardButton(e)
	}
}

// drain takes, at the stop, the board events queued before it: their
// frames are in the raw log, so a replay reads what they made (the daemon
// stops its boards' drivers first, and they hand over every event read).
func (t *Table) drain() {
	for {
		select {
		case e := <-t.events:
			t.handle(e)
			t.refresh()
		default:
			return
		}
	}
}

// arm sets the timer to the session's next deadline, and at least once a
// second while a game runs so that clocks on the page stay fresh.
func (t *Table) arm(timer *time.Timer) {
	wait := time.Hour
	if t.session != nil && !t.session.Outcome().Over() {
		wait = time.Second
		if d, ok := t.session.NextDeadline(); ok {
			wait = min(wait, max(d-t.now(), time.Millisecond))
		}
	}
	if len(t.unsaved) > 0 || t.pendingOver != nil {
		wait = min(wait, time.Second) // storeUnsaved retries
	}
	if !timer.Stop() {
		select {
		case <-timer.C:
		default:
		}
	}
	timer.Reset(wait)
}

// shutdown pauses a running clock and stores its state, so a restarted
// daemon resumes the game.
func (t *Table) shutdown() {
	if lost := t.unstored(); len(lost) > 0 {
		// A storage fault: what waits cannot be stored now either.
		t.log.Error("not stored at shutdown", "what", lost)
		t.notify.lostAtStop(lost...)
	}
	if t.session == nil || t.session.Outcome().Over() || t.game == nil {
		return
	}
	if c := t.session.Clock(); c != nil {
		started := c.Status() != clock.NotStarted
		_ = c.Pause(t.now())
		snap, err := c.Snapshot().MarshalBinary()
		if err != nil {
			t.log.Error("clock snapshot at shutdown", "err", err)
			return
		}
		t.game.Clock, t.game.ClockPly = snap, t.session.Plies()
		if err := t.db.UpdateGame(t.game); err != nil {
			t.log.Error("store game at shutdown", "err", err)
			if started {
				t.notify.lostAtStop(fmt.Sprintf("game %d's clocks at the stop, after move %d (table %d, board %s): the restart resumes them from the last stored move", t.game.ID, t.game.ClockPly, t.Number, t.ID))
			}
		}
	}
}

// Start begins a game on the table. Called on the table's goroutine
// (through Do).
func (t *Table) start(g *store.Game, rg rules.Game, cfg arbiter.Config) error {
	moves, err := t.db.Moves(g.ID)
	if err != nil {
		return fmt.Errorf("table %s: %w", t.ID, err)
	}
	ctl, err := gameControl(g.TimeControl)
	if err != nil {
		return fmt.Errorf("table %s: game %d: %w", t.ID, g.ID, err)
	}
	clk, err := t.gameClock(g, moves, ctl)
	if err != nil {
		return fmt.Errorf("table %s: clock: %w", t.ID, err)
	}
	t.policy, cfg.Caps = cfg, t.Caps()
	t.begunCaps = cfg.Caps
	var start rules.Position
	if g.StartPosition != "" {
		p, err := rg.ParsePosition(g.StartPosition)
		if err != nil {
			return fmt.Errorf("table %s: start position: %w", t.ID, err)
		}
		start = p
	}
	s, err := arbiter.NewSession(cfg, rg, start, clk)
	if err != nil {
		return fmt.Errorf("table %s: %w", t.ID, err)
	}
	if len(moves) > 0 {
		// A game interrupted by a restart goes on from its stored moves.
		played := make([]string, len(moves))
		for i, m := range moves {
			played[i] = m.Canonical
		}
		if err := s.Resume(played); err != nil {
			return fmt.Errorf("table %s: game %d: %w", t.ID, g.ID, err)
		}
	}
	// Illegal moves made since the last move count too (keepState).
	s.RestoreIllegalCounts(g.Illegal)
	t.game, t.rgame, t.session = g, rg, s
	t.resumed = len(moves) > 0
	t.epoch = t.now()
	t.mu.Lock()
	t.live.LastMove, t.live.Result, t.live.Prompt, t.live.View = "", "", nil, nil
	// A new session has no board being restored: the flag of the game
	// before must not carry over (issue 18 §1).
	t.live.Recovery = false
	if len(moves) > 0 {
		t.live.LastMove = moves[len(moves)-1].Notation
	}
	t.mu.Unlock()
	t.apply(s.Start(t.epoch))
	// What the board reported before the game was there to take it: a
	// move made at once after the handshake, or before the game began.
	t.apply(t.backlog.Deliver(s, t.epoch))
	// Ask the board for its whole state: the session compares it with the
	// position and starts the clock once they agree.
	t.resync("game start")
	if len(moves) > 0 {
		// Moves may have been made while the daemon was down.
		t.recall("game resumed")
	}
	t.refresh()
	t.notify.gameStarted(t, *g, s.Position())
	t.log.Info("game started", "game", g.ID, "first", g.First, "second", g.Second, "resumed at ply", len(moves))
	return nil
}

// recap begins the game's session again, while it waits for its set-up,
// when the board has said since that it senses otherwise than the session
// was begun with: a game may begin before its board's first handshake
// (the demo's tables, a board switched on after its round was paired),
// and is read as the board says from its set-up on (a board with no clock
// to press has its moves taken when it settles on them; one that
// identifies pieces has them compared).
func (t *Table) recap() {
	if t.session == nil || t.game == nil || !t.session.SettingUp() || t.session.Outcome().Over() || t.begunCaps.Equal(t.Caps()) {
		return
	}
	if err := t.start(t.game, t.rgame, t.policy); err != nil {
		t.log.Error("begin the game again with its board's capabilities", "err", err)
	}
}

// setupResync is how often a board is asked again for its whole state
// while its game waits for the set-up.
const setupResync = 3 * time.Second

// resync asks the table's board for its whole state, for the reason why.
func (t *Table) resync(why string) {
	t.resynced = t.now()
	if t.notify.sender == nil {
		return
	}
	if err := t.notify.sender.Resync(t.ID); err != nil {
		// Not connected yet: its connection brings a dump anyway.
		t.log.Debug("resync", "why", why, "err", err)
	}
}

// recall asks the table's board for its own log of the game, when it
// keeps one (board.CapLog), for the reason why: the board lay beyond the
// host's sight (a restart of the daemon, a link down), and the moves made
// meanwhile follow, read one by one from the log (arbiter.Recalled).
func (t *Table) recall(why string) {
	r, ok := t.notify.sender.(board.Recaller)
	if !ok || !t.showsCaps().Has(board.CapLog) {
		return
	}
	if err := r.Recall(t.ID); err != nil {
		t.log.Warn("ask the board for its log", "why", why, "err", err)
		return
	}
	t.log.Info("asked the board for its log", "why", why)
}

// resyncSetup asks the board again for its whole state, every
// setupResync while the game waits for its set-up: a board whose pieces
// changed unseen (set up again while its frames were not read, a
// simulator that re-sets itself without reporting it) is seen as it is,
// and the game starts once it shows the start position (issue 18 §4).
func (t *Table) resyncSetup() {
	if t.session == nil || !t.session.SettingUp() || t.now()-t.resynced < setupResync {
		return
	}
	t.resync("waiting for the set-up")
}

// gameControl is the time control of a game's text form; nil for a game
// without a clock ("" or "-").
func gameControl(text string) (*clock.Control, error) {
	if text == "" || text == "-" {
		return nil, nil
	}
	ctl, err := clock.Parse(text)
	if err != nil {
		return nil, fmt.Errorf("time control %q: %w", text, err)
	}
	return &ctl, nil
}

// gameClock makes the clock of a game: a new one, or for a game that was
// interrupted by a restart, its last stored state, moved onto this
// process's timeline and held until it is resumed.
func (t *Table) gameClock(g *store.Game, moves []store.Move, ctl *clock.Control) (*clock.Clock, error) {
	if ctl == nil {
		return nil, nil
	}
	opts := clock.Options{Adjudicator: arbiter.Adjudicator(func() *arbiter.Session { return t.session })}
	var state []byte
	switch {
	case len(g.Clock) > 0 && g.ClockPly == len(moves):
		state = g.Clock // stored at a clean stop, after the last move
	case len(moves) > 0:
		state = moves[len(moves)-1].ClockState // stored with the last move
	}
	if len(state) == 0 {
		return clock.New(*ctl, opts)
	}
	var snap clock.Snapshot
	if err := snap.UnmarshalBinary(state); err != nil {
		return nil, fmt.Errorf("game %d: stored clock: %w", g.ID, err)
	}
	c, err := clock.FromSnapshot(snap, opts)
	if err != nil {
		return nil, fmt.Errorf("game %d: stored clock: %w", g.ID, err)
	}
	c.Rebase(snap.Known, t.now())
	return c, nil
}

// apply stores and publishes what the session decided. A move is stored
// before anyone is told about it.
func (t *Table) apply(outs []arbiter.Output) {
	keep := false
	defer func() {
		if keep {
			t.keepState()
		}
	}()
	for _, o := range outs {
		switch o := o.(type) {
		case arbiter.MoveMade:
			t.storeMove(o)
		case arbiter.MoveAmended:
			t.amendMove(o)
		case arbiter.Alert:
			// An enforced alert may come with a penalty (time to the
			// opponent, an illegal move counted) or a held clock.
			keep = keep || o.Enforced
			t.storeAlert(o)
		case arbiter.Prompt:
			t.mu.Lock()
			t.live.Prompt = &o
			t.mu.Unlock()
			t.hub.Publish(Update{Kind: "prompt", Table: t.ID, Game: t.gameID(), At: t.wall(), Data: o})
			t.notify.decided(t, o)
		case arbiter.Recovery:
			keep = true
			t.mu.Lock()
			t.live.Recovery = !o.Done
			t.mu.Unlock()
			t.recovered(o)
			if !o.Done {
				t.storeAlert(arbiter.Alert{Kind: arbiter.RecoveryAlert, At: o.At, Message: o.String(), Board: o.Board, Enforced: true})
			}
			t.notify.decided(t, o)
		case arbiter.GameOver:
			t.finish(o)
		case arbiter.Started:
			if c := t.session.Clock(); t.resumed && c != nil && t.notify.autoResume {
				// The demo's players go on at once; at a real event the
				// arbiter resumes the clocks from the console.
				if err := c.Resume(t.now()); err != nil {
					t.log.Warn("resume clock", "err", err)
				}
			} else if t.resumed && c != nil {
				msg := "the daemon restarted: the clocks are held until the arbiter resumes them"
				if b := t.boardClockText(); b != "" {
					// The board's clock ran on while the daemon was down:
					// the arbiter may set the game's clocks from it.
					msg += " (" + b + ")"
				}
				t.storeAlert(arbiter.Alert{Kind: arbiter.ClocksHeldAlert, At: o.At, Message: msg, Board: "clocks held until the arbiter resumes them"})
			}
			t.hub.Publish(Update{Kind: "started", Table: t.ID, Game: t.gameID(), At: t.wall()})
			t.notify.decided(t, o)
		case arbiter.ClockEvent:
			t.log.Debug("clock", "event", o.Event.String())
		}
	}
}

// keepState stores what a restart must not lose between two moves: the
// clock as it is now (a penalty, a hold, the arbiter's change; the next
// move stores its own) and each side's illegal moves. A daemon killed
// then resumes with them (gameClock, start), as after a clean stop.
func (t *Table) keepState() {
	if t.session == nil || t.game == nil || t.session.Outcome().Over() {
		return
	}
	t.game.Illegal = t.session.IllegalCounts()
	if c := t.session.Clock(); c != nil {
		snap, err := c.Snapshot().MarshalBinary()
		if err != nil {
			t.log.Error("clock snapshot", "game", t.game.ID, "err", err)
			return
		}
		t.game.Clock, t.game.ClockPly = snap, t.session.Plies()
	}
	if err := t.db.SetGameState(t.game.ID, t.game.Clock, t.game.ClockPly, t.game.Illegal); err != nil {
		t.log.Error("store the game's clock and penalties", "game", t.game.ID, "err", err)
	}
}

func (t *Table) gameID() uint64 {
	if t.game == nil {
		return 0
	}
	return t.game.ID
}

// unsavedMove is a decided move waiting to be stored and announced.
type unsavedMove struct {
	rec     store.Move
	out     arbiter.MoveMade
	alerted bool
}

func (t *Table) storeMove(m arbiter.MoveMade) {
	rec := t.moveRecord(m)
	t.unsaved = append(t.unsaved, unsavedMove{rec: rec, out: m})
	if len(t.unsaved) == 1 {
		t.storeUnsaved()
		return
	}
	// An earlier move is still waiting: this one waits behind it.
	t.storeAlert(arbiter.Alert{Kind: arbiter.IrregularityAlert, At: m.At, Message: "move " + m.Notation + " waits: an earlier move could not be stored yet",
		Board: "a move waits to be stored: call the arbiter", Enforced: true})
}

// amendMove replaces the last move by the reader's amended one (its mover
// changed it before the press made it final), audited with the old and
// the new move. A move still waiting to be stored is replaced in the queue.
func (t *Table) amendMove(m arbiter.MoveAmended) {
	rec := t.moveRecord(m.New)
	if n := len(t.unsaved); n > 0 && t.unsaved[n-1].rec.Ply == m.Ply {
		t.unsaved[n-1].rec, t.unsaved[n-1].out = rec, m.New
		return
	}
	a := &store.Action{Who: systemWho, What: "amend-move", Why: "the mover changed the move before the clock press made it final",
		Data: fmt.Sprintf("ply %d: %s, was %s", m.Ply, m.New.Notation, m.Old), At: t.wall()}
	if err := t.db.ReplaceLastMove(&rec, a); err != nil {
		t.log.Error("store amended move", "game", rec.GameID, "ply", rec.Ply, "err", err)
		t.storeAlert(arbiter.Alert{Kind: arbiter.IrregularityAlert, At: m.New.At, Message: fmt.Sprintf("move %d was changed to %s (was %s) but could not be stored: %v", m.Ply, m.New.Notation, m.Old, err),
			Board: "a move could not be stored: call the arbiter", Enforced: true})
		return
	}
	t.mu.Lock()
	t.live.LastMove = m.New.Notation
	t.mu.Unlock()
	t.hub.Publish(Update{Kind: "move", Table: t.ID, Game: rec.GameID, At: rec.Wall, Data: rec})
	t.notify.decided(t, m.New)
}

// moveRecord is the stored form of a move, with the clock after it.
func (t *Table) moveRecord(m arbiter.MoveMade) store.Move {
	rec := store.Move{
		GameID: t.game.ID, Ply: m.Ply, Notation: m.Notation, Canonical: m.Move.String(),
		Position: m.Position.String(), BoardMs: m.BoardMs, HostNs: int64(m.At - t.epoch), Wall: t.wall(),
		ClockFirst: m.Clock[0], ClockSecond: m.Clock[1], Used: m.Used, RawSeq: m.RawSeq,
	}
	if c := t.session.Clock(); c != nil {
		if state, err := c.Snapshot().MarshalBinary(); err == nil {
			rec.ClockState = state
		}
	}
	return rec
}

// storeUnsaved stores the waiting moves in order and announces each once
// it is stored, and only then: not stored means not acknowledged.
func (t *Table) storeUnsaved() {
	for len(t.unsaved) > 0 {
		u := &t.unsaved[0]
		start := time.Now()
		err := t.db.AppendMove(&u.rec)
		t.notify.metrics.observe(&t.notify.metrics.storeMove, time.Since(start))
		if err != nil {
			if !u.alerted { // alert once per move; it is retried every second
				t.log.Error("store move", "game", u.rec.GameID, "ply", u.rec.Ply, "err", err)
				t.storeAlert(arbiter.Alert{Kind: arbiter.IrregularityAlert, At: u.out.At, Message: "move " + u.out.Notation + " could not be stored: " + err.Error(),
					Board: "a move could not be stored: call the arbiter", Enforced: true})
				u.alerted = true
			}
			if t.db.WriteError() != nil {
				t.holdForStorage() // the disk's fault, not the move's
			}
			return
		}
		m := u.out
		t.unsaved = t.unsaved[1:]
		t.notify.metrics.Moves.Add(1)
		t.mu.Lock()
		t.live.Prompt = nil
		t.live.LastMove = m.Notation
		t.mu.Unlock()
		t.hub.Publish(Update{Kind: "move", Table: t.ID, Game: u.rec.GameID, At: u.rec.Wall, Data: u.rec})
		t.notify.decided(t, m)
		t.moveStored(m)
		if t.hold.on && t.session != nil && len(t.unsaved) > 0 {
			t.session.SetUnstored(t.unsaved[0].rec.Ply, t.now())
		}
	}
	t.releaseStorageHold()
	if o := t.pendingOver; o != nil {
		t.finish(*o) // the end of the game, after its last move
	}
}

func (t *Table) storeAlert(a arbiter.Alert) {
	rec := store.Alert{GameID: t.gameID(), BoardID: t.ID, Kind: a.Kind.String(), Message: a.Message, At: t.wall(),
		Where: fmt.Sprintf("table %d (board %s)", t.Number, t.ID), Advice: a.Kind.Advice()}
	if t.game != nil {
		rec.Where += ": " + t.game.First + " – " + t.game.Second
	}
	if len(a.Evidence) > 0 {
		rec.Evidence = fmt.Sprint(a.Evidence)
	}
	if err := t.db.AddAlert(&rec); err != nil {
		t.log.Error("store alert", "err", err)
	}
	t.notify.metrics.Alerts.Add(1)
	t.hub.Publish(Update{Kind: "alert", Table: t.ID, Game: t.gameID(), At: rec.At, Data: rec})
	t.notify.decided(t, a)
}

func (t *Table) finish(o arbiter.GameOver) {
	reason := o.Outcome.Reason.String()
	if len(t.unsaved) > 0 && t.hold.on {
		t.pendingOver = &o // stored after the moves that lead to it, once the disk takes them
		return
	}
	if err := t.db.SetResult(t.game.ID, o.Outcome.Result.String(), reason, t.wall(), nil); err != nil {
		if t.pendingOver == nil { // logged once: it is retried every second
			t.log.Error("store result", "game", t.game.ID, "err", err)
		}
		if t.db.WriteError() != nil {
			t.pendingOver = &o // retried with the moves, every second
		}
		return
	}
	t.pendingOver = nil
	t.game.Result, t.game.Reason, t.game.Ended = o.Outcome.Result.String(), reason, t.wall()
	t.notify.metrics.Results.Add(1)
	t.log.Info("game over", "game", t.game.ID, "result", t.game.Result, "reason", reason)
	t.hub.Publish(Update{Kind: "result", Table: t.ID, Game: t.game.ID, At: t.wall(), Data: o.Outcome.String()})
	t.notify.decided(t, o)
	t.notify.gameEnded(t, *t.game)
}

// refresh copies the session's state into the display state.
func (t *Table) refresh() {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.live.Updated = t.wall()
	if t.session == nil || t.game == nil {
		return
	}
	g, s := t.game, t.session
	t.live.GameID, t.live.Game, t.live.First, t.live.Second = g.ID, g.Game, g.First, g.Second
	pos := s.Position()
	if t.live.Plies != s.Plies() || t.live.View == nil {
		t.live.Position = pos.String()
		t.live.View = NewBoardView(t.rgame, pos)
	}
	t.live.Plies = s.Plies()
	t.live.Turn = t.rgame.SideName(pos.Turn())
	t.live.Result = g.Result
	t.live.Offer = t.offerText()
	if c := s.Clock(); c != nil {
		now := t.now()
		for side := range 2 {
			r := c.Reading(clock.Side(side), now)
			t.live.Clock[side] = ClockFace{Millis: r.Display.Milliseconds(), Running: r.Running, Phase: r.Phase.String(), Periods: r.ByoyomiLeft}
		}
	}
}

// errNoGame is returned by commands on a table without a game.
var errNoGame = errors.New("no game is running on this table")
