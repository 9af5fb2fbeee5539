package dgt

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"sync"
	"time"
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
	// Rediscover is how often the line is pinged again for boards not
	// found yet once every found board plays (default 1 min): a board
	// switched on late, or whose answers to the first pings were lost,
	// joins then. A ping round holds the line for about PingWindow and
	// two requests per board. While boards are being set up the line is
	// pinged every second.
	Rediscover time.Duration
	// Orientation and WhiteRight as in [Config].
	Orientation Orientation
	WhiteRight  bool
	// Now returns the host's monotonic time (default: the bus's
	// [BusConfig.Now]; give both the same). The events' instants are the
	// bus's: each is the instant of the request's outcome it follows.
	Now func() time.Duration
	// Emit receives every event, from the goroutine of Run.
	Emit func(Event)
	// Logger receives diagnostics (default slog.Default()).
	Logger *slog.Logger
}

// TournamentStats counts what the loop did.
type TournamentStats struct {
	Polls, Changes, Verifies uint64
	// Replays counts full replays from the start tag that found changes
	// lost (or that followed changes known lost); Resyncs counts boards
	// adopted from a full read because even the replay disagreed (changes
	// not sent yet, or lost for good).
	Replays, Resyncs uint64
	// Unanswered counts changes requests that got no good reply after
	// every try (each reply silent or failing its checksum): the changes
	// are lost for good, and a replay follows.
	Unanswered uint64
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

// NewTournament returns the loop for the boards on bus.
func NewTournament(bus *Bus, cfg TournamentConfig) *Tournament {
	if cfg.Poll <= 0 {
		cfg.Poll = 2 * time.Second
	}
	if cfg.Verify <= 0 {
		cfg.Verify = 5
	}
	if cfg.Rediscover <= 0 {
		cfg.Rediscover = time.Minute
	}
	if cfg.Now == nil {
		cfg.Now = bus.cfg.Now // the instants of the raw log's records
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

// discover pings the line and adds the boards not known yet, each
// asked for its version: a new session of the board.
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
		bb := newBusBoard(a, &t.cfg, t.log, t.count, t.cfg.Emit)
		t.boards = append(t.boards, bb)
		if err := t.run(ctx, bb, exIdentify); err != nil {
			return err
		}
	}
	return nil
}

// run drives one exchange of bb with the board (see [Tournament.exchange])
// and returns only the failures of the line and ctx's end.
func (t *Tournament) run(ctx context.Context, bb *busBoard, x busExchange) error {
	_, err := t.exchange(ctx, bb, x)
	return err
}

// exchange drives one exchange of bb with the board: its requests go on
// the bus one by one, each outcome fed back with its instant, until the
// board wants no more. err is a failure of the line (wrapping
// [ErrLineClosed]) or ctx's end, which end the loop; failed is the error
// of the exchange's last request, which the board took as its outcome.
func (t *Tournament) exchange(ctx context.Context, bb *busBoard, x busExchange) (failed, err error) {
	bb.begin(x, t.cfg.Now())
	for {
		cmd, ok := bb.want()
		if !ok {
			return failed, nil
		}
		m, at, err := t.bus.exchange(ctx, cmd, bb.addr)
		if ctx.Err() != nil {
			return err, ctx.Err()
		}
		if errors.Is(err, ErrLineClosed) {
			return err, err
		}
		failed = err
		bb.outcome(m, err, at)
	}
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
		// was switched on late, still joins. Once every board plays, it
		// is pinged again now and then (Rediscover) for a board switched
		// on later still.
		if now := t.cfg.Now(); (now-last >= rediscover && t.untagged()) || now-last >= t.cfg.Rediscover {
			last = now
			if err := t.discover(ctx); err != nil {
				return ignoreCancel(err)
			}
		}
		waiting, all, err := t.pollAll(ctx)
		if err != nil {
			return ignoreCancel(err)
		}
		if waiting && all {
			if err := t.tagAll(ctx); err != nil || ctx.Err() != nil {
				return err
			}
		}
		if err := t.sleep(ctx); err != nil {
			return nil
		}
	}
}

// pollAll reads every board once: C, a tagged board's changes (and now
// and then its clock); B, an untagged one whole. waiting says whether a
// board is untagged, all whether every untagged one is ready for its
// start tag.
func (t *Tournament) pollAll(ctx context.Context) (waiting, all bool, _ error) {
	all = true
	for _, bb := range t.boards {
		var err error
		if bb.tagged {
			err = t.run(ctx, bb, exPoll)
			if err == nil && bb.clockDue(t.cfg.Now()) {
				err = t.run(ctx, bb, exClock)
			}
		} else {
			waiting = true
			err = t.run(ctx, bb, exSetUp)
			all = all && bb.ready
		}
		if err != nil {
			return waiting, all, err
		}
	}
	return waiting, all, nil
}

