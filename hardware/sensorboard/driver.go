package sensorboard

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"go.bug.st/serial"
	"go.bug.st/serial/enumerator"

	"arbiter/board"
	"arbiter/hardware/serialport"
)

// PortSpec selects serial ports that may hold boards. Set one way of
// choosing: Path, Glob, or USB identity (any of VID, PID, SerialNumber;
// empty fields match anything). The board's identity always comes from its
// handshake, never from the port name.
type PortSpec struct {
	Path         string // a device path, e.g. /dev/serial/by-id/usb-...
	Glob         string // a pattern for filepath.Glob, e.g. /dev/ttyACM*
	VID, PID     string // USB vendor and product ids, hex ("2341")
	SerialNumber string // USB serial number
}

func (s PortSpec) usb() bool { return s.VID != "" || s.PID != "" || s.SerialNumber != "" }

func (s PortSpec) matchUSB(p *enumerator.PortDetails) bool {
	if !p.IsUSB {
		return false
	}
	return (s.VID == "" || strings.EqualFold(s.VID, p.VID)) &&
		(s.PID == "" || strings.EqualFold(s.PID, p.PID)) &&
		(s.SerialNumber == "" || s.SerialNumber == p.SerialNumber)
}

// Config configures a [Driver].
type Config struct {
	// Ports lists where boards may be found.
	Ports []PortSpec
	// Baud is the serial speed (default 115200).
	Baud int
	// Scan is how often the driver looks for new or returned ports
	// (default 1 s).
	Scan time.Duration
	// Handshake is how long a newly opened port has to answer HELLO_REQ
	// (default 3 s); a port that does not is left alone for Backoff.
	Handshake time.Duration
	// Backoff is how long a port that failed to open or to handshake is
	// skipped (default 5 s).
	Backoff time.Duration
	// ReadTimeout bounds each read, which sets how often health is
	// checked (default [DefaultReadTimeout]).
	ReadTimeout time.Duration
	// Now returns the host's monotonic time. Every event's Host time comes
	// from it. Default: time since the driver was made.
	Now func() time.Duration
	// Handler receives every event. It is called from the goroutine of the
	// board's port: sequentially for one board, concurrently for different
	// boards. A slow handler slows only its own board, whose frames then
	// wait in the serial buffers (and whose losses are healed by a dump).
	// The daemon's director queues each board's events for its table.
	Handler func(board.Event)
	// Raw, if set, receives every frame read, good or bad, before it is
	// interpreted, and every frame sent: the raw sensor log, from which
	// a [Replayer] recreates the events. It is called sequentially for one
	// port, and must not call the driver. Wire is valid only during the
	// call. It returns the log's number for the frame (0 if none), which
	// the events of a received frame carry as RawSeq.
	Raw func(RawFrame) uint64
	// Logger receives diagnostics (default slog.Default()).
	Logger *slog.Logger
}

// RawFrame is one frame as it crossed the wire.
type RawFrame struct {
	Board string // empty before the port's handshake
	Port  string
	Host  time.Duration // when it was read, or queued for writing
	Sent  bool          // a host frame to the board
	Wire  []byte        // COBS bytes and the zero delimiter
	Err   error         // why a received frame was rejected, nil if good
}

// MonotonicSince returns a clock that reads the monotonic time elapsed
// since epoch, for [Config.Now].
func MonotonicSince(epoch time.Time) func() time.Duration {
	return func() time.Duration { return time.Since(epoch) }
}

// Driver owns the serial ports of a set of boards. Make it with [New] and
// run it with [Driver.Run].
type Driver struct {
	cfg Config
	log *slog.Logger

	mu      sync.Mutex
	ports   map[string]*portConn  // by path, while open
	boards  map[string]*boardSlot // by board id, forever
	backoff map[string]time.Duration
	heldBy  map[string]string // by path: the holder last reported of a port another process holds
	wg      sync.WaitGroup
}

