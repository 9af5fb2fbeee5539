package dgt

import (
	"errors"
	"fmt"
	"log/slog"
	"time"

	"arbiter/rules"
)

// busExchange is what the tournament loop asks of one board: an exchange
// of one or more bus requests whose follow-ups the board's state decides.
type busExchange uint8

const (
	exNone     busExchange = iota
	exIdentify             // DGT_BUS_SEND_VERSION after discovery: a new session
	exSetUp                // a board not tagged yet is read whole (and maybe resumed)
	exPoll                 // DGT_BUS_SEND_CHANGES (and maybe a verify)
	exClock                // DGT_BUS_SEND_CLOCK
	exTag                  // DGT_BUS_SET_START_GAME
	exAdopt                // a full read adopted as is (a replay resyncing)
	exIgnore               // a ping: no effect on the board's state
)

// busStep is the request a board's exchange waits for.
type busStep uint8

const (
	stepIdle         busStep = iota
	stepIdentify             // BusSendVersion
	stepSetUpRead            // BusSendBoard of a board not tagged yet
	stepResume               // BusSendFromStart after a set-up read in mid-game
	stepPoll                 // BusSendChanges
	stepVerifyRead           // BusSendBoard of a verify
	stepVerifyReplay         // BusSendFromStart of a verify
	stepClock                // BusSendClock
	stepTag                  // BusSetStartGame
	stepAdopt                // BusSendBoard adopted whole
)

// stepCommand is the bus command each step sends.
var stepCommand = [...]byte{
	stepIdentify: BusSendVersion, stepSetUpRead: BusSendBoard, stepResume: BusSendFromStart,
	stepPoll: BusSendChanges, stepVerifyRead: BusSendBoard, stepVerifyReplay: BusSendFromStart,
	stepClock: BusSendClock, stepTag: BusSetStartGame, stepAdopt: BusSendBoard,
}

// busBoard is one board of a bus line in DGT's tournament loop, as a
// state machine without goroutines, I/O or clock (etcd raft style): the
// loop begins an exchange ([busBoard.begin]), asks which command the
// board wants next ([busBoard.want]), and feeds each request's outcome
// (the reply, [ErrNoReply], [ErrChecksum]) with its instant
// ([busBoard.outcome]); the board emits its events stamped with that
// instant. The live [Tournament] drives it with [Bus] requests, the
// [BusReplayer] with the records of a raw log, so that both emit the
// same events.
type busBoard struct {
	addr    uint16
	serial  string
	cfg     *TournamentConfig
	log     *slog.Logger
	count   func(func(*TournamentStats))
	emitf   func(Event)
	tracker Tracker
	pos     Position
	moving  bool
	quiet   int
	lost    bool
	tagged  bool // the start tag is written (or the board was resumed)
	clockAt time.Duration
	clocked bool     // clockAt holds the last clock reading's instant
	presses []LogTag // lever presses held until the move before them settles
	// unresumed counts the set-up rounds in a row in which the board,
	// found in mid-game, could not be resumed from its log.
	unresumed int

	step    busStep
	ready   bool          // the last set-up read found the start position, or resumed
	read    Position      // the full read an exchange holds (set-up or verify)
	dataOut bool          // the verify replays from the start tag whatever the read says
	askedAt time.Duration // the instant the clock read began
}

func newBusBoard(addr uint16, cfg *TournamentConfig, log *slog.Logger, count func(func(*TournamentStats)), emit func(Event)) *busBoard {
	bb := &busBoard{addr: addr, serial: fmt.Sprintf("%05d", addr), cfg: cfg, log: log, count: count, emitf: emit}
	bb.tracker.Fixed = cfg.Orientation
	return bb
}

func (bb *busBoard) emit(e Event, at time.Duration) {
	e.Serial, e.Addr, e.At = bb.serial, bb.addr, at
	if bb.emitf != nil {
		bb.emitf(e)
	}
}

func (bb *busBoard) tally(f func(*TournamentStats)) {
	if bb.count != nil {
		bb.count(f)
	}
}

// clockDue reports whether the loop should read the board's clock at now.
func (bb *busBoard) clockDue(now time.Duration) bool {
	return bb.cfg.Clock > 0 && !bb.lost && (!bb.clocked || now-bb.clockAt >= bb.cfg.Clock)
}

// begin starts an exchange at now; an exchange in course is dropped.
func (bb *busBoard) begin(x busExchange, now time.Duration) {
	switch x {
	case exIdentify:
		bb.step = stepIdentify
	case exSetUp:
		bb.step, bb.ready = stepSetUpRead, false
	case exPoll:
		bb.step = stepPoll
		bb.tally(func(s *TournamentStats) { s.Polls++ })
	case exClock:
		bb.step, bb.askedAt = stepClock, now
	case exTag:
		bb.step = stepTag
	case exAdopt:
		bb.step = stepAdopt
	default: // exIgnore: a ping asks nothing more of the board
		bb.step = stepIdle
	}
}

