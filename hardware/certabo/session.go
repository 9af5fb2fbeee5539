package certabo

import (
	"errors"
	"strings"
	"time"

	"arbiter/board"
	"arbiter/hardware/eboard"
	"arbiter/rules"
)

// Protocol is the name of the Certabo protocol in configurations and in
// the raw log (board.Info.Protocol).
const Protocol = "certabo"

// IDPrefix begins the board id of every Certabo board: the rest is its
// port's name (the board tells none), so /dev/serial/by-id names, which
// carry the USB bridge's serial number, keep a board's id across ports.
const IDPrefix = "CERTABO-"

// Caps are what a Certabo board senses and shows: each square's piece
// (its chip, once calibrated) and so its colour, and its LEDs; it has no
// clock to press.
const Caps = board.CapHeight | board.CapIdentity | board.CapColor | board.CapLights | board.CapNoPress

// Piece is what the host makes of a square: empty, a chip it knows, or a
// chip it never learnt (occupied, unidentified).
type Piece struct {
	P        rules.Piece
	Occupied bool
}

// Rules implements [eboard.Piece].
func (p Piece) Rules() (rules.Piece, bool) { return p.P, p.Occupied }

// Config tunes a [Session]. Zero fields take the defaults.
type Config struct {
	// LinkTimeout: a board whose stream stops for this long is reported
	// lost (default 2 s; it sends about three frames a second).
	LinkTimeout time.Duration
	// CalibrateFrames is how many frames in a row a start position must
	// show the same chips before they are learnt (default 5).
	CalibrateFrames int
	// Orientation, if not Undecided, overrides the detection from the
	// start position (and the calibration's reading of a board never
	// calibrated, which is taken to lie as its maker labels it).
	Orientation eboard.Orientation
	// Blink is how long a blinking square stays lit, and dark (default
	// 500 ms); Refresh is how often the LEDs are sent again while lit,
	// since a board may lose a write (default 1 s).
	Blink, Refresh time.Duration
	// Calibration is the chips known (nil: none yet), shared by every
	// board of a driver.
	Calibration *Calibration
}

func (c Config) withDefaults() Config {
	def := func(d *time.Duration, v time.Duration) {
		if *d <= 0 {
			*d = v
		}
	}
	def(&c.LinkTimeout, 2*time.Second)
	def(&c.Blink, 500*time.Millisecond)
	def(&c.Refresh, time.Second)
	if c.CalibrateFrames <= 0 {
		c.CalibrateFrames = 5
	}
	if c.Calibration == nil {
		c.Calibration = &Calibration{}
	}
	return c
}

// SessionStats counts what a session dealt with.
type SessionStats struct {
	Frames  uint64 // good frames
	Bad     uint64 // lines that were no frame (a cut first line, noise)
	Changes uint64 // frames that changed the board
	Learnt  uint64 // calibrations that taught the host new chips
	Unknown uint64 // squares read with a chip never learnt, when they changed
	LEDs    uint64 // LED commands sent
}

// Session is the host side of one Certabo board, a pure state machine
// ([eboard.Session]). The board streams its frames by itself; the host
// filters them square by square ([Filter]), learns the chips of every
// start position it is shown for CalibrateFrames frames ([Calibration]:
// the board as its maker labels it the first time, then as the chips it
// knows tell, with spare queens on d3 and d6), and delivers the board: the
// first whole, then each changed square, every frame also a heartbeat.
// The orientation is decided by the first board that shows a set-up, and
// again by every start position. A board silent for LinkTimeout is
// reported lost. The LEDs show the acknowledged move, steady, and an
// alert's squares over it, blinking, the host making the blinks.
type Session struct {
	cfg  Config
	id   string
	w    eboard.Wire
	line Lines

	filter Filter
	board  eboard.Board[Piece]
	// calibration: the filtered board has shown the same start position
	// for stable frames.
	candidate Frame
	stable    int

	started bool
	hello   bool // the board was announced since the port opened
	ready   bool // it has been announced once
	lost    bool
	lastRx  time.Duration

	lastMove  [2]rules.Square
	alert     *board.Lights
	alertFrom time.Duration
	sent      LEDs
	sentAt    time.Duration
	sentOnce  bool

	Stats SessionStats
}

