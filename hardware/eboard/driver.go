package eboard

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"log/slog"
	"path/filepath"
	"sync"
	"time"

	"arbiter/board"
	"arbiter/hardware/serialport"
)

// Config configures a [Driver].
type Config struct {
	// Paths are the boards' serial devices; Globs are patterns that find
	// them (read again every Scan).
	Paths, Globs []string
	// Scan is how often the patterns are read again, and how long a
	// failed port waits before it is opened again (default 1 s).
	Scan time.Duration
	// Now returns the host's monotonic time; every event's instant comes
	// from it.
	Now func() time.Duration
	// Handler receives every event, from the board's own goroutine, in
	// order.
	Handler func(board.Event)
	// Raw, if set, receives every read from a board and every write to it
	// under the board's id, stamped with the instant its session took or
	// sent it, and returns the record's raw number (0: none), which then
	// stamps the events the record caused. An empty host record marks the
	// port opened, an empty read its failure. The records of a board that
	// has not yet told its id (during its handshake) follow once it has.
	// Raw is called from the port's goroutine, must be quick and must not
	// call the driver; r.Data is valid only during the call.
	Raw func(boardID string, r board.Record) uint64
	// Open opens a port.
	Open func(path string) (io.ReadWriteCloser, error)
	// Logger receives diagnostics (default slog.Default()).
	Logger *slog.Logger
}

// Protocol is what a [Driver] needs of a protocol.
type Protocol struct {
	// Name names the protocol in the driver's errors.
	Name string
	// NewSession makes the session of one port.
	NewSession NewSession
	// Setting, if set, returns how the driver reads its boards,
	// serialised for the event's database ([Driver.ReplaySetting]).
	Setting func() []byte
}

// Driver runs the boards of one protocol on the configured ports: a
// session per port ([NewSession]), its port reopened after an unplug, its
// events delivered in order, and the messages for a board shown through
// its session. It implements [board.Display]. Its methods are safe for
// concurrent use.
type Driver struct {
	name       string
	newSession NewSession
	setting    func() []byte
	cfg        Config
	log        *slog.Logger

	mu     sync.Mutex
	ports  map[string]*link // by path
	boards map[string]*link // by board id
}

// NewDriver returns a driver of protocol p on cfg's ports.
func NewDriver(p Protocol, cfg Config) (*Driver, error) {
	name := p.Name
	if cfg.Now == nil {
		return nil, fmt.Errorf("%s driver: no clock (Config.Now)", name)
	}
	if cfg.Open == nil {
		return nil, fmt.Errorf("%s driver: no way to open a port (Config.Open)", name)
	}
	for _, g := range cfg.Globs {
		if _, err := filepath.Match(g, ""); err != nil {
			return nil, fmt.Errorf("%s driver: pattern %q: %w", name, g, err)
		}
	}
	if cfg.Scan <= 0 {
		cfg.Scan = time.Second
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.Default()
	}
	return &Driver{name: name, newSession: p.NewSession, setting: p.Setting, cfg: cfg, log: cfg.Logger,
		ports: map[string]*link{}, boards: map[string]*link{}}, nil
}

// ReplaySetting returns how the driver reads its boards, serialised for
// the event's database so that a replay of their raw logs reads them
// alike ([board.ReplayConfig.Setting]); nil for the defaults.
func (d *Driver) ReplaySetting() []byte {
	if d.setting == nil {
		return nil
	}
	return d.setting()
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

// Owns reports whether board is one this driver has met.
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
		return nil, fmt.Errorf("%s board %s: not connected", d.name, id)
	}
	return l, nil
}