// boardSlot is a board's lasting state: its link survives the port.
type boardSlot struct {
	// mu serializes the link's steps: the port that owns the board acts
	// on it, and so, around a move to another port, does the port it
	// left (its Disconnected may come after the new port's SetPort).
	mu     sync.Mutex
	link   Link      // guarded by mu
	rawSeq uint64    // the raw number of the frame the link is taking, for its events; guarded by mu
	port   *portConn // nil while disconnected; guarded by Driver.mu
	health atomic.Uint32
}

// step runs f on the slot's link, alone.
func (s *boardSlot) step(f func(l *Link)) {
	s.mu.Lock()
	defer s.mu.Unlock()
	f(&s.link)
}

// abandoned reports whether the board stopped answering even when hailed
// (Link.Abandoned).
func (s *boardSlot) abandoned(now time.Duration) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.link.Abandoned(now)
}

// ErrUnknownBoard is returned by [Driver.Send] for a board id the driver
// has never seen.
var ErrUnknownBoard = errors.New("unknown board")

// ErrNotConnected is returned by [Driver.Send] when the board is not
// connected now.
var ErrNotConnected = errors.New("board not connected")

// ErrBusy is returned by [Driver.Send] when the board's output queue is
// full: the board is not reading.
var ErrBusy = errors.New("board output queue full")

// New checks the configuration and returns a driver.
func New(cfg Config) (*Driver, error) {
	if cfg.Handler == nil {
		return nil, errors.New("sensorboard: Config.Handler is required")
	}
	for i, p := range cfg.Ports {
		n := 0
		if p.Path != "" {
			n++
		}
		if p.Glob != "" {
			n++
			if _, err := filepath.Match(p.Glob, ""); err != nil {
				return nil, fmt.Errorf("sensorboard: port %d: glob %q: %w", i, p.Glob, err)
			}
		}
		if p.usb() {
			n++
		}
		if n != 1 {
			return nil, fmt.Errorf("sensorboard: port %d: set exactly one of path, glob, or USB ids", i)
		}
	}
	if cfg.Baud == 0 {
		cfg.Baud = 115200
	}
	if cfg.Scan <= 0 {
		cfg.Scan = time.Second
	}
	if cfg.Handshake <= 0 {
		cfg.Handshake = 3 * time.Second
	}
	if cfg.Backoff <= 0 {
		cfg.Backoff = 5 * time.Second
	}
	if cfg.ReadTimeout <= 0 {
		cfg.ReadTimeout = DefaultReadTimeout
	}
	if cfg.Now == nil {
		cfg.Now = MonotonicSince(time.Now())
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.Default()
	}
	return &Driver{
		cfg:     cfg,
		log:     cfg.Logger,
		ports:   map[string]*portConn{},
		boards:  map[string]*boardSlot{},
		backoff: map[string]time.Duration{},
		heldBy:  map[string]string{},
	}, nil
}

// heldNews takes the outcome of an attempt to open the port at path and
// reports whether it is a holder not reported yet: another process (not
// another driver of this one) holds the port, and the daemon is told of
// each holder once as an [EventError] whose Port is the path and whose
// Err wraps the *serialport.HeldError naming it.
func (d *Driver) heldNews(path string, err error) bool {
	d.mu.Lock()
	defer d.mu.Unlock()
	var he *serialport.HeldError
	if !errors.As(err, &he) {
		delete(d.heldBy, path)
		return false
	}
	if he.Self || d.heldBy[path] == he.Error() {
		return false
	}
	d.heldBy[path] = he.Error()
	return true
}

// Run finds ports and serves them until ctx ends; then it closes every
// port and returns ctx's error once all port goroutines have stopped.
func (d *Driver) Run(ctx context.Context) error {
	t := time.NewTicker(d.cfg.Scan)
	defer t.Stop()
	for {
		d.scan(ctx)
		select {
		case <-ctx.Done():
			d.wg.Wait()
			return ctx.Err()
		case <-t.C:
		}
	}
}

// Candidates lists the ports the configuration selects now, sorted.
func (d *Driver) Candidates() []string { return candidates(d.cfg.Ports, d.log) }