// NewSession returns the session of the board on port, talking through w.
func NewSession(cfg Config, port string, w eboard.Wire) *Session {
	s := &Session{cfg: cfg.withDefaults(), id: IDPrefix + eboard.PortName(port), w: w,
		lastMove: [2]rules.Square{rules.NoSquare, rules.NoSquare}}
	s.board.Caps = Caps
	s.board.Fixed = s.cfg.Orientation
	s.board.Redetect = true
	return s
}

// Calibration returns the chips the session knows.
func (s *Session) Calibration() *Calibration { return s.cfg.Calibration }

// ID returns the board's id.
func (s *Session) ID() string { return s.id }

// Orientation returns the orientation in use.
func (s *Session) Orientation() eboard.Orientation { return s.board.Orientation() }

func (s *Session) emit(e board.Event) {
	if s.w.Emit != nil {
		s.w.Emit(e)
	}
}

// Info returns what the board is.
func (s *Session) Info() *board.Info {
	return &board.Info{ID: s.id, Firmware: "Certabo RFID", Protocol: Protocol, Caps: Caps, MaxHeight: 1,
		Width: 8, Height: 8, Cells: 64}
}

// Start implements [eboard.Session]: the host sends the LEDs as they
// should be (all dark at first), and waits for the stream.
func (s *Session) Start(now time.Duration) {
	s.started, s.hello = true, false
	s.line.Reset()
	s.filter.Reset()
	s.stable = 0
	s.lastRx = now
	s.sendLEDs(now, true)
}

// Disconnected implements [eboard.Session].
func (s *Session) Disconnected(now time.Duration) {
	s.Tick(now)
	s.markLost(now)
	s.started, s.hello = false, false
	s.line.Reset()
}

func (s *Session) markLost(now time.Duration) {
	if !s.ready || s.lost {
		return
	}
	s.lost = true
	s.board.Forget()
	s.emit(board.Event{Kind: board.EventHealth, Health: board.Disconnected, Host: now})
}

// Feed implements [eboard.Session].
func (s *Session) Feed(p []byte, now time.Duration) {
	s.Tick(now)
	s.line.Feed(p, func(l []byte) {
		kind, f, err := ParseLine(l)
		switch {
		case err != nil:
			s.Stats.Bad++
		case kind == LineFrame:
			s.frame(&f, now)
		}
	})
}

// frame takes one frame read at now.
func (s *Session) frame(f *Frame, now time.Duration) {
	s.Stats.Frames++
	s.lastRx = now
	if !s.hello {
		s.hello, s.ready = true, true
		s.emit(board.Event{Kind: board.EventHello, Host: now, Info: s.Info()})
	}
	if s.lost {
		s.lost = false
		s.emit(board.Event{Kind: board.EventHealth, Health: board.Active, Host: now})
	}
	changed, since := s.filter.Add(f, now, s.known)
	if !s.filter.Fresh() {
		return
	}
	if _, have := s.board.Settled(); !have {
		changed, since = true, now // the board whole, as it is since the port opened
	}
	state := s.filter.State()
	if s.calibrate(state) {
		s.board.Forget() // the pieces are known anew: the board whole
		changed, since = true, now
	}
	if changed {
		var pieces [64]Piece
		for sq, id := range state {
			if id == (ID{}) {
				continue
			}
			p, ok := s.cfg.Calibration.Piece(id)
			pieces[sq] = Piece{P: p, Occupied: true}
			if !ok {
				s.Stats.Unknown++
			}
		}
		if s.board.TakeAt(&pieces, now, since, s.emit) > 0 {
			s.Stats.Changes++
		}
	}
	// The frame proves the board up to now, unless it shows a change the
	// filter has not taken yet: a square the board put right after a
	// rook was set down may yet show the king's move.
	if !s.filter.Pending() {
		s.emit(board.Event{Kind: board.EventHeartbeat, Host: now})
	}
}

// known reports whether the host has learnt chip id.
func (s *Session) known(id ID) bool {
	_, ok := s.cfg.Calibration.Piece(id)
	return ok
}

