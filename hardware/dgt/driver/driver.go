package driver

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"path/filepath"
	"sync"
	"time"

	"arbiter/board"
	"arbiter/hardware/dgt"
	"arbiter/hardware/serialport"
	"arbiter/rules"
)

// Protocol is the name of the DGT protocol in configurations and in the
// raw log (board.Info.Protocol).
const Protocol = "dgt"

// IDPrefix begins the board id of every DGT board: the rest is its serial
// number.
const IDPrefix = "DGT-"

// Caps are the capabilities a DGT board announces in its handshake: it
// senses whether a square is occupied and by which piece of which colour,
// a DGT 3000 clock plugged in shows times and text, and its EEPROM keeps
// the game's log ([Driver.Recall]).
const Caps = board.CapHeight | board.CapIdentity | board.CapColor |
	board.CapClockDisplay | board.CapText | board.CapLog

// BusCaps are the capabilities of a board on a bus line: a DGT board's,
// less CapLog, since DGT's tournament loop reads a bus board's log by
// itself whenever it meets the board again in mid-game (no one need ask
// for it), and less the clock's display and text, which the bus cannot
// set.
const BusCaps = Caps &^ (board.CapLog | board.CapClockDisplay | board.CapText)

// Config configures a [Driver].
type Config struct {
	// Paths are serial devices of DGT boards; Globs are patterns that
	// find them (read again every Scan).
	Paths, Globs []string
	// Scan is how often the patterns are read again (default 1 s).
	Scan time.Duration
	// Session tunes every board's host session (settle time, White at the
	// clock's right display).
	Session dgt.Config
	// Now returns the host's monotonic time; every event's instant comes
	// from it.
	Now func() time.Duration
	// Handler receives every translated event, from the board's goroutine.
	Handler func(board.Event)
	// Raw, if set, receives every chunk read from a board and every
	// command written to it, under the board's id (protocol [Protocol]),
	// stamped with the instant its session took or sent it
	// ([dgt.ConnConfig.Raw]; an empty read: the port failed): the raw log
	// from which the board.Replayer of the protocol ([Replayer]) recreates
	// the board's events exactly. The bytes a board sends before it has
	// told its serial number (its handshake) follow once it has. Raw is
	// called from the port's goroutine, must be quick and must not call
	// the driver; r.Data is valid only during the call, and r.Seq is 0.
	Raw func(boardID string, r board.Record)
	// Open opens a port (default [dgt.OpenSerial]).
	Open func(path string) (io.ReadWriteCloser, error)
	// Logger receives diagnostics (default slog.Default()).
	Logger *slog.Logger
}

// Driver runs the DGT boards of the configured ports. Its methods are
// safe for concurrent use.
type Driver struct {
	cfg Config
	log *slog.Logger

	mu     sync.Mutex
	ports  map[string]*link // by path
	boards map[string]*link // by board id
}

// New returns a driver for cfg.
func New(cfg Config) (*Driver, error) {
	if cfg.Now == nil {
		return nil, errors.New("dgt driver: no clock (Config.Now)")
	}
	for _, g := range cfg.Globs {
		if _, err := filepath.Match(g, ""); err != nil {
			return nil, fmt.Errorf("dgt driver: pattern %q: %w", g, err)
		}
	}
	if cfg.Scan <= 0 {
		cfg.Scan = time.Second
	}
	if cfg.Open == nil {
		cfg.Open = dgt.OpenSerial
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.Default()
	}
	return &Driver{cfg: cfg, log: cfg.Logger, ports: map[string]*link{}, boards: map[string]*link{}}, nil
}

// Run watches the ports until ctx ends: every configured path, and every
// path a pattern finds, gets a link of its own that reopens the port after
// an unplug.
func (d *Driver) Run(ctx context.Context) error {
	serialport.Watch(ctx, d.cfg.Paths, d.cfg.Globs, d.cfg.Scan, d.log, func(ctx context.Context, path string) {
		l := d.newLink(path)
		d.mu.Lock()
		d.ports[path] = l
		d.mu.Unlock()
		l.run(ctx)
	})
	return nil
}

// Owns reports whether board is a DGT board this driver has met.
func (d *Driver) Owns(board string) bool {
	d.mu.Lock()
	defer d.mu.Unlock()
	_, ok := d.boards[board]
	return ok
}

func (d *Driver) board(id string) (*link, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	l, ok := d.boards[id]
	if !ok {
		return nil, fmt.Errorf("dgt board %s: not connected", id)
	}
	return l, nil
}

