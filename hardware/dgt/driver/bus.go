package driver

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"path/filepath"
	"slices"
	"strconv"
	"sync"
	"time"

	"arbiter/board"
	"arbiter/hardware/dgt"
	"arbiter/hardware/serialport"
)

// BusProtocol is the name of a line of DGT boards in bus mode in
// configurations (boards.ports[] with protocol dgt-bus).
const BusProtocol = "dgt-bus"

// Line is a serial port with DGT boards on it in bus mode.
type Line struct {
	// Path is the port's device; or Glob is a pattern, and every port it
	// finds is a line of its own.
	Path, Glob string
	// Addresses are the bus addresses of the boards expected on the line;
	// the others that answer DGT's ping join too.
	Addresses []uint16
}

// BusConfig configures a [Bus].
type BusConfig struct {
	Lines []Line
	// Scan is how often the patterns are read again, and how long a
	// failed line waits before it is opened again (default 1 s).
	Scan time.Duration
	// Poll is how often each board is asked for its changes, and its
	// clock read (default 2 s, DGT's "every few seconds").
	Poll time.Duration
	// WhiteRight seats White at the clock's right display.
	WhiteRight bool
	// Bus tunes the line's timeouts (zero: DGT's).
	Bus dgt.BusConfig
	// Now returns the host's monotonic time; every event's instant comes
	// from it.
	Now func() time.Duration
	// Handler receives every translated event, from the board's goroutine.
	Handler func(board.Event)
	// Raw, if set, receives the bus conversation of every board under its
	// id (protocol [BusProtocol]), as [dgt.BusConfig.Raw] logs it: the
	// commands written to the board's address (Sent), the replies the host
	// took for them, the board's answers to a ping to every board, and an
	// empty read record when the line failed, each stamped by Now. It is
	// the raw log from which the protocol's board.Replayer recreates the
	// board's events; the contract is [Config.Raw]'s.
	Raw func(boardID string, r board.Record)
	// Open opens a port (default [dgt.OpenSerial]).
	Open func(path string) (io.ReadWriteCloser, error)
	// Logger receives diagnostics (default slog.Default()).
	Logger *slog.Logger
}

// Bus runs lines of DGT boards in bus mode for the daemon: on every line
// DGT's tournament loop ([dgt.Tournament]), and every board on it, by its
// bus address, translated as a single board is (board id "DGT-" and the
// five-digit address). It implements [board.Display] for those boards:
// the bus has no command for the clock's display or text, so a message
// to a bus board is accepted and not shown; the clocks are read. Its
// methods are safe for concurrent use.
type Bus struct {
	cfg BusConfig
	log *slog.Logger
	d   *Driver // the boards, translated as single boards are

	mu     sync.Mutex
	lines  map[string]bool             // by path: running
	boards map[string]map[uint16]*link // by path and address

	// The boards' deliveries run until the lines have stopped (stop is
	// closed), then hand over what is queued.
	stop       chan struct{}
	delivering sync.WaitGroup
}

// NewBus returns a driver for the bus lines of cfg.
func NewBus(cfg BusConfig) (*Bus, error) {
	for _, l := range cfg.Lines {
		if (l.Path == "") == (l.Glob == "") {
			return nil, fmt.Errorf("dgt bus driver: line %+v: give exactly one of path or glob", l)
		}
		if l.Glob != "" {
			if _, err := filepath.Match(l.Glob, ""); err != nil {
				return nil, fmt.Errorf("dgt bus driver: pattern %q: %w", l.Glob, err)
			}
		}
	}
	if cfg.Scan <= 0 {
		cfg.Scan = time.Second
	}
	if cfg.Poll <= 0 {
		cfg.Poll = 2 * time.Second
	}
	if cfg.Open == nil {
		cfg.Open = dgt.OpenSerial
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.Default()
	}
	if cfg.Now == nil {
		epoch := time.Now()
		cfg.Now = func() time.Duration { return time.Since(epoch) }
	}
	cfg.Bus.Now = cfg.Now
	if cfg.Raw != nil {
		raw := cfg.Raw
		cfg.Bus.Raw = func(addr uint16, host time.Duration, sent bool, data []byte) {
			raw(busID(addr), board.Record{Host: host, Sent: sent, Data: data})
		}
	}
	d, err := New(Config{Session: dgt.Config{WhiteRight: cfg.WhiteRight}, Now: cfg.Now, Handler: cfg.Handler,
		Open: cfg.Open, Scan: cfg.Scan, Logger: cfg.Logger})
	if err != nil {
		return nil, fmt.Errorf("dgt bus driver: %w", err)
	}
	return &Bus{cfg: cfg, log: cfg.Logger, d: d, lines: map[string]bool{}, boards: map[string]map[uint16]*link{},
		stop: make(chan struct{})}, nil
}

// Run runs every line until ctx ends; a line that fails (unplugged) is
// opened again after Scan, its boards reported disconnected meanwhile.
// It returns once every event read from the boards has been handed to
// the handler (their records are in the raw log). Run once.
func (b *Bus) Run(ctx context.Context) error {
	var wg sync.WaitGroup
	defer func() {
		wg.Wait()
		close(b.stop)
		b.delivering.Wait()
	}()
	for {
		for _, l := range b.cfg.Lines {
			paths := []string{l.Path}
			if l.Glob != "" {
				var err error
				if paths, err = filepath.Glob(l.Glob); err != nil {
					b.log.Error("dgt bus: port pattern", "glob", l.Glob, "err", err)
					continue
				}
			}
			for _, p := range paths {
				b.mu.Lock()
				if !b.lines[p] {
					b.lines[p] = true
					wg.Go(func() { b.runLine(ctx, p, l.Addresses) })
				}
				b.mu.Unlock()
			}
		}
		select {
		case <-ctx.Done():
			return nil
		case <-time.After(b.cfg.Scan):
		}
	}
}

