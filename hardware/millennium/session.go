package millennium

import (
	"crypto/rand"
	"errors"
	"fmt"
	"strings"
	"time"

	"arbiter/board"
	"arbiter/hardware/eboard"
	"arbiter/rules"
)

// Protocol is the name of the ChessLink protocol in configurations and in
// the raw log (board.Info.Protocol).
const Protocol = "millennium"

// IDPrefix begins the board id of every ChessLink board: the rest is the
// eight hex digits the host keeps in the board's own memory (registers
// 10h to 13h).
const IDPrefix = "MIL-"

// Caps are what a ChessLink board senses and shows: each square's piece
// and its colour, and its LEDs; it has no clock to press.
const Caps = board.CapHeight | board.CapIdentity | board.CapColor | board.CapLights | board.CapNoPress

// The board's E2ROM registers the host uses (W and R commands).
const (
	RegScanTime   = 0x01 // scan time, in 2.048 ms units
	RegAutoReport = 0x02 // automatic status reports, bits 2..0
	RegReportTime = 0x03 // interval of report mode 2, in 4.096 ms units
	RegBrightness = 0x04 // LED brightness
	RegID         = 0x10 // the host's board id, 4 bytes (10h..13h are free for the host)
)

// ReportEveryScan is the automatic-report mode that sends the board's
// status after every scan (register 02 = 0): every report is then also
// the board's heartbeat, and a lost one is healed by the next.
const ReportEveryScan = 0

// ScanUnit is the unit of the scan-time register.
const ScanUnit = 2048 * time.Microsecond

// Config tunes a [Session]. Zero fields take the defaults.
type Config struct {
	// ScanTime is written to the board's scan-time register at connect:
	// how often it reads its squares, in 2.048 ms units (default 20,
	// 40.96 ms, the board's own default; 15 is the least it takes).
	ScanTime byte
	// Reply is how long a command may stay unanswered before it is sent
	// again (a write: before the host goes on without its echo; default
	// 300 ms).
	Reply time.Duration
	// Poll: a board that sent no status for this long is asked for one
	// (default 500 ms; every scan sends one).
	Poll time.Duration
	// LinkTimeout: a board silent for this long is reported lost (default
	// 2 s).
	LinkTimeout time.Duration
	// Orientation, if not Undecided, overrides the detection from the
	// start position.
	Orientation eboard.Orientation
	// NewID returns the id written into a board that has none (default:
	// random).
	NewID func() [4]byte
}

func (c Config) withDefaults() Config {
	if c.ScanTime < 15 {
		c.ScanTime = 20
	}
	def := func(d *time.Duration, v time.Duration) {
		if *d <= 0 {
			*d = v
		}
	}
	def(&c.Reply, 300*time.Millisecond)
	def(&c.Poll, 500*time.Millisecond)
	def(&c.LinkTimeout, 2*time.Second)
	if c.NewID == nil {
		c.NewID = func() (id [4]byte) {
			_, _ = rand.Read(id[:])
			return id
		}
	}
	return c
}

// ScanPeriod returns how often the board reads its squares.
func (c Config) ScanPeriod() time.Duration {
	return time.Duration(c.withDefaults().ScanTime) * ScanUnit
}

// SessionStats counts what a session dealt with.
type SessionStats struct {
	Statuses uint64 // board statuses read
	Changes  uint64 // statuses that changed the board
	Skipped  uint64 // bytes skipped by the decoder (noise, bad checksums)
	Resent   uint64 // commands sent again for want of a reply
}

// step is where the handshake stands.
type step uint8

const (
	stepVersion step = iota
	stepReadID
	stepWriteID
	stepReadScan
	stepReadMode
	stepReady
)

// request is a command waiting for its reply.
type request struct {
	cmd    []byte
	reply  byte // the reply's letter
	addr   int  // the register of an r or w reply, -1 for none
	write  bool // a write: the host goes on without its echo
	sentAt time.Duration
}