func candidates(specs []PortSpec, log *slog.Logger) []string {
	seen := map[string]bool{}
	var usb []*enumerator.PortDetails
	usbListed := false
	for _, s := range specs {
		switch {
		case s.Path != "":
			if _, err := os.Stat(s.Path); err == nil {
				seen[s.Path] = true
			}
		case s.Glob != "":
			m, _ := filepath.Glob(s.Glob) // the pattern was checked in New
			for _, p := range m {
				seen[p] = true
			}
		case s.usb():
			if !usbListed {
				var err error
				usb, err = enumerator.GetDetailedPortsList()
				if err != nil {
					log.Warn("list USB serial ports", "err", err)
				}
				usbListed = true
			}
			for _, p := range usb {
				if s.matchUSB(p) {
					seen[p.Name] = true
				}
			}
		}
	}
	out := make([]string, 0, len(seen))
	for p := range seen {
		out = append(out, p)
	}
	slices.Sort(out)
	return out
}

func (d *Driver) scan(ctx context.Context) {
	if ctx.Err() != nil {
		return
	}
	now := d.cfg.Now()
	for _, path := range d.Candidates() {
		d.mu.Lock()
		open, busy := d.ports[path]
		until, waiting := d.backoff[path]
		if busy {
			d.mu.Unlock()
			open.checkDevice()
			continue
		}
		if waiting && now < until {
			d.mu.Unlock()
			continue
		}
		delete(d.backoff, path)
		pc := &portConn{d: d, path: path, out: make(chan []byte, 64)}
		d.ports[path] = pc
		d.mu.Unlock()
		d.wg.Add(1)
		go func() {
			defer d.wg.Done()
			pc.serve(ctx)
		}()
	}
}

// Send transmits a message to a board: a clock display, lights, an alert
// or a move acknowledgement. It does not wait for the write.
func (d *Driver) Send(board string, m Message) error {
	pc, err := d.connected(board)
	if err != nil {
		return fmt.Errorf("send %s to %q: %w", m.Type(), board, err)
	}
	if err := pc.send(m); err != nil {
		return fmt.Errorf("send %s to %q: %w", m.Type(), board, err)
	}
	return nil
}

// Show shows a display message on a board ([board.Display]): its wire
// message goes out through [Driver.Send].
func (d *Driver) Show(id string, m board.Message) error {
	w := WireMessage(m)
	if w == nil {
		return fmt.Errorf("show on %q: %T is not a display message", id, m)
	}
	return d.Send(id, w)
}

// Resync asks a board for a full-state dump; its snapshot event follows
// (within the read timeout plus the board's answer). The daemon uses it
// when it needs the board's present state, for example to check a set-up.
func (d *Driver) Resync(board string) error {
	pc, err := d.connected(board)
	if err != nil {
		return fmt.Errorf("resync %q: %w", board, err)
	}
	pc.resync.Store(true)
	pc.wake()
	return nil
}

// Owns reports whether board is a board this driver has met
// ([board.Driver]).
func (d *Driver) Owns(board string) bool {
	d.mu.Lock()
	defer d.mu.Unlock()
	_, ok := d.boards[board]
	return ok
}

// ReplaySetting implements [board.Driver]: nil, since a [Replayer] reads
// the raw log as the driver read its boards, whatever its configuration.
func (d *Driver) ReplaySetting() []byte { return nil }

// connected returns the port a board is connected through now.
func (d *Driver) connected(board string) (*portConn, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	b, ok := d.boards[board]
	switch {
	case !ok:
		return nil, ErrUnknownBoard
	case b.port == nil:
		return nil, ErrNotConnected
	}
	return b.port, nil
}

// BoardStatus is what [Driver.Boards] reports per board.
type BoardStatus struct {
	ID     string
	Port   string // empty while disconnected
	Health board.Health
}

