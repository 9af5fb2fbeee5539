package dgt

import (
	"bytes"
	"errors"
	"fmt"
	"time"

	"arbiter/rules"
)

// Config tunes a [Session]. Zero fields take the defaults.
type Config struct {
	// Settle is how long the field updates must be quiet before the board
	// is read whole and its changes delivered (default 250 ms, DGT's USB
	// scan time; Bluetooth boards scan at half speed and want 500 ms; a
	// slow slider wants more).
	Settle time.Duration
	// Poll is the watchdog: a board that said nothing for this long is
	// read whole, which heals lost updates and proves the link (default
	// 1 s).
	Poll time.Duration
	// Reply is how long a full-board request may stay unanswered before it
	// is sent again (default 1 s).
	Reply time.Duration
	// LinkTimeout: a board silent for this long, while asked, is reported
	// lost (default 3 s).
	LinkTimeout time.Duration
	// AckTimeout is how long a clock command waits for its
	// acknowledgement before it is sent again (default 2.5 s; DGT says
	// one or two seconds), and ClockTries how often it is sent in all
	// (default 3).
	AckTimeout time.Duration
	ClockTries int
	// TextStep is how long each frame of a [Text] is shown on a DGT 3000
	// before the next (default 2 s).
	TextStep time.Duration
	// Orientation, if not Undecided, overrides the detection.
	Orientation Orientation
	// WhiteRight: White sits at the clock's right display (default left).
	WhiteRight bool
}

func (c Config) withDefaults() Config {
	def := func(d *time.Duration, v time.Duration) {
		if *d <= 0 {
			*d = v
		}
	}
	def(&c.Settle, 250*time.Millisecond)
	def(&c.Poll, time.Second)
	def(&c.Reply, time.Second)
	def(&c.LinkTimeout, 3*time.Second)
	def(&c.AckTimeout, 2500*time.Millisecond)
	def(&c.TextStep, 2*time.Second)
	if c.ClockTries <= 0 {
		c.ClockTries = 3
	}
	return c
}

// SessionStats counts what a session dealt with.
type SessionStats struct {
	Updates     uint64 // field updates received
	Reads       uint64 // full boards received
	Settles     uint64 // full boards delivered as settled
	Resyncs     uint64 // full boards that disagreed with the updates (lost or reordered updates)
	Errors      uint64 // undecodable or impossible messages
	ClockLagged uint64 // clock readings dropped because time ran backwards
	ClockRetry  uint64 // clock commands sent again
}

// Session is the host's state of one single-board link. It is pure:
// messages and instants go in through [Session.Handle] and
// [Session.Tick]; bytes for the board go out through Send and events
// through Emit. It is not safe for concurrent use; [Conn] serialises it.
type Session struct {
	// Send writes bytes to the board.
	Send func([]byte)
	// Emit receives every event, synchronously.
	Emit func(Event)

	cfg     Config
	tracker Tracker
	dec     Decoder

	serial  string
	version Version
	started bool
	lost    bool
	lastRx  time.Duration
	lastAsk time.Duration
	asked   bool // a full board is on its way
	askedAt time.Duration

	raw        Position
	rawHave    bool
	dirty      bool // the raw board has news not yet delivered
	lastUpdate time.Duration

	clock    *ClockTimes
	presses  []Event // lever presses waiting for the board to settle
	clockSet bool    // a SETNRUN was acknowledged since the last reading
	queue    []clockCmd
	inflight *clockCmd

	// The EEPROM log asked for: while it downloads (up to 9 s for a full
	// one at 9600 baud) the board hears nothing else, so clock commands
	// wait behind it. logSeen is when it was asked for or its bytes last
	// came; logTries how often it was asked for.
	logWanted bool
	logSeen   time.Duration
	logTries  int

	// The text a DGT 3000 shows, frame by frame: the frames shown so
	// far, and when the next is due (nil: none to come).
	text      *Text
	textShown int
	textDue   time.Duration

	Stats SessionStats
}

type clockCmd struct {
	bytes  []byte
	cmd    byte
	tries  int
	sentAt time.Duration
	// held: to be sent once the log has come (the port reopened while
	// a log was wanted).
	held bool
}

// logTries is how often the log is asked for before the board counts as
// not sending it.
const logTries = 2

// NewSession returns a session with cfg (defaults filled in).
func NewSession(cfg Config) *Session {
	s := &Session{cfg: cfg.withDefaults()}
	s.tracker.Fixed = s.cfg.Orientation
	return s
}

