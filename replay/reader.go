package replay

import (
	"errors"
	"fmt"
	"math"
	"time"

	"arbiter/arbiter"
	"arbiter/board"
)

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
// goroutines: the raw log's records go through the board protocol's
// [board.Replayer] (for our boards, the driver's frame decoder and link)
// into a Session, as the driver and the table do live. Time is an input:
// every call carries its instant, and [Reader.Advance] fires the
// replayer's timers (the driver's read timeouts) and the table's timer
// (at the session's deadlines, and at least once a second) in time order.
//
// Until a session is attached the replayer still runs, so that a replay
// can bring it to the state it had when a game began.
type Reader struct {
	// Output receives every decision of the session.
	Output func(arbiter.Output)
	// Bad is told about every frame the decoder rejects, with its raw
	// sequence number (from Raw, or the one given to Feed).
	Bad func(rawSeq uint64, host time.Duration, err error)
	// Event, if set, sees every board event before it is handled.
	Event func(board.Event)
	// Raw, if set, receives every frame decoded from Feed's bytes, good or
	// bad (err), before it is interpreted, as the driver's raw log does; a
	// non-zero result is the frame's raw sequence number, which then
	// stamps the frame's events instead of Feed's rawSeq
	// ([board.ReplayConfig.Unit]).
	Raw func(wire []byte, host time.Duration, err error) uint64

	rep  board.Replayer
	sess *arbiter.Session

	now     time.Duration
	timer   time.Duration // the table's next timer instant
	timerOn bool
	// stuckTold: the replayer's stuck timer has been reported (Advance).
	stuckTold bool

	// Stats counts what the reader has handled.
	Stats ReaderStats
}

// NewReader returns a reader of a board speaking protocol (empty: ours),
// whose link is connected through port at instant now and waits for the
// board's handshake. The protocol's replayer must be registered
// ([board.RegisterReplayer]).
func NewReader(protocol, port string, now time.Duration) (*Reader, error) {
	return NewReaderWithSetting(protocol, port, now, nil)
}

// NewReaderWithSetting is [NewReader] for a board that the live driver
// read with setting ([board.ReplayConfig.Setting]; nil: the driver's
// defaults).
func NewReaderWithSetting(protocol, port string, now time.Duration, setting []byte) (*Reader, error) {
	r := &Reader{now: now}
	rep, err := board.NewReplayer(protocol, board.ReplayConfig{
		Port: port, Start: now, Emit: r.emit, Setting: setting,
		Bad: func(seq uint64, host time.Duration, err error) {
			if r.Bad != nil {
				r.Bad(seq, host, err)
			}
		},
		Unit: func(wire []byte, host time.Duration, err error) uint64 {
			if r.Raw != nil {
				return r.Raw(wire, host, err)
			}
			return 0
		},
	})
	if err != nil {
		return nil, err
	}
	r.rep = rep
	return r, nil
}

// Replayer returns the reader's protocol replayer.
func (r *Reader) Replayer() board.Replayer { return r.rep }

// Info returns the board's last handshake, or nil.
func (r *Reader) Info() *board.Info { return r.rep.Info() }

// Session returns the attached session, or nil.
func (r *Reader) Session() *arbiter.Session { return r.sess }

// Attach makes s receive the board's events from now on, starts it at
// instant at as the table does when a game begins, and has the board asked
// for its whole state, which a session waiting for the start position
// needs (the daemon asks for one at the start of every game). When the fed
// log holds the host's frames, the logged request is awaited instead.
func (r *Reader) Attach(s *arbiter.Session, at time.Duration) {
	r.Advance(at)
	r.sess = s
	r.deliver(s.Start(at))
	r.rep.RequestState(at)
	r.sync()
}

// Disconnect reports that the port failed at instant now, as the driver
// does: the link keeps its state and waits for the board's return, and the
// session hears of the loss through the link's health.
func (r *Reader) Disconnect(now time.Duration) {
	r.Advance(now)
	r.rep.Disconnect(now)
	r.sync()
}

// Connect reports that the board's port was opened again at instant now:
// the link waits for the board's next handshake.
func (r *Reader) Connect(port string, now time.Duration) {
	r.Advance(now)
	r.rep.Connect(port, now)
	r.sync()
}

// Feed takes the bytes of one read from the board (usually one stored
// frame) at instant host; rawSeq numbers them for evidence (0 when there
// is no raw log). Time first passes to host.
func (r *Reader) Feed(p []byte, host time.Duration, rawSeq uint64) {
	r.FeedRecord(board.Record{Seq: rawSeq, Host: host, Data: p})
}

// FeedRecord takes one record of the raw log. Time first passes to its
// instant.
func (r *Reader) FeedRecord(rec board.Record) {
	r.Advance(rec.Host)
	r.rep.Feed(rec)
	r.sync()
}

// sync copies the replayer's counters into Stats.
func (r *Reader) sync() {
	s := r.rep.Stats()
	r.Stats.Frames, r.Stats.Sent, r.Stats.Bad, r.Stats.Requests, r.Stats.Duplicate = s.Frames, s.Sent, s.Bad, s.Requests, s.Duplicate
}

// Advance lets time pass to instant to, firing the driver's link ticks and
// the table's session ticks in time order on the way.
//
// A replayer whose timer does not move past an instant it was ticked at
// breaks [board.Replayer]'s contract: its timers are left alone for the
// rest of the call (reported once through Bad), so that a replay ends
// whatever a driver does.
func (r *Reader) Advance(to time.Duration) {
	stuck := false // the replayer's timer did not move on in this call
	for {
		next, session := r.rep.Next(), false
		if stuck {
			next = never
		}
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
		r.rep.Tick(next)
		if r.rep.Next() <= next {
			stuck = true
			if !r.stuckTold {
				r.stuckTold = true
				if r.Bad != nil {
					r.Bad(0, next, fmt.Errorf("the board replayer's timer stays at %v after it fired: its timers were skipped to %v", next, to))
				}
			}
		}
	}
	r.now = max(r.now, to)
	r.sync()
}

// never is the instant of a timer that is not set.
const never = time.Duration(math.MaxInt64)

// emit handles one board event as the director does.
func (r *Reader) emit(e board.Event) {
	if r.Event != nil {
		r.Event(e)
	}
	switch e.Kind {
	case board.EventHello:
		return
	case board.EventGap:
		r.Stats.Gaps++
	case board.EventSnapshot:
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