// Show shows a message on a DGT board: the clock times (set and run for
// the side to move) and alert text. Messages a DGT board cannot show are
// ignored. It implements [board.Display].
func (d *Driver) Show(id string, m board.Message) error {
	l, err := d.board(id)
	if err != nil {
		return err
	}
	switch m := m.(type) {
	case *board.Clock:
		ms := func(v uint32) time.Duration { return time.Duration(v) * time.Millisecond }
		if side, ok := m.Running.Color(); ok {
			err = l.conn.SetClock(ms(m.First), ms(m.Second), side)
		} else {
			// Both clocks stand: the game ended, the arbiter paused it or
			// holds it while the board is put right.
			err = l.conn.StopClock(ms(m.First), ms(m.Second))
		}
		if err != nil {
			return fmt.Errorf("dgt board %s: clock: %w", id, err)
		}
	case *board.Alert:
		if m.Level == board.AlertClear {
			l.conn.EndText()
		} else {
			err = l.conn.ShowText(clockText(m))
		}
		if err != nil {
			return fmt.Errorf("dgt board %s: text: %w", id, err)
		}
	}
	return nil
}

// Resync delivers the board's settled position whole, as a snapshot. It
// implements [board.Display].
func (d *Driver) Resync(id string) error {
	l, err := d.board(id)
	if err != nil {
		return err
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if !l.have {
		return fmt.Errorf("dgt board %s: no full board read yet", id)
	}
	l.emit(l.snapshot(board.Event{Host: d.cfg.Now()}))
	return nil
}

// link is one port and the board on it.
type link struct {
	d    *Driver
	path string
	caps board.Caps // announced in the board's hello: Caps, or BusCaps
	conn *dgt.Conn

	mu       sync.Mutex // guards what follows and orders the handler's calls
	id       string     // board id once the serial number is known
	board    [64]rules.Piece
	have     bool // board holds a full read
	lost     bool
	lastSide rules.Color
	pressed  bool // lastSide is known
	// lever: the side the rocker lever is down on, the last press seen
	// on this link (leverKnown), for the turn the clock shows; forgotten
	// when the link is lost, as the lever may move unseen.
	lever      rules.Color
	leverKnown bool
	clock      *board.ClockReading // the last reading
	held       serialport.Held

	// The events wait here for the handler: the session emits them with
	// its Conn locked, and the handler may wait for a table that is
	// itself sending to this board.
	qmu   sync.Mutex
	queue []board.Event
	ready chan struct{}

	// The raw log (Config.Raw): the board's id once known, and the bytes
	// read and written before.
	rawMu         sync.Mutex
	rawID         string
	rawEarly      []board.Record
	rawEarlyBytes int
}

func (d *Driver) newLink(path string) *link {
	l := &link{d: d, path: path, caps: Caps, ready: make(chan struct{}, 1)}
	cc := dgt.ConnConfig{Session: d.cfg.Session, Now: d.cfg.Now, Emit: l.take, Logger: d.log.With("port", path)}
	if d.cfg.Raw != nil {
		cc.Raw = l.raw
	}
	l.conn = dgt.NewConn(cc)
	return l
}

// run serves the link's port until ctx ends, and returns once every
// event read from the board has been handed to the handler: its bytes
// are in the raw log, so a daemon stopping must still take it.
func (l *link) run(ctx context.Context) {
	stop := make(chan struct{})
	delivered := make(chan struct{})
	go func() { l.deliver(stop); close(delivered) }()
	_ = dgt.Watch(ctx, l.conn, l.open, l.d.cfg.Scan)
	close(stop)
	<-delivered
}

// open opens the link's port. A port another process holds is left alone
// (looked at again every Scan) and reported once per holder.
func (l *link) open() (io.ReadWriteCloser, error) {
	rw, err := l.d.cfg.Open(l.path)
	if l.held.News(err) {
		l.mu.Lock()
		l.emit(board.Event{Kind: board.EventError, Host: l.d.cfg.Now(), Err: err})
		l.mu.Unlock()
	}
	return rw, err
}

// emit queues e for the handler.
func (l *link) emit(e board.Event) {
	e.Board, e.Port = l.id, l.path
	if e.At == 0 {
		e.At = e.Host
	}
	l.qmu.Lock()
	l.queue = append(l.queue, e)
	l.qmu.Unlock()
	select {
	case l.ready <- struct{}{}:
	default:
	}
}

// deliver hands the queued events to the handler, in order, until stop
// is closed; then it hands over what is still queued and returns. Close
// stop once nothing emits any more.
func (l *link) deliver(stop <-chan struct{}) {
	for {
		stopping := false
		select {
		case <-stop:
			stopping = true
		case <-l.ready:
		}
		l.qmu.Lock()
		q := l.queue
		l.queue = nil
		l.qmu.Unlock()
		for _, e := range q {
			if l.d.cfg.Handler != nil {
				l.d.cfg.Handler(e)
			}
		}
		if stopping {
			return
		}
	}
}

func top(p rules.Piece) board.Ident {
	if p.Kind == 0 {
		return board.Ident{}
	}
	return board.Sensor{Caps: Caps}.Identify(p)
}

// turn returns the side a DGT clock shows to move: its lever is a rocker,
// so the side that did not press last; before a press seen on this link,
// the side whose clock runs.
func (l *link) turn(c dgt.ClockTimes) (board.Side, bool) {
	if l.leverKnown {
		return board.SideOf(l.lever.Other()), true
	}
	if !c.Running || c.LeftTurn == c.RightTurn {
		return board.SideNone, false
	}
	side := rules.White
	if c.LeftTurn == l.d.cfg.Session.WhiteRight {
		side = rules.Black
	}
	return board.SideOf(side), true
}

// snapshot returns e as a snapshot of the settled board, in sensor order
// (a chess board's sensor number is its square).
func (l *link) snapshot(e board.Event) board.Event {
	e.Kind = board.EventSnapshot
	e.Snapshot = snapshotOf(l.board[:])
	return e
}

// snapshotOf returns a chess board's pieces by square (a1 = 0) as a
// snapshot.
func snapshotOf(pieces []rules.Piece) *board.Snapshot {
	s := &board.Snapshot{Squares: make([]board.SquareState, 64)}
	for sq, p := range pieces {
		if p.Kind != 0 {
			s.Squares[sq] = board.SquareState{Height: 1, Top: top(p)}
		}
	}
	return s
}

// take translates one event of the DGT session (called with the Conn
// locked, from its goroutine).
func (l *link) take(e dgt.Event) {
	l.mu.Lock()
	defer l.mu.Unlock()
	ev := board.Event{Host: e.At}
	switch e.Kind {
	case dgt.EventIdentified:
		id := IDPrefix + e.Serial
		if l.id != id {
			l.id = id
			l.d.mu.Lock()
			l.d.boards[id] = l
			l.d.mu.Unlock()
			l.rawIdentified(id)
		}
		ev.Kind = board.EventHello
		ev.Info = &board.Info{Protocol: Protocol, Caps: l.caps, MaxHeight: 1, Width: 8, Height: 8, Cells: 64, ID: id,
			Firmware: fmt.Sprintf("DGT %d.%d", e.Version.Major, e.Version.Minor)}
		l.lost = false
		l.emit(ev)
		if l.have {
			l.emit(l.snapshot(ev))
		}
		return
	case dgt.EventBoard:
		copy(l.board[:], e.Pieces)
		l.have = true
		if l.id == "" {
			return // delivered after the handshake
		}
		if l.lost {
			l.lost = false
			l.emit(board.Event{Kind: board.EventHealth, Health: board.Active, Host: e.At})
		}
		l.emit(l.snapshot(ev))
		return
	case dgt.EventSquare:
		if e.Square < 0 || e.Square >= 64 {
			return
		}
		l.board[e.Square] = e.Piece
		if !e.Occupied {
			l.board[e.Square] = rules.Piece{}
		}
		ev.Kind, ev.Square = board.EventSquare, e.Square
		if e.Occupied {
			ev.Height, ev.Top = 1, top(e.Piece)
		}
	case dgt.EventLever:
		side := e.Side
		if !e.SideKnown {
			side = rules.White
			if l.pressed {
				side = l.lastSide.Other()
			}
		}
		l.lastSide, l.pressed = side, true
		l.lever, l.leverKnown = side, true
		ev.Kind, ev.Button, ev.Pressed, ev.Side = board.EventButton, board.ButtonClock, true, board.Side(side)
		if l.id != "" && l.clock != nil {
			// The press turned the clock: the reading, with its turn.
			l.emit(ev)
			c := *l.clock
			c.Turn, c.TurnKnown = board.SideOf(side.Other()), true
			l.clock = &c
			ev = board.Event{Kind: board.EventClock, Host: e.At, Clock: &c}
		}
	case dgt.EventClock:
		if e.Clock.NoClock {
			ev.Kind = board.EventHeartbeat // the board answers; no clock to read
			break
		}
		first, second := e.Clock.LeftFlag, e.Clock.RightFlag
		if l.d.cfg.Session.WhiteRight {
			first, second = second, first // as the session maps the times
		}
		ev.Kind = board.EventClock
		ev.Clock = &board.ClockReading{First: e.White, Second: e.Black, Running: e.Clock.Running, FirstFlag: first, SecondFlag: second}
		ev.Clock.Turn, ev.Clock.TurnKnown = l.turn(e.Clock)
		l.clock = ev.Clock
	case dgt.EventLinkLost:
		l.lost, l.have = true, false
		l.leverKnown = false
		ev.Kind, ev.Health = board.EventHealth, board.Disconnected
	case dgt.EventError:
		l.d.log.Warn("dgt board", "board", l.id, "port", l.path, "err", e.Err)
		if !errors.Is(e.Err, dgt.ErrNotResumed) {
			return
		}
		// Moves the board's log could not give: the arbiter's to see to.
		ev.Kind, ev.Err = board.EventError, fmt.Errorf("%w: %w", board.ErrAttention, e.Err)
	case dgt.EventLog:
		if l.id != "" {
			l.history(e)
		}
		return
	default:
		return
	}
	if l.id != "" {
		l.emit(ev)
	}
}