// Session is the host side of one ChessLink board, a pure state machine
// ([eboard.Session]). At the port's opening it reads the board's version
// and the id the host keeps in its memory (writing one into a board that
// has none), sets the scan time and the report of a status after every
// scan (reading the registers first and writing only what differs: the
// board keeps them through power-offs, for every program), then
// delivers every status: the first whole, then each changed square, and
// an unchanged status as a heartbeat. The board's orientation is decided
// by the first status that shows a set-up, and again by every start
// position. A board silent for LinkTimeout is reported lost; a status
// after that is whole again.
type Session struct {
	cfg  Config
	port string
	w    eboard.Wire
	dec  Decoder
	buf  []byte

	board eboard.Board[Piece]

	started bool
	step    step
	req     *request
	index   int // the register being read or written in this step
	wrote   bool
	version [2]byte
	idBytes [4]byte
	id      string

	ready      bool
	lost       bool
	lastRx     time.Duration
	lastStatus time.Duration

	lastMove [2]rules.Square // the acknowledged move's squares, NoSquare for none
	alert    *board.Lights
	shown    []byte // the last LED command sent

	Stats SessionStats
}

// NewSession returns the session of a board read through port, talking
// through w.
func NewSession(cfg Config, port string, w eboard.Wire) *Session {
	s := &Session{cfg: cfg.withDefaults(), port: port, w: w, dec: Decoder{Lengths: &ReplyLengths},
		lastMove: [2]rules.Square{rules.NoSquare, rules.NoSquare}}
	s.board.Caps = Caps
	s.board.Fixed = s.cfg.Orientation
	s.board.Redetect = true
	return s
}

// Config returns the session's configuration with defaults filled in.
func (s *Session) Config() Config { return s.cfg }

// ID returns the board's id, empty before the handshake read it.
func (s *Session) ID() string { return s.id }

// Orientation returns the orientation in use.
func (s *Session) Orientation() eboard.Orientation { return s.board.Orientation() }

func (s *Session) send(p []byte) {
	if s.w.Send != nil {
		s.w.Send(p)
	}
}

func (s *Session) emit(e board.Event) {
	if s.w.Emit != nil {
		s.w.Emit(e)
	}
}

// ask sends a command whose reply is awaited.
func (s *Session) ask(cmd []byte, reply byte, addr int, write bool, now time.Duration) {
	s.req = &request{cmd: cmd, reply: reply, addr: addr, write: write, sentAt: now}
	s.send(cmd)
}

// Start implements [eboard.Session]: the handshake begins with the
// version.
func (s *Session) Start(now time.Duration) {
	s.started, s.ready = true, false
	s.buf = s.buf[:0]
	s.dec = Decoder{Lengths: &ReplyLengths}
	s.lastRx = now
	s.step, s.index, s.wrote = stepVersion, 0, false
	s.shown = nil // a board that restarted shows nothing
	s.ask(Append(nil, 'V', ""), 'v', -1, false, now)
}

// Disconnected implements [eboard.Session].
func (s *Session) Disconnected(now time.Duration) {
	s.Tick(now)
	s.markLost(now)
	s.started, s.ready, s.req = false, false, nil
	s.buf = s.buf[:0]
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
	s.buf = append(s.buf, p...)
	for len(s.buf) > 0 {
		n, m, err := s.dec.Decode(s.buf)
		if errors.Is(err, ErrIncomplete) {
			break
		}
		if err != nil {
			s.Stats.Skipped += uint64(n)
		} else {
			s.handle(m, now)
		}
		s.buf = s.buf[n:]
	}
	s.buf = append(s.buf[:0:0], s.buf...)
}

// handle takes one message read at now.
func (s *Session) handle(m Message, now time.Duration) {
	s.lastRx = now
	q := s.req
	answers := q != nil && q.reply == m.Letter
	if answers && q.addr >= 0 {
		answers = int(Hex(m.Data, 0)) == q.addr
	}
	switch m.Letter {
	case 's':
		st, _ := ParseStatus(m.Data)
		if answers {
			s.req = nil
		}
		s.status(&st, now)
	case 'v':
		if answers && s.step == stepVersion {
			s.req = nil
			s.version = [2]byte{Hex(m.Data, 0), Hex(m.Data, 2)}
			s.next(now)
		}
	case 'r':
		if answers {
			s.req = nil
			s.register(Hex(m.Data, 2), now)
		}
	case 'w':
		if answers {
			s.req = nil
			s.next(now)
		}
	}
	// l and x acknowledge the LEDs: the host does not wait for them.
}