// Boards lists every board seen since the driver started, by id.
func (d *Driver) Boards() []BoardStatus {
	d.mu.Lock()
	defer d.mu.Unlock()
	out := make([]BoardStatus, 0, len(d.boards))
	for id, b := range d.boards {
		s := BoardStatus{ID: id, Health: board.Health(b.health.Load())}
		if b.port != nil {
			s.Port = b.port.path
		}
		out = append(out, s)
	}
	slices.SortFunc(out, func(a, b BoardStatus) int { return strings.Compare(a.ID, b.ID) })
	return out
}

// portConn is one open port and its goroutines.
type portConn struct {
	d    *Driver
	path string
	out  chan []byte

	mu     sync.Mutex // guards enc, closed and board
	enc    Encoder
	closed bool
	board  string
	rawMu  sync.Mutex // serialises the raw log of the port

	slot   *boardSlot  // after the handshake; used only by serve
	resync atomic.Bool // a dump was asked for from outside

	// dev is the device the port was opened on (guarded by mu): the path
	// may be a symbolic link (udev's by-id names, a simulator's link)
	// that comes to lead to another device while this one is still open
	// but silent. moved is set when it does, and the port is given up.
	dev   os.FileInfo
	moved atomic.Bool
	// rf is the port while it is open (guarded by mu).
	rf *serialport.Port
}

// wake ends the port's read now, so that its goroutine acts at once on
// what was asked of it from outside (a dump for a game that starts: a
// move made meanwhile would be taken for the set-up) instead of after
// the read timeout.
func (pc *portConn) wake() {
	pc.mu.Lock()
	defer pc.mu.Unlock()
	if pc.rf != nil && !pc.closed {
		_ = pc.rf.SetReadDeadline(time.Now())
	}
}

// checkDevice marks the port as moved when its path now leads to another
// device than the one it was opened on; the port's goroutine then closes
// it, and the next scan opens the new device.
func (pc *portConn) checkDevice() {
	pc.mu.Lock()
	dev := pc.dev
	pc.mu.Unlock()
	if dev == nil || pc.moved.Load() {
		return
	}
	if now, err := os.Stat(pc.path); err == nil && !os.SameFile(dev, now) {
		pc.moved.Store(true)
	}
}

func (pc *portConn) now() time.Duration { return pc.d.cfg.Now() }

// send frames m and queues it for the writer.
func (pc *portConn) send(m Message) error {
	pc.mu.Lock()
	if pc.closed {
		pc.mu.Unlock()
		return ErrNotConnected
	}
	now := pc.now()
	b := pc.enc.Append(nil, m, uint32(now/time.Millisecond))
	select {
	case pc.out <- b:
	default:
		pc.mu.Unlock()
		return ErrBusy
	}
	board := pc.board
	pc.mu.Unlock()
	pc.raw(RawFrame{Board: board, Port: pc.path, Host: now, Sent: true, Wire: b})
	return nil
}

// raw hands a frame to the raw log, one at a time per port, and returns
// the log's number for it.
func (pc *portConn) raw(r RawFrame) uint64 {
	log := pc.d.cfg.Raw
	if log == nil {
		return 0
	}
	pc.rawMu.Lock()
	defer pc.rawMu.Unlock()
	return log(r)
}

func (pc *portConn) writer(port io.Writer) {
	for b := range pc.out {
		if _, err := port.Write(b); err != nil {
			// The reader sees the same failure and handles it; drain the
			// queue so senders never block.
			continue
		}
	}
}

// serve opens the port and reads it until ctx ends, the port is lost,
// or no board answers on it.
func (pc *portConn) serve(ctx context.Context) {
	log := pc.d.log.With("port", pc.path)
	port, err := pc.open()
	if err != nil {
		log.Debug("open port", "err", err)
		pc.release(true)
		return
	}
	stop := context.AfterFunc(ctx, func() { port.Close() })
	defer stop()
	go pc.writer(port)
	defer func() {
		pc.mu.Lock()
		pc.closed = true
		close(pc.out)
		pc.mu.Unlock()
		port.Close()
	}()
	pc.read(ctx, port, log)
}

