package replay

import (
	"errors"
	"time"

	"arbiter/arbiter"
	"arbiter/hardware/sensorboard"
)

// ReadTimeout is the driver's default read timeout: the longest a live
// link goes without a Tick while its port is open.
const ReadTimeout = 100 * time.Millisecond

var errNoSession = errors.New("no session is attached")

// ReaderStats counts what a [Reader] has handled.
type ReaderStats struct {
	Frames    int // good board frames given to the link
	Sent      int // logged host frames
	Bad       int // frames the decoder rejected
	Gaps      int // losses the link reported
	Dumps     int // full-state dumps delivered
	Requests  int // dump requests the link made
	Events    int // events given to the session
	Duplicate int // duplicated or stale frames the link dropped (from the link's counters)
}

// Reader is the daemon's read path for one board, offline and without
// goroutines: wire bytes go through a Decoder and a Link into a Session, as
// the serial driver and the table do live. Time is an input: every call
// carries its instant, and [Reader.Advance] fires the ticks the driver
// (every [ReadTimeout]) and the table's timer (at the session's deadlines,
// and at least once a second) would have fired before it.
//
// Until a session is attached the link still runs, so that a replay can
// bring it to the state it had when a game began.
type Reader struct {
	// Send receives the link's requests to the board (dump requests); nil
	// drops them, as a replay must. Send must not call back into the
	// Reader: queue the message and deliver it after the current call.
	Send func(sensorboard.Message)
	// Output receives every decision of the session.
	Output func(arbiter.Output)
	// Bad is told about every frame the decoder rejects, with its raw
	// sequence number (from Raw, or the one given to Feed).
	Bad func(rawSeq uint64, host time.Duration, err error)
	// Event, if set, sees every link event before it is handled.
	Event func(sensorboard.Event)
	// Raw, if set, receives every frame decoded from Feed's bytes, good or
	// bad (err), before it is interpreted, as the driver's raw log does; a
	// non-zero result is the frame's raw sequence number, which then
	// stamps the frame's events instead of Feed's rawSeq.
	Raw func(wire []byte, host time.Duration, err error) uint64

	dec  *sensorboard.Decoder
	link sensorboard.Link
	sess *arbiter.Session

	now      time.Duration
	rawSeq   uint64 // the raw number of the frame the link is taking, or 0
	hostLog  bool   // the log holds the host's frames
	hello    *sensorboard.Hello
	timer    time.Duration // the table's next timer instant
	timerOn  bool
	nextLink time.Duration // the driver's next read timeout

	// Stats counts what the reader has handled.
	Stats ReaderStats
}

// NewReader returns a reader whose link is connected through port at
// instant now and waits for the board's HELLO.
func NewReader(port string, now time.Duration) *Reader {
	r := &Reader{dec: sensorboard.NewDecoder(), now: now}
	r.link.Emit = r.emit
	r.link.Send = func(m sensorboard.Message) {
		if _, ok := m.(*sensorboard.DumpReqMsg); ok {
			r.Stats.Requests++
		}
		if r.Send != nil {
			r.Send(m)
		}
	}
	r.link.SetPort(port, now)
	r.nextLink = now + ReadTimeout
	return r
}

// Link returns the reader's protocol link.
func (r *Reader) Link() *sensorboard.Link { return &r.link }

// Hello returns the board's last handshake, or nil.
func (r *Reader) Hello() *sensorboard.Hello { return r.hello }

// Session returns the attached session, or nil.
func (r *Reader) Session() *arbiter.Session { return r.sess }

// Attach makes s receive the board's events from now on, starts it at
// instant at as the table does when a game begins, and has the link ask the
// board for a full dump, which a session waiting for the start position
// needs (the daemon asks for one at the start of every game). When the fed
// log holds the host's frames, the logged request is awaited instead.
func (r *Reader) Attach(s *arbiter.Session, at time.Duration) {
	r.Advance(at)
	r.sess = s
	r.deliver(s.Start(at))
	if r.hello != nil && !r.hostLog {
		r.link.RequestDump(at)
	}
}

// Disconnect reports that the port failed at instant now, as the driver
// does: the link keeps its state and waits for the board's return, and the
// session hears of the loss through the link's health.
func (r *Reader) Disconnect(now time.Duration) {
	r.Advance(now)
	r.link.Disconnected(now)
	r.dec.Reset()
}