// tagAll writes the start tag on every board not tagged yet. It returns
// nil when ctx ends.
func (t *Tournament) tagAll(ctx context.Context) error {
	for _, bb := range t.boards {
		if bb.tagged {
			continue
		}
		failed, err := t.exchange(ctx, bb, exTag)
		if ctx.Err() != nil {
			return nil
		}
		if err == nil {
			err = failed
		}
		if err != nil {
			return fmt.Errorf("dgt: start tag on board %s: %w", bb.serial, err)
		}
	}
	return nil
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

// fromStart replays a board's answer to DGT_BUS_SEND_FROM_START: its
// log from its last start tag up to the changes already sent. Boards
// differ in what it holds, and DGT's notes do not say: the tag itself or
// not, the pieces the board logs when it writes the tag or not. Every
// field change is applied in order (the board cleared at a power-up, the
// pieces found then following). The pieces logged with the tag make the
// start position the game began from, which tells the orientation; an
// answer without them is replayed from the start position the tag was
// written at, in the orientation fixed (when not Undecided) or in the one
// that explains the changes (from the other one's, a game's first move
// makes pieces no game can have), and where both do, in prefer's. o is
// the orientation the game began in (Undecided when nothing tells). An
// answer that holds no game, neither a start tag nor a field change (a
// board never tagged), is [errNoGame]; one whose changes no start
// position explains, an error that says so.
func fromStart(l *Log, fixed, prefer Orientation) (p Position, o Orientation, err error) {
	from, tagged := 0, false
	for i, tag := range l.Tags {
		if tag.Kind == TagMarker && tag.Marker == EEStartTag {
			from, tagged = i+1, true
		}
	}
	tags := l.Tags[from:]
	changes := slices.ContainsFunc(tags, func(t LogTag) bool { return t.Kind == TagField })
	// The pieces logged with the tag, from an empty board.
	if p, begin := replayTags(Position{}, tags); begin != nil {
		return p, startOrientation(begin), nil
	}
	if !tagged && !changes {
		return Position{}, Undecided, errNoGame
	}
	best := bestReplay(tags, fixed, prefer)
	if best.bad > 0 && !tagged {
		return Position{}, Undecided, fmt.Errorf("dgt: %d field changes without a start tag that no start position explains", len(tags))
	}
	return best.p, best.o, nil
}

// A startReplay is the position tags replay to from the start position
// in orientation o, and how many implausible things it shows.
type startReplay struct {
	o   Orientation
	p   Position
	bad int
}

// bestReplay replays tags from the start position in the orientation
// fixed (both when Undecided) and returns the replay that explains them
// best: where both do, prefer's.
func bestReplay(tags []LogTag, fixed, prefer Orientation) startReplay {
	var rs []startReplay
	for _, cand := range []Orientation{Normal, Rotated} {
		if fixed == Undecided || fixed == cand {
			q, _ := replayTags(startIn(cand), tags)
			rs = append(rs, startReplay{cand, q, implausible(&q)})
		}
	}
	best := rs[0]
	switch {
	case len(rs) == 2 && rs[1].bad < rs[0].bad:
		best = rs[1]
	case len(rs) == 2 && rs[1].bad == rs[0].bad:
		// Nothing tells them apart (no move yet).
		if prefer == Rotated {
			best = rs[1]
		}
		best.o = prefer
	}
	return best
}

// errNoGame is the answer from the start tag of a board that holds none.
var errNoGame = errors.New("dgt: the board's log holds no start tag")

// ErrNotResumed is the error of an [EventError] of a board found in
// mid-game whose game could not be read from its log since the start tag
// in [resumeTries] set-up rounds in a row (its answers lost, or not a
// game): the moves made while no host polled it are not read, and the
// arbiter must see to them.
var ErrNotResumed = errors.New("dgt: the board's game could not be read from its log since the start tag, so the moves made while no host polled it are not read")

// resumeTries is how many set-up rounds in a row a board in mid-game
// fails to be resumed before [ErrNotResumed] is reported.
const resumeTries = 3

// replayTags applies the field changes of tags to p in order, the board
// cleared at a power-up. begin is the first position on the way that
// shows a start position, nil if none.
func replayTags(p Position, tags []LogTag) (Position, *Position) {
	var begin *Position
	for _, tag := range tags {
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
	return p, begin
}

// startIn returns the start position on a board lying in orientation o.
func startIn(o Orientation) Position {
	if o != Rotated {
		return StartPosition
	}
	var p Position
	for f, q := range StartPosition {
		p[63-f] = q
	}
	return p
}

// startOrientation returns the orientation of a start position.
func startOrientation(p *Position) Orientation {
	if *p == StartPosition {
		return Normal
	}
	return Rotated
}

// implausible counts what no chess game can have on the board: a side
// with more than eight pawns, or more pieces of a kind than its start's
// and the pawns it can have promoted, or more than one king.
func implausible(p *Position) int {
	var n [16]int
	for _, q := range p {
		n[q&0x0f]++
	}
	bad := 0
	for _, side := range [2][6]Piece{{WPawn, WRook, WKnight, WBishop, WQueen, WKing}, {BPawn, BRook, BKnight, BBishop, BQueen, BKing}} {
		pawns, rooks, knights, bishops, queens, kings := n[side[0]], n[side[1]], n[side[2]], n[side[3]], n[side[4]], n[side[5]]
		promoted := max(rooks-2, 0) + max(knights-2, 0) + max(bishops-2, 0) + max(queens-1, 0)
		bad += max(pawns+promoted-8, 0) + max(kings-1, 0)
	}
	return bad
}

func ignoreCancel(err error) error {
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return nil
	}
	return err
}