// register takes the value of the register the step read.
func (s *Session) register(v byte, now time.Duration) {
	switch s.step {
	case stepReadID:
		s.idBytes[s.index] = v
		s.index++
		if s.index < len(s.idBytes) {
			s.askRead(RegID+s.index, now)
			return
		}
		if unset(s.idBytes) && !s.wrote {
			s.step, s.index, s.wrote = stepWriteID, 0, true
			s.idBytes = s.cfg.NewID()
			s.askWrite(RegID, s.idBytes[0], now)
			return
		}
		s.id = IDPrefix + fmt.Sprintf("%02X%02X%02X%02X", s.idBytes[0], s.idBytes[1], s.idBytes[2], s.idBytes[3])
		if unset(s.idBytes) {
			// The board keeps no id: it goes by its port.
			s.id = IDPrefix + eboard.PortName(s.port)
		}
		s.step, s.wrote = stepReadScan, false
		s.askRead(RegScanTime, now)
	case stepReadScan:
		if v != s.cfg.ScanTime && !s.wrote {
			s.wrote = true
			s.askWrite(RegScanTime, s.cfg.ScanTime, now)
			return
		}
		if v != s.cfg.ScanTime {
			s.emit(board.Event{Kind: board.EventError, Host: now, Err: fmt.Errorf("millennium board %s keeps scan time %d, not %d", s.id, v, s.cfg.ScanTime)})
		}
		s.step, s.wrote = stepReadMode, false
		s.askRead(RegAutoReport, now)
	case stepReadMode:
		if v&7 != ReportEveryScan && !s.wrote {
			s.wrote = true
			s.askWrite(RegAutoReport, ReportEveryScan, now)
			return
		}
		if v&7 != ReportEveryScan {
			// Statuses come when the host asks (every Poll) all the same.
			s.emit(board.Event{Kind: board.EventError, Host: now, Err: fmt.Errorf("millennium board %s keeps report mode %d, not a status every scan", s.id, v&7)})
		}
		s.ready = true
		s.step = stepReady
		s.hello(now)
	}
}

// next goes on after a write was echoed or given up.
func (s *Session) next(now time.Duration) {
	switch s.step {
	case stepVersion:
		s.step, s.index = stepReadID, 0
		s.askRead(RegID, now)
	case stepWriteID:
		s.index++
		if s.index < len(s.idBytes) {
			s.askWrite(RegID+s.index, s.idBytes[s.index], now)
			return
		}
		// Read back what the board kept.
		s.step, s.index = stepReadID, 0
		s.askRead(RegID, now)
	case stepReadScan:
		s.askRead(RegScanTime, now)
	case stepReadMode:
		s.askRead(RegAutoReport, now)
	}
}

func (s *Session) askRead(addr int, now time.Duration) {
	s.ask(Append(nil, 'R', HexByte(byte(addr))), 'r', addr, false, now)
}

func (s *Session) askWrite(addr int, v byte, now time.Duration) {
	s.ask(Append(nil, 'W', HexByte(byte(addr))+HexByte(v)), 'w', addr, true, now)
}

// unset reports whether id bytes are those of a board no host named.
func unset(id [4]byte) bool { return id == [4]byte{} || id == [4]byte{0xff, 0xff, 0xff, 0xff} }

// Info returns what the board's handshake said, nil before it.
func (s *Session) Info() *board.Info {
	if s.id == "" {
		return nil
	}
	return &board.Info{ID: s.id, Firmware: fmt.Sprintf("ChessLink %02X.%02X", s.version[0], s.version[1]), Protocol: Protocol,
		Caps: Caps, MaxHeight: 1, Width: 8, Height: 8, Cells: 64}
}

// hello announces the board, and asks for its status and shows its LEDs.
func (s *Session) hello(now time.Duration) {
	s.board.Forget()
	s.emit(board.Event{Kind: board.EventHello, Host: now, Info: s.Info()})
	if s.lost {
		s.lost = false
		s.emit(board.Event{Kind: board.EventHealth, Health: board.Active, Host: now})
	}
	s.ask(Append(nil, 'S', ""), 's', -1, false, now)
	s.lights()
}