// release lets the port go: it is no longer served, and is looked at
// again after the backoff if backoff is set.
func (pc *portConn) release(backoff bool) {
	d := pc.d
	d.mu.Lock()
	delete(d.ports, pc.path)
	if backoff {
		d.backoff[pc.path] = pc.now() + d.cfg.Backoff
	}
	if pc.slot != nil && pc.slot.port == pc {
		pc.slot.port = nil
	}
	d.mu.Unlock()
}

// open opens the port, telling the daemon once per holder when another
// process holds it.
func (pc *portConn) open() (*serialport.Port, error) {
	d := pc.d
	// The port is this process's alone (hardware/serialport: a lock file
	// and exclusive mode). Reads go through a second descriptor of the
	// device served by the runtime's poller: go.bug.st/serial v1.8 waits
	// in select(2), which costs an OS thread per port, needs two more
	// descriptors per port for its cancel pipe, and panics on descriptors
	// above 1023, so it cannot serve hundreds of boards in one process.
	// go.bug.st/serial still does the configuration (raw mode, speed, no
	// flow control) and the writes.
	port, err := serialport.Open(pc.path, serialport.Config{Mode: serial.Mode{BaudRate: d.cfg.Baud}})
	if d.heldNews(pc.path, err) {
		// Another process holds the port: it is left alone, looked at
		// again after the backoff, and the daemon told once per holder.
		d.cfg.Handler(board.Event{Kind: board.EventError, Port: pc.path, Host: pc.now(), Err: err})
	}
	if err != nil {
		return nil, err
	}
	pc.mu.Lock()
	pc.rf = port
	if fi, err := port.Stat(); err == nil {
		pc.dev = fi
	}
	pc.mu.Unlock()
	return port, nil
}

// read reads the open port and hands on what it reads until ctx ends, the
// port is lost or no board answers on it, and then lets it go.
func (pc *portConn) read(ctx context.Context, port *serialport.Port, log *slog.Logger) {
	d := pc.d
	dec := NewDecoder()
	buf := make([]byte, 4096)
	opened := pc.now()
	var asked time.Duration = -time.Hour
	for {
		if !pc.hail(opened, &asked, log) {
			pc.release(true)
			return
		}
		if err := port.SetReadDeadline(time.Now().Add(d.cfg.ReadTimeout)); err != nil {
			log.Warn("port cannot time out reads", "err", err)
			pc.release(true)
			return
		}
		// After the deadline is set: a request that comes later ends
		// this read (wake), one that came before is taken now.
		if pc.slot != nil && pc.resync.Swap(false) {
			pc.slot.step(func(l *Link) { l.RequestDump(pc.now()) })
		}
		n, err := readPort(port, buf)
		host := pc.now()
		if n > 0 && pc.feed(ctx, dec, buf[:n], host) {
			pc.release(true)
			return
		}
		if err = pc.lost(ctx, err, host); err != nil || ctx.Err() != nil {
			if ctx.Err() == nil {
				log.Info("port lost", "board", pc.board, "err", err)
			}
			// The port is let go before the link says Disconnected, so
			// that a sender who sees the board disconnected is refused.
			pc.release(false)
			if pc.slot != nil {
				pc.slot.step(func(l *Link) { l.Disconnected(pc.now()) })
			}
			return
		}
		if pc.slot != nil {
			pc.slot.step(func(l *Link) { l.Tick(host) })
		}
	}
}

// readPort reads from port into buf until the read deadline: a read
// that times out is no data yet (no error), and one that returns nothing
// the end of the port (io.EOF).
func readPort(port *serialport.Port, buf []byte) (int, error) {
	n, err := port.Read(buf)
	if errors.Is(err, os.ErrDeadlineExceeded) {
		return n, nil // no data yet
	}
	if err == nil && n == 0 {
		return 0, io.EOF
	}
	return n, err
}