// want returns the command the exchange in course sends next, or false
// when it is over.
func (bb *busBoard) want() (byte, bool) {
	switch bb.step {
	case stepIdle:
		return 0, false
	}
	return stepCommand[bb.step], true
}

// outcome takes the outcome of the request want asked for: the reply, or
// the error of a request that got none ([ErrNoReply], [ErrChecksum]) at
// instant at. The exchange goes on with the next request want returns.
func (bb *busBoard) outcome(m Message, err error, at time.Duration) {
	step := bb.step
	bb.step = stepIdle
	switch step {
	case stepIdentify:
		var v Version
		if err == nil && len(m.Payload) >= 2 {
			v = Version{Major: m.Payload[0], Minor: m.Payload[1]}
		}
		bb.emit(Event{Kind: EventIdentified, Version: v}, at)
	case stepSetUpRead:
		bb.setUpRead(m, err, at)
	case stepResume:
		bb.resumed(m, err, at)
	case stepPoll:
		bb.polled(m, err, at)
	case stepVerifyRead:
		bb.verifyRead(m, err, at)
	case stepVerifyReplay:
		bb.verifyReplay(m, err, at)
	case stepClock:
		bb.clockRead(m, err, at)
	case stepTag:
		if err == nil {
			bb.tagged = true
		}
	case stepAdopt:
		p, err := readPosition(m, err)
		if err != nil {
			bb.silent(err, at)
			return
		}
		bb.back(at)
		bb.pos, bb.read = p, p
		bb.finishVerify(at)
	}
}

// readPosition parses a board read's reply.
func readPosition(m Message, err error) (Position, error) {
	var p Position
	if err != nil {
		return p, err
	}
	err = parsePosition(m, m.Payload, &p)
	return p, err
}

// setUpRead takes the full read of a board not tagged yet: the start
// position makes it ready; a board in mid-game is asked for its log from
// the start tag, to be resumed.
func (bb *busBoard) setUpRead(m Message, err error, at time.Duration) {
	p, err := readPosition(m, err)
	if err != nil {
		bb.silent(err, at)
		return
	}
	bb.back(at)
	if !isStart(&p) {
		bb.read, bb.step = p, stepResume
		return
	}
	bb.pos = p
	bb.settle(at)
	bb.ready, bb.unresumed = true, 0
}

// resumed takes the log from the start tag of a board in mid-game: with a
// start tag the board is adopted from it (the position replayed up to the
// changes a host already took); without, its set-up read is delivered.
func (bb *busBoard) resumed(m Message, err error, at time.Duration) {
	if err == nil {
		var p Position
		var o Orientation
		p, o, err = fromStart(ParseLog(m.Payload), bb.tracker.Orientation(), DetectOrientation(&bb.read))
		if err == nil {
			if o != Undecided {
				// The orientation is decided by the set-up the game began from.
				begin := startIn(o)
				bb.tracker.Settle(&begin, at, Event{}, func(Event) {})
				bb.tracker.Forget()
			}
			bb.log.Info("dgt: bus board resumed from its start tag", "board", bb.serial)
			bb.pos, bb.tagged, bb.ready = p, true, true
			bb.unresumed = 0
			bb.settle(at)
			return
		}
	}
	// Not this time: the next set-up read tries again. A board that holds
	// no game waits to be set up; one whose game cannot be read, after a
	// few tries, is the arbiter's to see to.
	if !errors.Is(err, errNoGame) {
		bb.unresumed++
		bb.log.Info("dgt: bus board not resumed", "board", bb.serial, "tries", bb.unresumed, "err", err)
		if bb.unresumed == resumeTries {
			bb.emit(Event{Kind: EventError, Err: fmt.Errorf("%w (board %s, %d tries: %w)", ErrNotResumed, bb.serial, bb.unresumed, err)}, at)
		}
	}
	bb.pos = bb.read
	bb.settle(at)
}

// polled takes the changes a board logged since the last poll.
func (bb *busBoard) polled(m Message, err error, at time.Duration) {
	if err != nil {
		bb.tally(func(s *TournamentStats) { s.Unanswered++ })
	}
	switch {
	case errors.Is(err, ErrNoReply):
		bb.silent(err, at)
		return
	case err != nil:
		// The changes could not be read: they are lost for good.
		bb.log.Info("dgt: bus changes lost; replaying from the start tag", "board", bb.serial, "err", err)
		bb.verify(true)
		return
	}
	l := ParseLog(m.Payload)
	if bb.back(at) {
		bb.verify(true)
		return
	}
	if len(l.Errors) > 0 {
		// Damaged changes: the presses wait for the board replayed from
		// its start tag.
		for _, tag := range l.Tags {
			if tag.Kind == TagTime {
				bb.presses = append(bb.presses, tag)
			}
		}
		bb.verify(true)
		return
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
			bb.settle(at)
			bb.press(tag, at)
		}
	}
	if n > 0 {
		bb.tally(func(s *TournamentStats) { s.Changes += uint64(n) })
		bb.moving, bb.quiet = true, 0
		return
	}
	bb.quiet++
	if bb.moving || bb.quiet >= bb.cfg.Verify || len(bb.presses) > 0 {
		bb.verify(false)
	}
}

