package director

import (
	"context"
	"errors"
	"fmt"
	"time"

	"arbiter/arbiter"
	"arbiter/board"
	"arbiter/clock"
	"arbiter/rules"
	"arbiter/store"
)

// Sender talks to boards: the drivers' display side.
type Sender = board.Display

// BoardEvent takes one event from the sensor-board driver. It runs on the
// driver's goroutine for the board and blocks only when that board's table
// is far behind.
func (d *Director) BoardEvent(ctx context.Context, e board.Event) {
	if e.Board == "" && e.Kind == board.EventError && e.Port != "" && e.Err != nil {
		// A port the driver cannot have (another program holds it).
		d.PortTrouble(e.Port, PortDriver, e.Err.Error(), portAdvice)
		return
	}
	if e.Kind == board.EventHello {
		d.portAnswered(e.Port)
	}
	t, ok := d.Table(e.Board)
	if !ok {
		if e.Kind != board.EventHello {
			return
		}
		var err error
		if t, err = d.adopt(e.Board, e.Info); err != nil {
			d.log.Warn("a board with no table answered", "board", e.Board, "port", e.Port, "err", err)
			return
		}
	}
	switch e.Kind {
	case board.EventHello:
		if e.Info != nil {
			t.setCaps(arbiter.CapsOfBoard(e.Info))
			t.setShows(e.Info.Caps)
		}
		t.setPort(e.Port)
		t.SetHealth(board.Active.String())
		d.boardBack(ctx, t)
		return
	case board.EventClock:
		t.setBoardClock(e.Clock)
	case board.EventError:
		if errors.Is(e.Err, board.ErrAttention) {
			d.boardTrouble(t, e.Err)
		}
	case board.EventHealth:
		gone := !t.boardPresent()
		t.SetHealth(e.Health.String())
		if gone && e.Health == board.Active {
			// A board that stopped answering talks again, without a
			// handshake.
			d.boardBack(ctx, t)
		}
	}
	if e.Kind == board.EventHistory {
		if e.Err != nil {
			d.log.Warn("the board's log could not be read", "board", e.Board, "err", e.Err)
		} else {
			d.log.Info("the board's log read", "board", e.Board, "presses", len(e.History))
		}
	}
	if ev, ok := arbiter.FromSensor(e); ok {
		t.Input(ctx, ev)
	}
}

// boardBack handles a board that talks again: in the middle of its game
// it is asked for its own log, since moves may have been made while the
// host did not see it; a table with no game starts the one that waited.
func (d *Director) boardBack(ctx context.Context, t *Table) {
	if l := t.Live(); l.GameID != 0 && l.Result == "" {
		t.recall("board back")
		return
	}
	d.startIfIdle(ctx, t)
}

// startIfIdle starts, when the table plays no game, the game of the round
// that may have waited for its board, which is back.
func (d *Director) startIfIdle(ctx context.Context, t *Table) {
	if l := t.Live(); l.GameID != 0 && l.Result == "" {
		return
	}
	d.background(func() {
		if err := d.startWaiting(ctx, t, nil); err != nil {
			d.log.Error("start a waiting game", "table", t.ID, "err", err)
		}
	})
}

// display sends the board what it should show after a stored move: the
// acknowledgement and both clocks, the opponent's running unless the
// clocks are held (an arbiter's pause, a restart).
func display(s Sender, id string, geo *rules.Geometry, m arbiter.MoveMade, held bool) {
	if s == nil {
		return
	}
	from, to := m.Move.From(), m.Move.To()
	if from != rules.NoSquare {
		from = rules.Square(geo.SensorIndex(from))
	}
	if to != rules.NoSquare {
		to = rules.Square(geo.SensorIndex(to))
	}
	_ = s.Show(id, &board.AckMove{Ply: uint16(m.Ply), From: from, To: to, Text: m.Notation})
	running := board.SideFirst
	switch {
	case held:
		running = board.SideNone
	case m.Side == rules.First:
		running = board.SideSecond
	}
	_ = s.Show(id, &board.Clock{First: ms(m.Clock[0]), Second: ms(m.Clock[1]), Running: running})
}

