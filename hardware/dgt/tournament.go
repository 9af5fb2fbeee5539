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
		waiting, all := false, true
		for _, bb := range t.boards {
			var err error
			if bb.tagged {
				// C. Poll the changes (and now and then the clock).
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
				return ignoreCancel(err)
			}
		}
		if waiting && all {
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