// Config returns the session's configuration with defaults filled in.
func (s *Session) Config() Config { return s.cfg }

// Serial returns the board's serial number, empty until it answered.
func (s *Session) Serial() string { return s.serial }

// Tracker returns the session's settled board.
func (s *Session) Tracker() *Tracker { return &s.tracker }

func (s *Session) send(b []byte) {
	if s.Send != nil {
		s.Send(b)
	}
}

func (s *Session) emit(e Event) {
	e.Serial = s.serial
	if s.Emit != nil {
		s.Emit(e)
	}
}

// Start begins (or, after the port was reopened, begins again) the
// conversation at now: it asks for the version and serial number, puts the
// board in UPDATE_NICE mode (field updates, clock readings when they
// change, and clock acknowledgements), reads the clock (the lever's first
// position, against which a change is a press) and asks for the full
// board.
func (s *Session) Start(now time.Duration) {
	s.started = true
	s.dec = Decoder{}
	s.lastRx = now
	s.send([]byte{CmdVersion, CmdSerialNr, CmdUpdateNice, CmdSendClock})
	s.askBoard(now)
	if s.logWanted {
		s.logTries = 0
		s.askLog(now)
	}
	if c := s.inflight; c != nil {
		c.tries = 0
		if s.logWanted {
			c.held = true // after the log
		} else {
			s.sendClock(now)
		}
	}
}

// Disconnected reports that the port failed at now. Everything read has
// been handled; the session keeps its board for the link's return, where
// the first full read is delivered whole.
func (s *Session) Disconnected(now time.Duration) {
	s.Tick(now)
	s.started = false
	s.asked = false
	s.markLost(now)
}

func (s *Session) markLost(now time.Duration) {
	if s.lost {
		return
	}
	s.lost = true
	s.flushPresses()
	s.tracker.Forget()
	s.emit(Event{Kind: EventLinkLost, At: now})
}

func (s *Session) askBoard(now time.Duration) {
	s.asked, s.askedAt, s.lastAsk = true, now, now
	s.send([]byte{CmdSendBoard})
}

// Feed decodes bytes read from the board at now and handles every
// complete message. Bytes of an incomplete message are kept for the next
// call. What fell due before now is done first (see [Session.Tick]).
func (s *Session) Feed(p []byte, now time.Duration, pending *[]byte) {
	s.Tick(now)
	buf := append(*pending, p...)
	for len(buf) > 0 {
		n, m, err := s.dec.Decode(buf)
		if errors.Is(err, ErrIncomplete) {
			break
		}
		if err != nil {
			s.protoErr(err, now)
		} else {
			s.Handle(m, now)
		}
		buf = buf[n:]
	}
	if len(buf) > 0 && len(p) > 0 && !s.lost {
		// A long message on its way (a full EEPROM log takes about 9 s
		// at 9600 baud): the board talks, so it is not silent.
		s.lastRx = now
	}
	if len(buf) > 0 && len(p) > 0 && buf[0] == MsgLog && s.logWanted {
		s.logSeen = now // the log is on its way
	}
	*pending = append((*pending)[:0], buf...)
}

func (s *Session) protoErr(err error, now time.Duration) {
	s.Stats.Errors++
	s.alive(now)
	// Whatever was lost may have been a field update: read the board
	// again once things are quiet.
	s.dirty = true
	s.lastUpdate = now
	s.emit(Event{Kind: EventError, At: now, Err: err})
}

func (s *Session) alive(now time.Duration) {
	s.lastRx = now
	if s.lost && s.started {
		s.lost = false
		s.emit(Event{Kind: EventLinkBack, At: now})
		s.askBoard(now)
	}
}

// Handle takes one decoded message read at now.
func (s *Session) Handle(m Message, now time.Duration) {
	s.alive(now)
	v, err := Parse(m)
	if err != nil {
		s.protoErr(err, now)
		return
	}
	switch v := v.(type) {
	case *FieldUpdate:
		s.Stats.Updates++
		s.raw[v.Field] = v.Piece
		s.dirty = true
		s.lastUpdate = now
	case *BoardDump:
		s.board(&v.Position, now)
	case *SerialNr:
		first := s.serial == ""
		if !first && s.serial != v.Serial {
			s.emit(Event{Kind: EventError, At: now, Err: fmt.Errorf("dgt: board serial number changed from %s to %s on one link", s.serial, v.Serial)})
		}
		s.serial = v.Serial
		if first {
			s.emit(Event{Kind: EventIdentified, At: now, Version: s.version})
		}
	case *Version:
		s.version = *v
	case *ClockTimes:
		s.clockTimes(v, now)
	case *ClockAck:
		s.clockAck(v, now)
	case *Log:
		if s.logWanted {
			s.emit(Event{Kind: EventLog, At: now, Log: v, Orientation: s.tracker.Orientation()})
			s.logDone(now)
		}
	}
}