// status takes a board status read at now.
func (s *Session) status(st *Status, now time.Duration) {
	s.Stats.Statuses++
	s.lastStatus = now
	if !s.ready {
		return
	}
	if s.lost {
		s.lost = false
		s.emit(board.Event{Kind: board.EventHealth, Health: board.Active, Host: now})
	}
	if s.board.Take((*[64]Piece)(st), now, s.emit) == 0 {
		s.emit(board.Event{Kind: board.EventHeartbeat, Host: now})
		return
	}
	s.Stats.Changes++
}

// maxDue bounds the deadlines one Tick catches up on.
const maxDue = 1 << 17

// Tick implements [eboard.Session]: an unanswered command is sent again,
// a board quiet for Poll is asked for its status, and one silent for
// LinkTimeout is reported lost, each at the instant it fell due.
func (s *Session) Tick(now time.Duration) {
	for range maxDue {
		if !s.started {
			return
		}
		at := s.Deadline()
		if at > now {
			return
		}
		s.due(at)
	}
}

func (s *Session) due(at time.Duration) {
	switch q := s.req; {
	case q != nil && at-q.sentAt >= s.cfg.Reply && q.write:
		s.req = nil // a board that does not echo writes (a Performance, it is said)
		s.next(at)
	case q != nil && at-q.sentAt >= s.cfg.Reply:
		s.Stats.Resent++
		q.sentAt = at
		s.send(q.cmd)
	case q == nil && s.ready && at-s.lastStatus >= s.cfg.Poll:
		s.ask(Append(nil, 'S', ""), 's', -1, false, at)
	}
	if s.ready && !s.lost && at-s.lastRx >= s.cfg.LinkTimeout {
		s.markLost(at)
	}
}

// Deadline implements [eboard.Session].
func (s *Session) Deadline() time.Duration {
	d := time.Duration(1<<63 - 1)
	if q := s.req; q != nil {
		d = q.sentAt + s.cfg.Reply
	} else if s.ready {
		d = s.lastStatus + s.cfg.Poll
	}
	if s.ready && !s.lost {
		d = min(d, s.lastRx+s.cfg.LinkTimeout)
	}
	return d
}

// Resync implements [eboard.Session].
func (s *Session) Resync(now time.Duration) error { return s.board.Snapshot(now, s.emit) }

// Assume implements [eboard.Session]: a log cut after the handshake goes
// on as the board info.ID.
func (s *Session) Assume(info board.Info, now time.Duration) error {
	if !strings.HasPrefix(info.ID, IDPrefix) {
		return errors.New("not a millennium board id: " + info.ID)
	}
	s.started, s.ready, s.step, s.req = true, true, stepReady, nil
	s.id = info.ID
	s.lastRx, s.lastStatus = now, now
	s.hello(now)
	return nil
}

// Show implements [eboard.Session]: the LEDs show the acknowledged move
// (steady on its two squares) and, over it, the squares an alert names
// (blinking: quickly for a square to put right, slowly to look at).
// Clock times and texts have nowhere to go.
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
			s.alert = &l
		}
	default:
		return nil
	}
	s.lights()
	return nil
}

// Patterns of the LEDs.
const (
	slotTime      = 0x20 // 131 ms a slot: a pattern of 8 slots lasts about a second
	patternSteady = 0xFF
	patternSlow   = 0xF0 // half a second on, half off
	patternQuick  = 0xCC
)

// lights sends the LED state if it changed.
func (s *Session) lights() {
	if !s.ready {
		return
	}
	var l LEDs
	o := s.board.Orientation()
	light := func(sq rules.Square, p byte) {
		if sq >= 0 && sq < 64 {
			l.Light(o.Field(sq), p)
		}
	}
	if a := s.alert; a != nil {
		p := byte(patternSteady)
		if a.Mode == board.LightBlink {
			p = patternSlow
			if a.Color == board.ColorBad {
				p = patternQuick
			}
		}
		for _, sq := range a.Squares {
			light(rules.Square(sq), p)
		}
	} else {
		light(s.lastMove[0], patternSteady)
		light(s.lastMove[1], patternSteady)
	}
	cmd := LEDCommand(slotTime, &l)
	if string(cmd) == string(s.shown) {
		return
	}
	s.shown = cmd
	s.send(cmd)
}