// displayClock sends the board both clocks as they read at at: from the
// start of the game, before any move has been made (issue 18 §5).
func displayClock(s Sender, id string, c *clock.Clock, at time.Duration) error {
	if s == nil || c == nil {
		return nil
	}
	var msg board.Clock
	msg.Running = board.SideNone
	for side, w := range []*uint32{&msg.First, &msg.Second} {
		r := c.Reading(clock.Side(side), at)
		*w = ms(r.Display)
		if r.Running {
			msg.Running = board.SideFirst
			if side == 1 {
				msg.Running = board.SideSecond
			}
		}
	}
	if err := s.Show(id, &msg); err != nil {
		return fmt.Errorf("board %s: clock: %w", id, err)
	}
	return nil
}

// clockChange returns the instant of an output after which the game's
// clock may read otherwise than the board last showed without a move: an
// alert (an illegal move's penalty, a take-back's hold), a recovery begun
// or done (held, running again), the end of the game (stopped), or what
// the clock did by itself. The board is then sent the clock again.
func clockChange(o arbiter.Output) (time.Duration, bool) {
	switch o := o.(type) {
	case arbiter.Alert:
		return o.At, true
	case arbiter.Recovery:
		return o.At, true
	case arbiter.GameOver:
		return o.At, true
	case arbiter.ClockEvent:
		return o.Event.At, true
	}
	return 0, false
}

func ms(d time.Duration) uint32 {
	if d < 0 {
		return 0
	}
	return uint32(d / time.Millisecond)
}

// adopt gives a newly plugged board without an assignment a table: the
// first tournament of a game the board fits (when its hello gives its
// cells) that has fewer tables than boards in a round gets it. A game of
// the current round that has no table yet starts on it once BoardEvent has
// taken the hello's capabilities: a game started before them would judge
// heights only. Boards are adopted one at a time, so that boards saying
// hello together take tables of their own.
func (d *Director) adopt(boardID string, hello *board.Info) (*Table, error) {
	d.adoptMu.Lock()
	defer d.adoptMu.Unlock()
	if t, ok := d.Table(boardID); ok {
		return t, nil // adopted meanwhile by another hello of the board
	}
	for _, id := range d.TournamentIDs() {
		if tr := d.tour(id); hello != nil && hello.Cells > 0 && tr != nil && hello.Fits(tr.game.Geometry()) != nil {
			continue // a board for another game (a DGT board plays chess only)
		}
		players, err := d.db.Players(id)
		if err != nil {
			return nil, err
		}
		tables := 0
		for _, l := range d.Tables() {
			if l.Tournament == id {
				tables++
			}
		}
		if tables >= len(players)/2 {
			continue
		}
		t, err := d.AddTable(id, boardID)
		if err != nil {
			return nil, err
		}
		d.log.Info("board adopted", "board", boardID, "tournament", id, "table", t.Number)
		return t, nil
	}
	return nil, errors.New("every tournament has a table for each board")
}

// startWaiting starts on t the game of its tournament's current round that
// is not on a table yet: first an unfinished game that was played on this
// board before a restart (it goes on from its stored moves), else the
// first unfinished game no board has begun.
//
// A table whose board is gone starts nothing unless the arbiter's action
// by (nil if none) wants it started all the same; by is stored with the
// game's start.
func (d *Director) startWaiting(ctx context.Context, t *Table, by *store.Action) error {
	if by == nil && !t.boardPresent() {
		return nil
	}
	d.waitMu.Lock()
	defer d.waitMu.Unlock()
	tr := d.tour(t.Tournament)
	rounds, err := d.db.Rounds(t.Tournament)
	if err != nil || len(rounds) == 0 || d.ctx == nil {
		return err
	}
	playing := map[uint64]bool{}
	for _, l := range d.Tables() {
		playing[l.GameID] = true
	}
	var pick *store.Game
	for _, p := range rounds[len(rounds)-1].Pairings {
		if p.GameID == 0 || p.Result != "" || playing[p.GameID] {
			continue
		}
		g, err := d.db.Game(p.GameID)
		if err != nil {
			return err
		}
		if g.BoardID == t.ID {
			pick = &g
			break
		}
		if moves, err := d.db.Moves(g.ID); err != nil || len(moves) > 0 || pick != nil {
			continue // begun on another board: it waits for that board
		}
		pick = &g
	}
	if pick == nil {
		return nil
	}
	return d.begin(ctx, t, pick, tr.game, d.arbiterConfig(tr), by)
}

