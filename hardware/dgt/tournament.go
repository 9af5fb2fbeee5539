package dgt

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"sync"
	"time"

	"arbiter/rules"
)

// TournamentConfig configures a [Tournament]. Zero fields take the
// defaults.
type TournamentConfig struct {
	// Boards are the addresses expected on the line; [Bus.Discover] adds
	// the others that answer.
	Boards []uint16
	// Poll is the interval between two rounds of DGT_BUS_SEND_CHANGES
	// (default 2 s: "once every few seconds").
	Poll time.Duration
	// Verify: every this many quiet polls a board is read whole and
	// compared with the changes (default 5), which finds lost changes.
	Verify int
	// Clock: every this often each board's clock is read
	// (DGT_BUS_SEND_CLOCK) and delivered as an EventClock (0: never; the
	// lever presses come from the log's time tags either way). The bus
	// has no command to set a clock or show text on it.
	Clock time.Duration
	// Orientation and WhiteRight as in [Config].
	Orientation Orientation
	WhiteRight  bool
	// Now returns the host's monotonic time (default: since NewTournament).
	Now func() time.Duration
	// Emit receives every event, from the goroutine of Run.
	Emit func(Event)
	// Logger receives diagnostics (default slog.Default()).
	Logger *slog.Logger
}

// TournamentStats counts what the loop did.
type TournamentStats struct {
	Polls, Changes, Verifies uint64
	// Replays counts full replays from the start tag (data were lost);
	// Resyncs counts boards adopted from a full read because even the
	// replay disagreed.
	Replays, Resyncs uint64
}

// Tournament is the bus host loop DGT's header recommends for events:
// find the boards, wait until every one shows the start position and
// write the start tag into each, then poll each board's changes every
// few seconds. Changes are applied to the host's copy of each board and
// delivered once a quiet poll's full read agrees with them; when changes
// were lost (a full read disagrees, or a changes reply never came
// through) the board's log is replayed from the start tag. Each board
// gets the events a single board would, with Addr set and the address,
// which is the board's serial number, as Serial.
type Tournament struct {
	bus *Bus
	cfg TournamentConfig
	log *slog.Logger

	mu     sync.Mutex
	boards []*busBoard
	Stats  TournamentStats // guarded by mu; read with StatsNow
}

type busBoard struct {
	addr    uint16
	serial  string
	tracker Tracker
	pos     Position
	moving  bool
	quiet   int
	lost    bool
	tagged  bool // the start tag is written (or the board was resumed)
	clockAt time.Duration
	clocked bool     // clockAt holds the last clock reading's instant
	presses []LogTag // lever presses held until the move before them settles
}

// NewTournament returns the loop for the boards on bus.
func NewTournament(bus *Bus, cfg TournamentConfig) *Tournament {
	if cfg.Poll <= 0 {
		cfg.Poll = 2 * time.Second
	}
	if cfg.Verify <= 0 {
		cfg.Verify = 5
	}
	if cfg.Now == nil {
		epoch := time.Now()
		cfg.Now = func() time.Duration { return time.Since(epoch) }
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.Default()
	}
	return &Tournament{bus: bus, cfg: cfg, log: cfg.Logger}
}

// StatsNow returns the loop's counters.
func (t *Tournament) StatsNow() TournamentStats {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.Stats
}

func (t *Tournament) count(f func(*TournamentStats)) {
	t.mu.Lock()
	f(&t.Stats)
	t.mu.Unlock()
}

func (t *Tournament) emit(bb *busBoard, e Event) {
	e.Serial, e.Addr = bb.serial, bb.addr
	if e.At == 0 {
		e.At = t.cfg.Now()
	}
	if t.cfg.Emit != nil {
		t.cfg.Emit(e)
	}
}

func (t *Tournament) sleep(ctx context.Context) error {
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-time.After(t.cfg.Poll):
		return nil
	}
}