// Show shows m on the board, as far as it can. It implements
// [board.Display].
func (d *Driver) Show(id string, m board.Message) error {
	l, err := d.board(id)
	if err != nil {
		return err
	}
	l.conn.do(func(s Session, now time.Duration) { err = s.Show(m, now) })
	if err != nil {
		return fmt.Errorf("%s board %s: %w", d.name, id, err)
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
	l.conn.do(func(s Session, now time.Duration) { err = s.Resync(now) })
	if err != nil {
		return fmt.Errorf("%s board %s: %w", d.name, id, err)
	}
	return nil
}

// maxEarlyRaw bounds the bytes kept for the raw log before a board has
// told its id.
const maxEarlyRaw = 64 << 10

// link is one port and the board on it.
type link struct {
	d    *Driver
	path string
	conn *conn
	id   string // the board's id once it told it (guarded by conn.mu)

	// The events wait here for the handler: the session emits them with
	// its conn locked, and the handler may wait for a table that is
	// itself showing something on this board.
	qmu   sync.Mutex
	queue []board.Event
	ready chan struct{}

	early      []board.Record // raw records before the id is known
	earlyBytes int
	held       serialport.Held // the holder of the port last reported
}

func (d *Driver) newLink(path string) *link {
	l := &link{d: d, path: path, ready: make(chan struct{}, 1)}
	l.conn = &conn{now: d.cfg.Now, log: d.log.With("port", path), raw: l.raw, wake: make(chan struct{}, 1)}
	l.conn.s = d.newSession(path, Wire{Send: l.conn.send, Emit: l.take})
	return l
}

func (l *link) run(ctx context.Context) {
	stop := make(chan struct{})
	delivered := make(chan struct{})
	go func() { l.deliver(stop); close(delivered) }()
	l.conn.watch(ctx, l.open, l.d.cfg.Scan)
	// Every event read is handed over before Run returns: its bytes are
	// in the raw log, so a daemon stopping must still take it.
	close(stop)
	<-delivered
}

// open opens the port; a port that another process holds is left alone
// (looked at again every Scan) and reported to the handler once per
// holder, as an error event naming the port, whose Err wraps the
// *serialport.HeldError naming the holder.
func (l *link) open() (io.ReadWriteCloser, error) {
	rw, err := l.d.cfg.Open(l.path)
	if l.held.News(err) {
		// No board: the port's trouble, not a board's.
		now := l.d.cfg.Now()
		l.queueEvent(board.Event{Kind: board.EventError, Port: l.path, Host: now, At: now, Err: err})
	}
	return rw, err
}

// take stamps an event of the session (called with conn.mu held) and
// queues it for the handler.
func (l *link) take(e board.Event) {
	if e.Kind == board.EventHello && e.Info != nil && e.Info.ID != l.id {
		l.identified(e.Info.ID)
	}
	if l.id == "" {
		return // nothing is delivered before the board is known
	}
	stamp(&e, l.id, l.path, l.conn.seq)
	l.queueEvent(e)
}

// queueEvent queues e for the handler.
func (l *link) queueEvent(e board.Event) {
	l.qmu.Lock()
	l.queue = append(l.queue, e)
	l.qmu.Unlock()
	select {
	case l.ready <- struct{}{}:
	default:
	}
}

// stamp sets what the driver adds to a session's event: the board, the
// port, the raw number of the record that caused it, and At as Host for
// an event the session did not map.
func stamp(e *board.Event, id, port string, seq uint64) {
	e.Board, e.Port = id, port
	if e.RawSeq == 0 {
		e.RawSeq = seq
	}
	if e.At == 0 && !e.Mapped {
		e.At = e.Host
	}
}

// identified registers the board's id and logs the raw records kept
// until it was known.
func (l *link) identified(id string) {
	l.d.mu.Lock()
	if l.id != "" && l.d.boards[l.id] == l {
		delete(l.d.boards, l.id)
	}
	l.d.boards[id] = l
	l.d.mu.Unlock()
	l.id = id
	if l.d.cfg.Raw != nil {
		for _, r := range l.early {
			// The last one is the record the session is taking.
			l.conn.seq = l.d.cfg.Raw(id, r)
		}
	}
	l.early, l.earlyBytes = nil, 0
}

// raw logs a record under the board's id, or keeps it until the board
// has told its id (called with conn.mu held).
func (l *link) raw(r board.Record) uint64 {
	if l.d.cfg.Raw == nil {
		return 0
	}
	if l.id != "" {
		return l.d.cfg.Raw(l.id, r)
	}
	if l.earlyBytes+len(r.Data) > maxEarlyRaw {
		// A port whose device never tells an id (not one of our boards):
		// keep its latest bytes only.
		l.early, l.earlyBytes = nil, 0
	}
	r.Data = bytes.Clone(r.Data)
	l.early = append(l.early, r)
	l.earlyBytes += len(r.Data)
	return 0
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