// begin starts game g on table t, on the table's goroutine, unless the
// table already plays an unfinished game (a board's return and a round's
// pairing may both start the game meant for it). Only then does the game
// record the board it is played on and, when it begins there, the board's
// next raw-log frame, where its replay starts: recorded by the start that
// happened, it is never one past the frames that started the game, nor a
// frame number of another board's log (issue 18 §4, "no raw frames").
// The arbiter's action by, if not nil, is stored with the game's record.
func (d *Director) begin(ctx context.Context, t *Table, g *store.Game, rg rules.Game, cfg arbiter.Config, by *store.Action) error {
	return t.Do(ctx, func() error {
		if t.session != nil && t.game != nil && t.game.Result == "" && !t.session.Outcome().Over() {
			return nil // started meanwhile
		}
		if d.raw != nil && (g.RawFrom == 0 || g.BoardID != t.ID || t.backlog.From() != 0) {
			// A game begun without a move on another board (before a
			// restart) has that board's frame number, which means nothing
			// in this board's log. A game handed the board's backlog
			// replays from the backlog's dump.
			ms, err := d.db.Moves(g.ID)
			if err != nil {
				return err
			}
			if len(ms) == 0 {
				g.RawFrom = t.backlog.From()
				if g.RawFrom == 0 {
					if g.RawFrom, err = d.raw.Next(t.ID); err != nil {
						return err
					}
				}
			}
		}
		g.BoardID = t.ID
		save := d.db.UpdateGame
		if by != nil {
			save = func(g *store.Game) error { return d.db.ChangeGame(g, by) }
		}
		if err := save(g); err != nil {
			return err
		}
		if r, err := rules.NewFromText(g.Game, g.Options); err == nil {
			// The game's own rules: a pairing may have a handicap
			// (SetHandicap) its tournament does not.
			rg = r
		}
		return t.start(g, rg, cfg)
	})
}

// tell shows the players on a board with a display what a table decided
// (issue 18 §5): an alert's text (CAP_TEXT) and its squares lit
// (CAP_LIGHTS), the squares to restore, the result; and clears them once
// the matter is resolved (the board restored, a move made), back to the
// standing text of an open offer if one stands (buttons.go).
func (t *Table) tell(s Sender, o arbiter.Output) error {
	var text *board.Alert
	var lit *board.Lights
	switch o := o.(type) {
	case arbiter.Alert:
		if o.Kind == arbiter.LinkAlert {
			// About the link itself: a board that hears it is talking
			// again, and nothing would clear it once the link is back.
			return nil
		}
		level := board.AlertWarning
		if o.Enforced {
			level = board.AlertError
		}
		text = &board.Alert{Level: level, Beep: o.Enforced, Text: shownText(o.Board, o.Message, o.Kind.String()+": see the arbiter"), Kind: o.Kind.String()}
		if len(o.Squares) > 0 {
			lit = t.lights(board.ColorAttn, o.Squares)
		}
	case arbiter.Recovery:
		if o.Done {
			text, lit = t.standing(), &board.Lights{}
			break
		}
		sq := make([]rules.Square, len(o.Fixes))
		for i, f := range o.Fixes {
			sq[i] = f.Square
		}
		text = &board.Alert{Level: board.AlertError, Beep: true, Text: shownText(o.Board, o.Reason, "restore the position: see the lit squares"), Kind: arbiter.RecoveryAlert.String()}
		lit = t.lights(board.ColorBad, sq)
	case arbiter.MoveMade:
		if !t.shown {
			return nil
		}
		text, lit = t.standing(), &board.Lights{}
	case arbiter.GameOver:
		text, lit = &board.Alert{Level: board.AlertInfo, Text: o.Outcome.String(), Kind: "result"}, &board.Lights{}
	default:
		return nil
	}
	return t.display(s, text, lit)
}

// shownText is the first of texts, not empty, that fits a board's
// display (board.Fit): an alert's own board text, then its message, then
// a short text of its kind.
func shownText(texts ...string) string {
	var some []string
	for _, t := range texts {
		if t != "" {
			some = append(some, t)
		}
	}
	return board.Fit(some...)
}

// lights lights squares in colour, blinking, in the board's numbering.
func (t *Table) lights(color uint8, squares []rules.Square) *board.Lights {
	geo := t.rgame.Geometry()
	m := &board.Lights{Mode: board.LightBlink, Color: color}
	for _, sq := range squares {
		if sq == rules.NoSquare {
			continue
		}
		m.Squares = append(m.Squares, uint16(geo.SensorIndex(sq)))
	}
	return m
}