func isStart(p *Position) bool {
	if *p == StartPosition {
		return true
	}
	for f := range p {
		if p[f] != StartPosition[63-f] {
			return false
		}
	}
	return true
}

// rediscover is how often the line is pinged again for boards not yet
// found while the boards are being set up.
const rediscover = time.Second

// discover pings the line and adds the boards not known yet.
func (t *Tournament) discover(ctx context.Context) error {
	known := slices.Clone(t.cfg.Boards)
	for _, bb := range t.boards {
		known = append(known, bb.addr)
	}
	addrs, err := t.bus.Discover(ctx, known)
	if err != nil {
		return err
	}
	for _, a := range addrs {
		if slices.ContainsFunc(t.boards, func(bb *busBoard) bool { return bb.addr == a }) {
			continue
		}
		bb := &busBoard{addr: a, serial: fmt.Sprintf("%05d", a)}
		bb.tracker.Fixed = t.cfg.Orientation
		t.boards = append(t.boards, bb)
		v, err := t.bus.Version(ctx, a)
		if err != nil && ctx.Err() != nil {
			return ctx.Err()
		}
		t.emit(bb, Event{Kind: EventIdentified, Version: v})
	}
	return nil
}

// Run runs the loop until ctx ends (it then returns nil) or the line
// fails (an error wrapping [ErrLineClosed]: open the line again and start
// a new Tournament on it).
//
// A board whose log already holds a start tag and that does not show the
// start position is resumed (the host restarted, or the line came back,
// in mid-game): its game is replayed from the start tag as far as a host
// last took it, delivered as its settled board, and its changes since,
// the moves made while no host polled it, follow move by move, each with
// its lever press. The other boards get their start tag once every one
// of them shows the start position.
func (t *Tournament) Run(ctx context.Context) error {
	if err := t.discover(ctx); err != nil {
		return ignoreCancel(err)
	}
	last := t.cfg.Now()
	for {
		// B. The boards not tagged yet are read whole until every one
		// shows the start position; the line is pinged again meanwhile,
		// so a board whose answer to the first ping was lost, or that
		// was switched on late, still joins.
		if now := t.cfg.Now(); now-last >= rediscover && t.untagged() {
			last = now
			if err := t.discover(ctx); err != nil {
				return ignoreCancel(err)
			}
		}
		waiting, all := false, true
		for _, bb := range t.boards {
			var err error
			if bb.tagged {
				// C. Poll the changes (and now and then the clock).
				err = t.poll(ctx, bb)
				if err == nil {
					err = t.readClock(ctx, bb)
				}
			} else {
				waiting = true
				var ready bool
				ready, err = t.setUp(ctx, bb)
				all = all && ready
			}
			if err != nil {
				return ignoreCancel(err)
			}
		}
		if waiting && all {
			for _, bb := range t.boards {
				if bb.tagged {
					continue
				}
				if err := t.bus.SetStart(ctx, bb.addr); err != nil {
					if ctx.Err() != nil {
						return nil
					}
					return fmt.Errorf("dgt: start tag on board %s: %w", bb.serial, err)
				}
				bb.tagged = true
			}
		}
		if err := t.sleep(ctx); err != nil {
			return nil
		}
	}
}

// untagged reports whether a board is still waiting for its start tag,
// or none was found yet.
func (t *Tournament) untagged() bool {
	if len(t.boards) == 0 {
		return true
	}
	for _, bb := range t.boards {
		if !bb.tagged {
			return true
		}
	}
	return false
}

// setUp reads a board not tagged yet whole; it returns true if the board
// shows the start position. A board in mid-game whose log holds a start
// tag is resumed instead (and counts as ready).
func (t *Tournament) setUp(ctx context.Context, bb *busBoard) (bool, error) {
	p, err := t.bus.Board(ctx, bb.addr)
	if err != nil {
		if errors.Is(err, ErrLineClosed) || ctx.Err() != nil {
			return false, err
		}
		t.silent(bb, err)
		return false, nil
	}
	t.back(bb)
	if !isStart(&p) {
		resumed, err := t.resume(ctx, bb)
		if resumed || err != nil {
			return resumed, err
		}
	}
	bb.pos = p
	bb.tracker.Settle(&p, t.cfg.Now(), Event{}, func(e Event) { t.emit(bb, e) })
	return isStart(&p), nil
}