// hail asks the port for a board's HELLO every 500 ms until one attaches
// (asked: when it last did, since the port opened). It reports false when
// none did within the handshake time: the port is to be left alone.
func (pc *portConn) hail(opened time.Duration, asked *time.Duration, log *slog.Logger) bool {
	if pc.slot != nil {
		return true
	}
	now := pc.now()
	if now-opened > pc.d.cfg.Handshake {
		log.Debug("no handshake; leaving the port alone", "after", pc.d.cfg.Handshake)
		return false
	}
	if now-*asked >= 500*time.Millisecond {
		_ = pc.send(&HelloReqMsg{Major: VersionMajor, Minor: VersionMinor})
		*asked = now
	}
	return true
}

// lost returns why the port is lost at host: err, the error of its last
// read, or else its path leads to another device or its board stopped
// answering. It returns nil while the port is sound.
func (pc *portConn) lost(ctx context.Context, err error, host time.Duration) error {
	switch {
	case err == nil && ctx.Err() == nil && pc.moved.Load():
		return errors.New("the path now leads to another device")
	case err == nil && pc.slot != nil && pc.slot.abandoned(host):
		return errors.New("the board stopped answering, even when hailed")
	}
	return err
}

// feed decodes bytes read at host and hands the frames on. It reports true
// when the port must be given up (a duplicate board id).
func (pc *portConn) feed(ctx context.Context, dec *Decoder, p []byte, host time.Duration) bool {
	d := pc.d
	for len(p) > 0 && ctx.Err() == nil {
		n, f, err := dec.Decode(p)
		p = p[n:]
		if err == ErrIncomplete {
			break
		}
		var rawSeq uint64
		if d.cfg.Raw != nil {
			r := RawFrame{Port: pc.path, Host: host, Wire: dec.Wire(), Err: err}
			if pc.slot != nil {
				pc.slot.step(func(l *Link) { r.Board = l.Board() })
			} else if err == nil && f.Type == TypeHello {
				// The handshake that attaches a board is logged as its own,
				// so that a replay knows what the board can sense.
				var h Hello
				if h.UnmarshalPayload(f.Payload) == nil {
					r.Board = h.ID
				}
			}
			rawSeq = pc.raw(r)
		}
		if err != nil {
			continue // the sequence numbers reveal the loss
		}
		if pc.slot == nil {
			if f.Type != TypeHello {
				continue
			}
			attached, giveUp := pc.attach(f, host)
			if giveUp {
				return true
			}
			if !attached {
				continue
			}
		}
		slot := pc.slot
		slot.step(func(l *Link) {
			slot.rawSeq = rawSeq
			l.Frame(f, host)
			slot.rawSeq = 0
		})
	}
	return false
}

// attach binds the port to the board named in a HELLO frame. It reports
// whether it did, and whether the port must be given up.
func (pc *portConn) attach(f Frame, host time.Duration) (attached, giveUp bool) {
	d := pc.d
	var h Hello
	if err := h.UnmarshalPayload(f.Payload); err != nil {
		d.log.Warn("bad handshake", "port", pc.path, "err", err)
		return false, false // keep waiting for a good HELLO
	}
	d.mu.Lock()
	slot, ok := d.boards[h.ID]
	if ok && slot.port != nil && slot.port != pc {
		other := slot.port.path
		d.mu.Unlock()
		d.log.Error("two ports claim one board id", "board", h.ID, "port", pc.path, "other", other)
		return false, true
	}
	if !ok {
		slot = &boardSlot{}
		slot.link.Emit = func(e board.Event) {
			e.RawSeq = slot.rawSeq
			if e.Kind == board.EventHealth {
				slot.health.Store(uint32(e.Health))
			}
			d.cfg.Handler(e)
		}
		d.boards[h.ID] = slot
	}
	slot.port = pc
	d.mu.Unlock()
	slot.step(func(l *Link) {
		l.Send = func(m Message) {
			if err := pc.send(m); err != nil {
				d.log.Warn("send to board", "board", h.ID, "type", m.Type(), "err", err)
			}
		}
		l.SetPort(pc.path, host)
	})
	pc.slot = slot
	pc.mu.Lock()
	pc.board = h.ID
	pc.mu.Unlock()
	return true, false
}