// board takes a full board read. It is delivered only when it is settled:
// it agrees with the field updates and the last of them is at least Settle
// old (a read asked for before an update arrived reflects that update, so
// it is not settled either). A read that disagrees with the updates (one
// was lost) becomes the new raw board and is read again after Settle.
func (s *Session) board(p *Position, now time.Duration) {
	s.Stats.Reads++
	s.asked = false
	settled, have := s.tracker.Settled()
	if !s.rawHave || s.raw != *p {
		if s.rawHave {
			s.Stats.Resyncs++
		}
		s.raw, s.rawHave = *p, true
		switch {
		case have && settled == *p:
			s.settle(nil, now) // the board went back to where it was
		case !have:
			// The very first board (or the first after the link came
			// back) is the truth as it stands; it is not a move.
			s.settle(p, now)
		default:
			// Fresh news: only a second read after Settle that shows
			// the same board is settled.
			s.dirty, s.lastUpdate = true, now
		}
		return
	}
	switch {
	case have && settled == *p:
		s.settle(nil, now)
	case now-s.lastUpdate >= s.cfg.Settle:
		s.settle(p, now)
	}
}

// settle delivers p (nil: nothing changed) and then the lever presses
// that waited for it.
func (s *Session) settle(p *Position, now time.Duration) {
	s.dirty = false
	if p != nil {
		s.Stats.Settles++
		s.tracker.Settle(p, now, Event{}, s.emit)
	}
	s.flushPresses()
}

func (s *Session) flushPresses() {
	for _, e := range s.presses {
		s.emit(e)
	}
	s.presses = s.presses[:0]
}

// maxDue bounds the deadlines one Tick catches up on (a Reply apart, a
// day's worth): past it, the rest waits for the next call.
const maxDue = 1 << 17

// Tick lets time pass to now: it asks for the board when the updates have
// been quiet for Settle, runs the watchdog, reports a silent board lost
// and resends unacknowledged clock commands. Each of these is done at the
// instant it fell due ([Session.Deadline]), however late Tick is called,
// and every input (Feed, ClockCommand, Disconnected) first catches up the
// same way: so what a session emits depends only on its inputs and their
// instants, not on when a timer woke it, and [Replayer] recreates it
// exactly from the bytes and their instants.
//
// A Tick that catches up on several board requests (a host that slept)
// sends the board one of them.
func (s *Session) Tick(now time.Duration) {
	sent := false // a board request went out in this call
	for range maxDue {
		if !s.started {
			return
		}
		at := s.Deadline()
		if at > now {
			return
		}
		s.due(at, &sent)
	}
}

// due does what falls due at instant at; sent says whether a board
// request went out already in this Tick.
func (s *Session) due(at time.Duration, sent *bool) {
	s.boardDue(at, sent)
	if !s.lost && at-s.lastRx >= s.cfg.LinkTimeout {
		s.markLost(at)
	}
	s.logDue(at)
	if s.text != nil && at >= s.textDue {
		s.nextFrame(at)
	}
	s.clockDue(at)
}

// boardDue asks for the board when a read falls due at instant at: the
// reply awaited is late, the board has settled after an update, or it is
// time to poll. sent says whether a board request went out already in
// this Tick.
func (s *Session) boardDue(at time.Duration, sent *bool) {
	switch {
	case s.asked && at-s.askedAt >= s.cfg.Reply:
	case !s.asked && s.dirty && at-s.lastUpdate >= s.cfg.Settle:
	case !s.asked && at-s.lastAsk >= s.cfg.Poll:
	default:
		return
	}
	if *sent {
		s.asked, s.askedAt, s.lastAsk = true, at, at // the request sent is the one awaited
		return
	}
	s.askBoard(at)
	*sent = true
}

// logDue asks for the log again at instant at when the board has sent
// none of it for the link timeout, or gives up after logTries.
func (s *Session) logDue(at time.Duration) {
	if !s.logWanted || at-s.logSeen < s.cfg.LinkTimeout {
		return
	}
	if s.logTries < logTries {
		s.askLog(at)
		return
	}
	err := fmt.Errorf("dgt: the board did not send its log (asked %d times)", s.logTries)
	s.emit(Event{Kind: EventLog, At: at, Err: err})
	s.logDone(at)
}