// resume adopts a board in mid-game from its log: the position replayed
// from its start tag up to the changes a host already took. It returns
// false if the log holds no start tag.
func (t *Tournament) resume(ctx context.Context, bb *busBoard) (bool, error) {
	l, err := t.bus.FromStart(ctx, bb.addr)
	if err != nil {
		if errors.Is(err, ErrLineClosed) || ctx.Err() != nil {
			return false, err
		}
		return false, nil // not this time; the next read tries again
	}
	p, tagged, begin := replayFromStart(l)
	if !tagged {
		return false, nil
	}
	if begin != nil {
		// The orientation is decided by the set-up the game began from.
		bb.tracker.Settle(begin, t.cfg.Now(), Event{}, func(Event) {})
		bb.tracker.Forget()
	}
	t.log.Info("dgt: bus board resumed from its start tag", "board", bb.serial)
	bb.pos, bb.tagged = p, true
	bb.tracker.Settle(&p, t.cfg.Now(), Event{}, func(e Event) { t.emit(bb, e) })
	return true, nil
}

// replayFromStart replays a log (DGT_BUS_SEND_FROM_START) from its last
// start tag, or from its beginning if it holds none (tagged false): every
// field change in order, the board cleared at a power-up (the pieces
// found then follow). begin is the first position of the replay that
// shows the start position, if any.
func replayFromStart(l *Log) (p Position, tagged bool, begin *Position) {
	from := 0
	for i, tag := range l.Tags {
		if tag.Kind == TagMarker && tag.Marker == EEStartTag {
			from, tagged = i+1, true
		}
	}
	for _, tag := range l.Tags[from:] {
		switch {
		case tag.Kind == TagField:
			p[tag.Field] = tag.Piece
			if begin == nil && isStart(&p) {
				b := p
				begin = &b
			}
		case tag.Kind == TagMarker && tag.Marker == EEPowerUp:
			p = Position{}
		}
	}
	return p, tagged, begin
}

func ignoreCancel(err error) error {
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return nil
	}
	return err
}

func (t *Tournament) silent(bb *busBoard, err error) {
	if !bb.lost {
		bb.lost = true
		bb.tracker.Forget()
		t.log.Warn("dgt: bus board silent", "board", bb.serial, "err", err)
		t.emit(bb, Event{Kind: EventLinkLost})
	}
}

// back reports a board that answers again; it returns true if it was lost.
func (t *Tournament) back(bb *busBoard) bool {
	if !bb.lost {
		return false
	}
	bb.lost = false
	t.emit(bb, Event{Kind: EventLinkBack})
	return true
}

func (t *Tournament) poll(ctx context.Context, bb *busBoard) error {
	t.count(func(s *TournamentStats) { s.Polls++ })
	l, err := t.bus.Changes(ctx, bb.addr)
	switch {
	case ctx.Err() != nil:
		return ctx.Err()
	case errors.Is(err, ErrLineClosed):
		return err
	case errors.Is(err, ErrNoReply):
		t.silent(bb, err)
		return nil
	case err != nil:
		// The changes could not be read: they are lost for good.
		t.log.Info("dgt: bus changes lost; replaying from the start tag", "board", bb.serial, "err", err)
		return t.verify(ctx, bb, true)
	}
	if t.back(bb) {
		return t.verify(ctx, bb, true)
	}
	if len(l.Errors) > 0 {
		// Damaged changes: the presses wait for the board replayed from
		// its start tag.
		for _, tag := range l.Tags {
			if tag.Kind == TagTime {
				bb.presses = append(bb.presses, tag)
			}
		}
		return t.verify(ctx, bb, true)
	}
	n := 0
	for _, tag := range l.Tags {
		switch tag.Kind {
		case TagField:
			bb.pos[tag.Field] = tag.Piece
			n++
		case TagTime:
			// The board at a press is the move the player made: it is
			// settled and the press follows it, so that moves made
			// between two polls (or while no host polled) are read one
			// by one.
			t.settle(bb)
			t.press(bb, tag)
		}
	}
	if n > 0 {
		t.count(func(s *TournamentStats) { s.Changes += uint64(n) })
		bb.moving, bb.quiet = true, 0
		return nil
	}
	bb.quiet++
	if bb.moving || bb.quiet >= t.cfg.Verify || len(bb.presses) > 0 {
		return t.verify(ctx, bb, false)
	}
	return nil
}

