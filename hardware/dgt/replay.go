package dgt

import (
	"bytes"
	"time"
)

// Chunk is one entry of a DGT board's raw log: bytes the host read from
// the board (one read) or wrote to it (one command), with the host's
// instant at which the session took or sent them ([ConnConfig.Raw]). A
// read chunk with no bytes says that the port failed then.
type Chunk struct {
	Host time.Duration
	Sent bool
	Data []byte
}

// startCommands are what [Session.Start] sends first: the mark of a
// conversation (re)started in a raw log.
var startCommands = []byte{CmdVersion, CmdSerialNr, CmdUpdateNice, CmdSendClock}

// IsStart reports whether a chunk is the host starting the conversation
// with a board (the port just opened): a replay may begin there.
func IsStart(c Chunk) bool { return c.Sent && bytes.Equal(c.Data, startCommands) }

// maxOwn bounds the commands a replayed session wrote that wait to be
// found in the log.
const maxOwn = 256

// ReplayStats counts what a [Replayer] took.
type ReplayStats struct {
	Read     int // chunks read from the board
	Sent     int // commands the host wrote
	Own      int // commands the replayed session wrote itself, found in the log
	External int // commands that came from outside the session (a start, a clock command, a log request)
	// Unexplained counts logged commands the replayed session neither
	// wrote nor could take from outside: a sign that the replay left the
	// live session's path (it is 0 for a log the Conn wrote).
	Unexplained int
	Failures    int // port failures (empty read chunks)
}

// Replayer recreates, offline and deterministically, the events a live
// [Session] on a [Conn] emitted, from the raw log the Conn wrote
// ([ConnConfig.Raw]): the same settled squares, orientation, clock
// readings and lever presses, with the same instants. It runs a session
// of the same [Config] on the chunks: what the board sent is fed at its
// instant, and what the host wrote tells what reached the session from
// outside (its start, clock commands, a request for the log); the
// commands the session writes itself are matched against the log, never
// sent. The session's timers fall due at their own instants
// ([Session.Tick]), so it does not matter when the live one was woken.
//
// Its input is (host instant, sent, bytes), in log order, through
// [Replayer.Chunk]; [Replayer.Connect] and [Replayer.Disconnect] are for a
// caller that knows the port's life from elsewhere (the log marks it: a
// start's commands, an empty read). It is not safe for concurrent use.
type Replayer struct {
	s       *Session
	pending []byte
	own     [][]byte // commands the replayed session wrote, not yet found in the log
	out     []Event
	last    time.Duration

	Stats ReplayStats
}

// NewReplayer returns a replayer of a session with cfg (the live one's:
// settle time, orientation, White at the right).
func NewReplayer(cfg Config) *Replayer {
	r := &Replayer{s: NewSession(cfg)}
	r.s.Send = func(b []byte) {
		if len(r.own) >= maxOwn {
			r.own = r.own[1:] // never logged: the live port was closed
		}
		r.own = append(r.own, bytes.Clone(b))
	}
	r.s.Emit = func(e Event) { r.out = append(r.out, e) }
	return r
}

// Session returns the replayed session (its tracker, statistics).
func (r *Replayer) Session() *Session { return r.s }

func (r *Replayer) take() []Event {
	out := r.out
	r.out = nil
	return out
}

// Connect says that the port was opened at now: the host starts the
// conversation. A log that holds the start's commands needs no Connect.
func (r *Replayer) Connect(now time.Duration) []Event {
	r.at(now)
	if r.s.started {
		r.s.Disconnected(now)
	}
	r.pending = r.pending[:0]
	r.s.Start(now)
	return r.take()
}

// Disconnect says that the port failed at now.
func (r *Replayer) Disconnect(now time.Duration) []Event {
	r.at(now)
	r.Stats.Failures++
	r.pending = r.pending[:0]
	r.own = r.own[:0]
	r.s.Disconnected(now)
	return r.take()
}

// Next returns the instant at which the replayed session next has
// something to do by itself: Tick is due then.
func (r *Replayer) Next() time.Duration { return r.s.Deadline() }

// Tick lets time pass to now (a replay past the log's last chunk: a board
// that fell silent is reported lost).
func (r *Replayer) Tick(now time.Duration) []Event {
	r.at(now)
	r.s.Tick(now)
	return r.take()
}

func (r *Replayer) at(now time.Duration) { r.last = max(r.last, now) }

// Chunk takes the next chunk of the log (host instant, sent by the host
// or read from the board, bytes) and returns the events the session
// emitted up to it.
func (r *Replayer) Chunk(host time.Duration, sent bool, data []byte) []Event {
	r.at(host)
	host = r.last // a log never goes back; a damaged one does not undo time
	switch {
	case !sent && len(data) == 0:
		return r.Disconnect(host)
	case !sent:
		r.Stats.Read++
		r.s.Feed(data, host, &r.pending)
		return r.take()
	}
	r.Stats.Sent++
	// What fell due before the command is done first: its own commands
	// are then among those waiting to be found.
	r.s.Tick(host)
	if r.found(data) {
		r.Stats.Own++
		return r.take()
	}
	switch {
	case bytes.Equal(data, startCommands):
		r.Stats.External++
		out := r.Connect(host)
		r.found(data) // the start just written
		return out
	case len(data) > 0 && data[0] == CmdClockMessage:
		if r.s.clockSent(data, host) == nil {
			r.Stats.External++
			return r.take()
		}
	case bytes.Equal(data, []byte{CmdSendLog}):
		r.Stats.External++
		r.s.RequestLog(host)
		r.found(data) // the request just written
		return r.take()
	}
	r.Stats.Unexplained++
	return r.take()
}

// found removes data from the commands the replayed session wrote and
// reports whether it was among them.
func (r *Replayer) found(data []byte) bool {
	for i, b := range r.own {
		if bytes.Equal(b, data) {
			r.own = append(r.own[:i], r.own[i+1:]...)
			return true
		}
	}
	return false
}