// verify asks for the board whole, to settle it: a board that disagrees
// with the changes, or whose changes were lost (lost), is replayed from
// its start tag; if even that disagrees the full read is adopted.
func (bb *busBoard) verify(lost bool) {
	bb.tally(func(s *TournamentStats) { s.Verifies++ })
	bb.step, bb.dataOut = stepVerifyRead, lost
}

func (bb *busBoard) verifyRead(m Message, err error, at time.Duration) {
	dump, err := readPosition(m, err)
	if err != nil {
		bb.silent(err, at)
		return
	}
	bb.read = dump
	if bb.dataOut || dump != bb.pos {
		bb.step = stepVerifyReplay
		return
	}
	bb.finishVerify(at)
}

// verifyReplay takes the board's log from the start tag, asked for when
// changes were lost or a full read disagreed with them: a replay that
// disagrees too shows changes lost (a replay that agrees, a board moved
// on since the poll, whose changes the next poll brings).
func (bb *busBoard) verifyReplay(m Message, err error, at time.Duration) {
	lost := bb.dataOut
	if err == nil {
		p, _, err := fromStart(ParseLog(m.Payload), bb.tracker.Orientation(), DetectOrientation(&bb.read))
		lost = lost || err != nil || p != bb.pos
		if err == nil {
			bb.pos = p
		}
	}
	if lost {
		bb.tally(func(s *TournamentStats) { s.Replays++ })
	}
	if bb.read != bb.pos {
		// Changes the board has not sent yet, or a log the replay could
		// not read: the full read is the truth.
		bb.tally(func(s *TournamentStats) { s.Resyncs++ })
		bb.pos = bb.read
	}
	bb.finishVerify(at)
}

func (bb *busBoard) finishVerify(at time.Duration) {
	bb.moving, bb.quiet = false, 0
	bb.settle(at)
	for _, tag := range bb.presses {
		bb.press(tag, at)
	}
	bb.presses = nil
}

// clockRead takes a clock reading; a board that does not answer is left
// to the next poll.
func (bb *busBoard) clockRead(m Message, err error, at time.Duration) {
	var c *ClockTimes
	if err == nil {
		var v any
		v, err = parseBWTime(m)
		if err == nil {
			var ok bool
			if c, ok = v.(*ClockTimes); !ok {
				err = parseErr(m, "a clock acknowledgement where the clock's times were asked for")
			}
		}
	}
	if err != nil {
		bb.log.Debug("dgt: bus clock not read", "board", bb.serial, "err", err)
		return
	}
	bb.clockAt, bb.clocked = bb.askedAt, true
	e := Event{Kind: EventClock, Clock: *c, White: c.Left, Black: c.Right}
	if bb.cfg.WhiteRight {
		e.White, e.Black = c.Right, c.Left
	}
	bb.emit(e, at)
}

func (bb *busBoard) silent(err error, at time.Duration) {
	if !bb.lost {
		bb.lost = true
		bb.tracker.Forget()
		bb.log.Warn("dgt: bus board silent", "board", bb.serial, "err", err)
		bb.emit(Event{Kind: EventLinkLost}, at)
	}
}

// back reports a board that answers again; it returns true if it was lost.
func (bb *busBoard) back(at time.Duration) bool {
	if !bb.lost {
		return false
	}
	bb.lost = false
	bb.emit(Event{Kind: EventLinkBack}, at)
	return true
}

// settle delivers the host's copy of the board as settled.
func (bb *busBoard) settle(at time.Duration) {
	p := bb.pos
	bb.tracker.Settle(&p, at, Event{}, func(e Event) { bb.emit(e, at) })
}

// press delivers a lever press read from the log's time tag.
func (bb *busBoard) press(tag LogTag, at time.Duration) {
	// A press halts its own side's display.
	side := rules.White
	if tag.Left == bb.cfg.WhiteRight {
		side = rules.Black
	}
	e := Event{Kind: EventLever, Side: side, SideKnown: true}
	if tag.Left {
		e.Clock.Left = tag.Time
	} else {
		e.Clock.Right = tag.Time
	}
	bb.emit(e, at)
}