// clockDue sends the clock command in flight again at instant at when its
// acknowledgement is late, or gives it up after the tries configured.
// While the log downloads, a clock command's acknowledgement waits behind
// it.
func (s *Session) clockDue(at time.Duration) {
	c := s.inflight
	if c == nil || s.logWanted || at-c.sentAt < s.cfg.AckTimeout {
		return
	}
	if c.tries >= s.cfg.ClockTries {
		s.inflight = nil
		s.emit(Event{Kind: EventError, At: at, Err: fmt.Errorf("dgt: clock command 0x%02x not acknowledged after %d tries", c.cmd, c.tries)})
		s.nextClock(at)
		return
	}
	s.Stats.ClockRetry++
	s.sendClock(at)
}

// Deadline returns the next instant at which Tick has something to do:
// none while the port is closed (between [Session.Disconnected] and the
// next [Session.Start]), when nothing falls due however long the board
// stays off its cable.
func (s *Session) Deadline() time.Duration {
	if !s.started {
		return never
	}
	d := s.lastAsk + s.cfg.Poll
	switch {
	case s.asked:
		d = s.askedAt + s.cfg.Reply
	case s.dirty:
		d = s.lastUpdate + s.cfg.Settle
	}
	if !s.lost {
		d = min(d, s.lastRx+s.cfg.LinkTimeout)
	}
	if s.inflight != nil && !s.logWanted {
		d = min(d, s.inflight.sentAt+s.cfg.AckTimeout)
	}
	if s.logWanted {
		d = min(d, s.logSeen+s.cfg.LinkTimeout)
	}
	if s.text != nil {
		d = min(d, s.textDue)
	}
	return d
}

// ClockCommand queues a clock command (from [SetNRun], [ShowText],
// [EndText], [Beep] or [ClockCommand]). Commands go one at a time: each is
// sent when the one before is acknowledged or given up, and none while
// the board sends its log ([Session.RequestLog]).
func (s *Session) ClockCommand(b []byte, now time.Duration) error {
	cmd, _, err := ParseClockCommand(b)
	if err != nil {
		return err
	}
	s.Tick(now)
	s.enqueue(b, cmd, now)
	return nil
}

// enqueue queues clock command b (command cmd) at now.
func (s *Session) enqueue(b []byte, cmd byte, now time.Duration) {
	s.queue = append(s.queue, clockCmd{bytes: b, cmd: cmd})
	if s.inflight == nil {
		s.nextClock(now)
	}
}

// clockSent takes a clock command that a replayed log shows the host
// sending from outside the session (see [Replayer]): it is the command in
// flight from now, as it was live.
func (s *Session) clockSent(b []byte, now time.Duration) error {
	cmd, _, err := ParseClockCommand(b)
	if err != nil {
		return err
	}
	if c := s.inflight; c != nil && bytes.Equal(c.bytes, b) {
		c.tries++
		c.sentAt = now
		return nil
	}
	s.inflight = &clockCmd{bytes: bytes.Clone(b), cmd: cmd, tries: 1, sentAt: now}
	return nil
}

// ClockBusy reports whether clock commands are waiting.
func (s *Session) ClockBusy() bool { return s.inflight != nil || len(s.queue) > 0 }

func (s *Session) nextClock(now time.Duration) {
	if len(s.queue) == 0 || s.logWanted {
		return
	}
	c := s.queue[0]
	s.queue = s.queue[1:]
	s.inflight = &c
	s.sendClock(now)
}

func (s *Session) sendClock(now time.Duration) {
	c := s.inflight
	c.tries++
	c.sentAt = now
	if s.started {
		s.send(c.bytes)
	}
}

func (s *Session) clockAck(a *ClockAck, now time.Duration) {
	cmd, solicited := a.Command()
	if !solicited {
		if k, ok := a.Key(); ok {
			s.emit(Event{Kind: EventClockButton, At: now, Key: k})
		}
		return
	}
	c := s.inflight
	if c == nil || c.cmd != cmd {
		return // a late duplicate of an acknowledgement already taken
	}
	s.inflight = nil
	if a.Failed() {
		s.emit(Event{Kind: EventError, At: now, Err: fmt.Errorf("dgt: clock refused command 0x%02x (a SETNRUN needs clock mode 23)", cmd)})
	} else if cmd == ClockSetNRun {
		// The clock was set: its next reading may go up, and it is the
		// lever's new reference, so read it now.
		s.clockSet = true
		s.send([]byte{CmdSendClock})
	}
	s.nextClock(now)
}