// Connect reports that the board's port was opened again at instant now:
// the link waits for the board's next HELLO.
func (r *Reader) Connect(port string, now time.Duration) {
	r.Advance(now)
	r.link.SetPort(port, now)
}

// Feed takes the bytes of one read (usually one stored frame) received at
// instant host; rawSeq numbers them for evidence (0 when there is no raw
// log). Time first passes to host.
func (r *Reader) Feed(p []byte, host time.Duration, rawSeq uint64) {
	r.Advance(host)
	for len(p) > 0 {
		n, f, err := r.dec.Decode(p)
		p = p[n:]
		if err == sensorboard.ErrIncomplete {
			break
		}
		seq := rawSeq
		if r.Raw != nil {
			if s := r.Raw(r.dec.Wire(), host, err); s != 0 {
				seq = s
			}
		}
		if err != nil {
			r.Stats.Bad++
			if r.Bad != nil {
				r.Bad(seq, host, err)
			}
			continue
		}
		if !f.Type.FromBoard() {
			r.sent(f, host)
			continue
		}
		r.Stats.Frames++
		// As the driver does, only the frame's own events carry its
		// number: those of ticks carry none.
		r.rawSeq = seq
		r.link.Frame(f, host)
		r.rawSeq = 0
	}
	// The driver ticks the link after every read.
	r.link.Tick(host)
	r.nextLink = host + ReadTimeout
	r.Stats.Duplicate = int(r.link.Stats.Duplicates)
}

// sent passes on a logged host frame (the raw log holds what the host
// sent, too): a dump request sets the token the link waits for, as live.
func (r *Reader) sent(f sensorboard.Frame, host time.Duration) {
	r.Stats.Sent++
	r.hostLog = true
	m := sensorboard.NewMessage(f.Type)
	if m == nil || m.UnmarshalPayload(f.Payload) != nil {
		return
	}
	r.link.Sent(m, host)
}

// Advance lets time pass to instant to, firing the driver's link ticks and
// the table's session ticks in time order on the way.
func (r *Reader) Advance(to time.Duration) {
	for {
		next, session := r.nextLink, false
		if r.sess != nil && r.timerOn && r.timer <= next {
			next, session = r.timer, true
		}
		if next > to {
			break
		}
		r.now = max(r.now, next)
		if session {
			r.timerOn = false
			r.deliver(r.sess.Tick(next))
			continue
		}
		r.link.Tick(next)
		r.nextLink = next + ReadTimeout
	}
	r.now = max(r.now, to)
}

// emit handles one link event as the director does.
func (r *Reader) emit(e sensorboard.Event) {
	e.RawSeq = r.rawSeq // set while a frame is taken, as in the driver
	if r.Event != nil {
		r.Event(e)
	}
	switch e.Kind {
	case sensorboard.EventHello:
		r.hello = e.Hello
		return
	case sensorboard.EventGap:
		r.Stats.Gaps++
	case sensorboard.EventSnapshot:
		r.Stats.Dumps++
	}
	if ev, ok := arbiter.FromSensor(e); ok {
		r.handle(ev)
	}
}

func (r *Reader) handle(ev arbiter.Event) {
	if r.sess == nil {
		return
	}
	r.Stats.Events++
	r.deliver(r.sess.Handle(ev))
}

// Do runs an arbiter's command on the session at the reader's current
// instant (a resolution, a take-back, a result) and passes on its outputs.
func (r *Reader) Do(f func(s *arbiter.Session, now time.Duration) ([]arbiter.Output, error)) error {
	if r.sess == nil {
		return errNoSession
	}
	outs, err := f(r.sess, r.now)
	r.deliver(outs)
	return err
}

// deliver passes outputs on and re-arms the table's timer as the table
// does after every event: at the session's next deadline, and at least
// once a second while the game goes on.
func (r *Reader) deliver(outs []arbiter.Output) {
	for _, o := range outs {
		if r.Output != nil {
			r.Output(o)
		}
	}
	if r.sess == nil || r.sess.Outcome().Over() {
		r.timerOn = false
		return
	}
	wait := time.Second
	if d, ok := r.sess.NextDeadline(); ok {
		wait = min(wait, max(d-r.now, time.Millisecond))
	}
	r.timer, r.timerOn = r.now+wait, true
}