// calibrate learns the chips of a start position the board has shown for
// CalibrateFrames frames, and reports whether it learnt anything.
func (s *Session) calibrate(state *Frame) bool {
	if *state != s.candidate {
		s.candidate, s.stable = *state, 0
	}
	s.stable++
	if s.stable != s.cfg.CalibrateFrames {
		return false
	}
	learnt, ok := startPieces(state, s.cfg.Orientation, s.cfg.Calibration.Piece)
	if !ok || !s.cfg.Calibration.Learn(learnt) {
		return false
	}
	s.Stats.Learnt++
	return true
}

// maxDue bounds the deadlines one Tick catches up on.
const maxDue = 1 << 17

// Tick implements [eboard.Session]: a board silent for LinkTimeout is
// reported lost, and the LEDs blink and are sent again, each at the
// instant it falls due.
func (s *Session) Tick(now time.Duration) {
	for range maxDue {
		if !s.started {
			return
		}
		at := s.Deadline()
		if at > now {
			return
		}
		if s.ready && !s.lost && at-s.lastRx >= s.cfg.LinkTimeout {
			s.markLost(at)
		}
		if at >= s.ledDeadline() {
			s.sendLEDs(at, true)
		}
	}
}

// Deadline implements [eboard.Session].
func (s *Session) Deadline() time.Duration {
	if !s.started {
		return time.Duration(1<<63 - 1) // the port is closed: nothing is due
	}
	d := s.ledDeadline()
	if s.ready && !s.lost {
		d = min(d, s.lastRx+s.cfg.LinkTimeout)
	}
	return d
}

// ledDeadline is when the LEDs are next sent: at the next blink, or
// again after Refresh while anything is lit.
func (s *Session) ledDeadline() time.Duration {
	never := time.Duration(1<<63 - 1)
	if !s.sentOnce {
		return never
	}
	d := never
	if s.sent != (LEDs{}) {
		d = s.sentAt + s.cfg.Refresh
	}
	if a := s.alert; a != nil && a.Mode == board.LightBlink {
		n := (s.sentAt-s.alertFrom)/s.cfg.Blink + 1
		d = min(d, s.alertFrom+n*s.cfg.Blink)
	}
	return d
}

// Resync implements [eboard.Session].
func (s *Session) Resync(now time.Duration) error { return s.board.Snapshot(now, s.emit) }

// Assume implements [eboard.Session]: a log cut after the stream began.
func (s *Session) Assume(info board.Info, now time.Duration) error {
	if !strings.HasPrefix(info.ID, IDPrefix) {
		return errors.New("not a certabo board id: " + info.ID)
	}
	s.id = info.ID
	s.started, s.lastRx = true, now
	return nil
}

// Show implements [eboard.Session]: the LEDs show the acknowledged move
// (steady on its two squares) and, over it, the squares an alert names
// (blinking). Clock times and texts have nowhere to go.
func (s *Session) Show(m board.Message, now time.Duration) error {
	switch m := m.(type) {
	case *board.AckMove:
		s.lastMove = [2]rules.Square{m.From, m.To}
		s.alert = nil
	case *board.Lights:
		s.alert = nil
		if m.Mode != board.LightOff && len(m.Squares) > 0 {
			l := *m
			l.Squares = append([]uint16(nil), m.Squares...)
			s.alert, s.alertFrom = &l, now
		}
	default:
		return nil
	}
	s.sendLEDs(now, false)
	return nil
}

// leds returns what the LEDs should show at now.
func (s *Session) leds(now time.Duration) LEDs {
	var l LEDs
	o := s.board.Orientation()
	light := func(sq rules.Square) {
		if sq >= 0 && sq < 64 {
			l.Light(o.Field(sq))
		}
	}
	if a := s.alert; a != nil {
		if a.Mode == board.LightBlink && ((now-s.alertFrom)/s.cfg.Blink)%2 == 1 {
			return l // the dark half of a blink
		}
		for _, sq := range a.Squares {
			light(rules.Square(sq))
		}
		return l
	}
	light(s.lastMove[0])
	light(s.lastMove[1])
	return l
}

// sendLEDs sends the LEDs as they should be at now, if they changed or
// again is set.
func (s *Session) sendLEDs(now time.Duration, again bool) {
	l := s.leds(now)
	if s.sentOnce && l == s.sent && !again {
		return
	}
	s.sent, s.sentAt, s.sentOnce = l, now, true
	s.Stats.LEDs++
	if s.w.Send != nil && s.started {
		s.w.Send(l[:])
	}
}