func (s *Session) clockTimes(t *ClockTimes, now time.Duration) {
	if t.NoClock || *t == (ClockTimes{}) {
		return // no clock, or the empty reading Bluetooth boards send after a command
	}
	if last := s.clock; last != nil && !s.clockSet && lagged(last, t) {
		s.Stats.ClockLagged++
		return
	}
	s.clockSet = false
	last := s.clock
	s.clock = t
	ev := Event{Kind: EventClock, At: now, Clock: *t}
	ev.White, ev.Black = t.Left, t.Right
	if s.cfg.WhiteRight {
		ev.White, ev.Black = t.Right, t.Left
	}
	s.emit(ev)
	if last != nil && last.Lever != t.Lever {
		s.leverMoved(t, now)
	}
}

// lagged reports whether t, a reading of a running clock after last, has
// a running side's time go up: a reading from before the last one (clock
// data lag the display by up to a second).
func lagged(last, t *ClockTimes) bool {
	if !t.Running || !last.Running {
		return false
	}
	return t.Left > last.Left && t.LeftTurn && last.LeftTurn || t.Right > last.Right && t.RightTurn && last.RightTurn
}

// leverMoved emits the press that moved the lever to where t says, or
// holds it until the move before it settles.
func (s *Session) leverMoved(t *ClockTimes, now time.Duration) {
	p := Event{Kind: EventLever, At: now}
	if t.LeftTurn != t.RightTurn {
		// The side now to move did not press.
		left := t.RightTurn
		p.Side, p.SideKnown = s.physical(left), true
	}
	if s.dirty {
		// The move before the press has not settled yet: the press
		// follows it, so the reader judges the settled position.
		s.presses = append(s.presses, p)
		return
	}
	s.emit(p)
}

// physical returns the colour sitting at the left (or right) display.
func (s *Session) physical(left bool) rules.Color {
	if left != s.cfg.WhiteRight {
		return rules.White
	}
	return rules.Black
}

// SetClock queues the clock command that sets White's and Black's times
// and starts the side to move (the other side paused), switching at the
// lever. It maps colours onto the displays by Config.WhiteRight.
func (s *Session) SetClock(white, black time.Duration, toMove rules.Color, now time.Duration) error {
	left, right := white, black
	if s.cfg.WhiteRight {
		left, right = black, white
	}
	flags := RunToggle
	if (toMove == rules.White) != s.cfg.WhiteRight {
		flags |= RunLeft
	} else {
		flags |= RunRight
	}
	b, err := SetNRun(left, right, flags)
	if err != nil {
		return err
	}
	return s.ClockCommand(b, now)
}

// StopClock queues the clock command that stops both sides at White's
// and Black's times: the end of a game (the result then shown as text) or
// an arbiter's pause; [Session.SetClock] runs it again. Both sides count
// down and the pause bit is set, so the clock stands whichever reading of
// the run bits it follows (DGT's notes read 0x01 and 0x02 as "counts
// down", ours as "runs"), and the lever does not start it.
func (s *Session) StopClock(white, black time.Duration, now time.Duration) error {
	left, right := white, black
	if s.cfg.WhiteRight {
		left, right = black, white
	}
	b, err := SetNRun(left, right, RunLeft|RunRight|RunPause)
	if err != nil {
		return err
	}
	return s.ClockCommand(b, now)
}

// RequestLog asks at now for the board's EEPROM log; an EventLog
// delivers it, or its Err when the board does not send it (asked twice,
// each time silent for Config.LinkTimeout). While it downloads (up to 9 s
// for a full log at 9600 baud) the board hears nothing else: clock
// commands wait behind it, and a command in flight waits for its
// acknowledgement until it has come. A log already on its way is not
// asked for again. Asked before [Session.Start], it is asked at the
// start.
func (s *Session) RequestLog(now time.Duration) {
	s.Tick(now)
	if s.logWanted {
		return
	}
	s.logWanted, s.logTries, s.logSeen = true, 0, now
	if s.started {
		s.askLog(now)
	}
}

func (s *Session) askLog(now time.Duration) {
	s.logTries++
	s.logSeen = now
	s.send([]byte{CmdSendLog})
}

// logDone ends the log's download at now, come or given up: the clock
// commands that waited go on.
func (s *Session) logDone(now time.Duration) {
	s.logWanted = false
	if c := s.inflight; c != nil {
		if c.held {
			c.held = false
			s.sendClock(now)
		} else {
			c.sentAt = now // its acknowledgement follows the log
		}
		return
	}
	s.nextClock(now)
}