// Owns reports whether id is a board this driver has met on a line.
func (b *Bus) Owns(id string) bool { return b.d.Owns(id) }

// Show accepts a message for a bus board: DGT's bus has no command that
// sets a clock or shows text, so nothing is shown. It implements
// [board.Display].
func (b *Bus) Show(id string, _ board.Message) error {
	if !b.d.Owns(id) {
		return fmt.Errorf("dgt bus board %s: not connected", id)
	}
	return nil
}

// Resync delivers the board's settled position whole, as a snapshot. It
// implements [board.Display].
func (b *Bus) Resync(id string) error { return b.d.Resync(id) }

// runLine keeps one line running until ctx ends.
func (b *Bus) runLine(ctx context.Context, path string, addrs []uint16) {
	log := b.log.With("port", path)
	down := false // the failure is logged once, until the line runs again
	var held serialport.Held
	for {
		ran := false
		err := b.serve(ctx, path, addrs, log, &ran)
		if ctx.Err() != nil {
			return
		}
		if held.News(err) {
			// Another process holds the line: it is left alone, looked
			// at again every Scan, and the daemon told once.
			if b.cfg.Handler != nil {
				b.cfg.Handler(board.Event{Kind: board.EventError, Port: path, Host: b.cfg.Now(), Err: err})
			}
		}
		if ran || !down {
			log.Warn("dgt bus line down; opening it again", "err", err, "every", b.cfg.Scan)
		}
		down = true
		b.lineLost(path)
		select {
		case <-ctx.Done():
			return
		case <-time.After(b.cfg.Scan):
		}
	}
}

// serve opens the line and runs DGT's tournament loop on it until ctx
// ends or the line fails; ran tells whether the port opened.
func (b *Bus) serve(ctx context.Context, path string, addrs []uint16, log *slog.Logger, ran *bool) error {
	port, err := b.cfg.Open(path)
	if err != nil {
		return fmt.Errorf("dgt bus line %s: %w", path, err)
	}
	defer port.Close()
	*ran = true
	bus, err := dgt.NewBus(port, b.cfg.Bus)
	if err != nil {
		return fmt.Errorf("dgt bus line %s: %w", path, err)
	}
	tc := b.cfg.tournament()
	tc.Boards, tc.Logger = b.known(path, addrs), log
	tc.Emit = func(e dgt.Event) { b.link(path, e.Addr).take(e) }
	tour := dgt.NewTournament(bus, tc)
	if err := tour.Run(ctx); err != nil {
		return fmt.Errorf("dgt bus line %s: %w", path, err)
	}
	if ctx.Err() == nil {
		return fmt.Errorf("dgt bus line %s: the tournament loop ended", path)
	}
	return nil
}

// known returns the addresses the tournament loop of the line at path
// pings one by one: the configured ones, and those of the boards met on
// the line before (a line that comes back finds them again so, rather
// than by a ping to every board, whose answers a loaded host may take
// after its window).
func (b *Bus) known(path string, addrs []uint16) []uint16 {
	out := slices.Clone(addrs)
	b.mu.Lock()
	for a := range b.boards[path] {
		if !slices.Contains(out, a) {
			out = append(out, a)
		}
	}
	b.mu.Unlock()
	slices.Sort(out[len(addrs):])
	return out
}

// link returns the board at addr on the line at path, made on its first
// event.
func (b *Bus) link(path string, addr uint16) *link {
	b.mu.Lock()
	defer b.mu.Unlock()
	on := b.boards[path]
	if on == nil {
		on = map[uint16]*link{}
		b.boards[path] = on
	}
	l := on[addr]
	if l == nil {
		l = &link{d: b.d, path: path + "#" + strconv.Itoa(int(addr)), caps: BusCaps, ready: make(chan struct{}, 1)}
		on[addr] = l
		b.delivering.Go(func() { l.deliver(b.stop) })
	}
	return l
}

// tournament is the configuration of the tournament loop on every line.
func (c *BusConfig) tournament() dgt.TournamentConfig {
	return dgt.TournamentConfig{Poll: c.Poll, Clock: c.Poll, WhiteRight: c.WhiteRight, Now: c.Now}
}

// busID is the board id of the board at a bus address.
func busID(addr uint16) string { return fmt.Sprintf("%s%05d", IDPrefix, addr) }

// errLineFailed is the loss of every board of a failed line.
var errLineFailed = errors.New("the bus line failed")

// lineLost reports every board of a failed line disconnected, and logs
// the failure under each (an empty read record).
func (b *Bus) lineLost(path string) {
	b.mu.Lock()
	addrs := make(map[uint16]*link, len(b.boards[path]))
	for a, l := range b.boards[path] {
		addrs[a] = l
	}
	b.mu.Unlock()
	at := b.cfg.Now()
	for a, l := range addrs {
		if b.cfg.Raw != nil {
			b.cfg.Raw(busID(a), board.Record{Host: at})
		}
		l.lineDown(at)
	}
}

// lineDown reports the board of a failed line disconnected at at, unless
// it is already.
func (l *link) lineDown(at time.Duration) {
	l.mu.Lock()
	lost := l.lost
	l.mu.Unlock()
	if !lost {
		l.take(dgt.Event{Kind: dgt.EventLinkLost, At: at, Err: errLineFailed})
	}
}