// verify reads the board whole and settles it. A board that disagrees
// with the changes, or whose changes were lost (lost), is replayed from
// its start tag; if even that disagrees the full read is adopted.
func (t *Tournament) verify(ctx context.Context, bb *busBoard, lost bool) error {
	t.count(func(s *TournamentStats) { s.Verifies++ })
	dump, err := t.bus.Board(ctx, bb.addr)
	if err != nil {
		if errors.Is(err, ErrLineClosed) || ctx.Err() != nil {
			return err
		}
		t.silent(bb, err)
		return nil
	}
	if lost || dump != bb.pos {
		t.count(func(s *TournamentStats) { s.Replays++ })
		l, err := t.bus.FromStart(ctx, bb.addr)
		if errors.Is(err, ErrLineClosed) {
			return err
		}
		if err == nil {
			bb.pos, _, _ = replayFromStart(l)
		}
		if dump != bb.pos {
			// Changes the board has not sent yet, or a log the replay
			// could not read: the full read is the truth.
			t.count(func(s *TournamentStats) { s.Resyncs++ })
			bb.pos = dump
		}
	}
	bb.moving, bb.quiet = false, 0
	t.settle(bb)
	for _, tag := range bb.presses {
		t.press(bb, tag)
	}
	bb.presses = nil
	return nil
}

// readClock reads the board's clock when [TournamentConfig.Clock] says it
// is time. A board that does not answer is left to the next poll.
func (t *Tournament) readClock(ctx context.Context, bb *busBoard) error {
	now := t.cfg.Now()
	if t.cfg.Clock <= 0 || bb.lost || (bb.clocked && now-bb.clockAt < t.cfg.Clock) {
		return nil
	}
	c, err := t.bus.Clock(ctx, bb.addr)
	if err != nil {
		if errors.Is(err, ErrLineClosed) || ctx.Err() != nil {
			return err
		}
		t.log.Debug("dgt: bus clock not read", "board", bb.serial, "err", err)
		return nil
	}
	bb.clockAt, bb.clocked = now, true
	e := Event{Kind: EventClock, Clock: *c, White: c.Left, Black: c.Right}
	if t.cfg.WhiteRight {
		e.White, e.Black = c.Right, c.Left
	}
	t.emit(bb, e)
	return nil
}

// settle delivers the host's copy of the board as settled.
func (t *Tournament) settle(bb *busBoard) {
	p := bb.pos
	bb.tracker.Settle(&p, t.cfg.Now(), Event{}, func(e Event) { t.emit(bb, e) })
}

// press delivers a lever press read from the log's time tag.
func (t *Tournament) press(bb *busBoard, tag LogTag) {
	// A press halts its own side's display.
	side := rules.White
	if tag.Left == t.cfg.WhiteRight {
		side = rules.Black
	}
	e := Event{Kind: EventLever, Side: side, SideKnown: true}
	if tag.Left {
		e.Clock.Left = tag.Time
	} else {
		e.Clock.Right = tag.Time
	}
	t.emit(bb, e)
}
