package board

import (
	"fmt"
	"time"
)

// Record is one entry of a board's raw log: bytes that crossed the wire
// between the host and the board, as the driver read or wrote them.
type Record struct {
	// Seq is the raw log's number for the record (0 when there is no raw
	// log): the events the record causes carry it as their RawSeq.
	Seq uint64
	// Host is the host's monotonic instant at which the bytes were read
	// (or written, when Sent).
	Host time.Duration
	// Sent is true for bytes the host wrote to the board, false for bytes
	// the board sent. Records stored before the raw log kept the
	// direction are all false; a protocol whose frames tell their
	// direction (ours) does not need it.
	Sent bool
	// Data is the bytes: one frame for a framed protocol (ours), or
	// whatever one read returned for a byte-stream protocol (DGT).
	Data []byte
}

// ReplayConfig is what a [Replayer] reports to.
type ReplayConfig struct {
	// Port names the port the board was read through.
	Port string
	// Start is the instant the port was opened: the replayer waits for
	// the board's handshake from then on.
	Start time.Duration
	// Emit receives every event, in order, as the live driver delivered
	// them: each event taken from a record carries the record's Seq (or
	// the number Unit gave it) as its RawSeq. It is called synchronously
	// and must not call back into the replayer.
	Emit func(Event)
	// Bad, if set, is told about every part of a record the protocol
	// rejects (a corrupt frame), with its raw number.
	Bad func(rawSeq uint64, host time.Duration, err error)
	// Setting is how the live driver read its boards, as it serialised it
	// for the event's database (each driver's own format, e.g. its settle
	// time and which display is White's): the replay reads the log alike.
	// Nil means the driver's defaults.
	Setting []byte
	// Unit, if set, receives every unit the protocol cuts from a fed
	// record (a frame of ours; the whole record for a byte stream), good
	// or bad (err), before it is interpreted, as the live driver's raw
	// log saw it; a non-zero result is the unit's raw number, which then
	// stamps its events instead of the record's Seq. Tests that feed a
	// simulator's reads use it to number frames as the daemon does.
	Unit func(data []byte, host time.Duration, err error) uint64
}

// ReplayStats counts what a [Replayer] has handled.
type ReplayStats struct {
	Frames    int // good units from the board that were interpreted
	Sent      int // logged units from the host
	Bad       int // units the protocol rejected
	Requests  int // full-state requests the replayer made itself
	Duplicate int // duplicated or stale units dropped
}

// Replayer reads one board's raw log again, offline, deterministically and
// without goroutines: the records go in, with their instants, and the
// events the live driver delivered come out through [ReplayConfig.Emit].
// Time is an input: every call carries its instant, and the caller
// interleaves the replayer's own timers ([Replayer.Next], [Replayer.Tick]:
// a read timeout, a settle delay) with its own.
//
// A protocol whose raw log is a byte stream (DGT) fits as well as a framed
// one: each record is (host time, direction, bytes) and the replayer keeps
// whatever state the live driver kept between reads (a partial message,
// the settled position, pending timers).
//
// Calls come in time order: Connect first (ReplayConfig.Start stands for
// the first), then any sequence of Feed, Tick and the others, each with an
// instant no earlier than the last.
type Replayer interface {
	// Connect says that the board's port was opened again at now: the
	// replayer waits for the board's handshake.
	Connect(port string, now time.Duration)
	// Disconnect says that the port failed at now: partial input is
	// dropped, and the link's loss is reported as the live driver did.
	Disconnect(now time.Duration)
	// Feed takes one record of the raw log. The caller has let time pass
	// to r.Host first (Next and Tick).
	Feed(r Record)
	// Next returns the instant of the replayer's next timer: Tick is due
	// then.
	Next() time.Duration
	// Tick fires the timers due at now; afterwards Next is later than
	// now.
	Tick(now time.Duration)
	// RequestState asks the board for its whole state at now, as the
	// daemon does when a game begins, so that a snapshot follows. When
	// the log holds the host's own requests, the replayer awaits the
	// logged one instead.
	RequestState(now time.Duration)
	// Info returns what the board's last handshake said, or nil before
	// one. A protocol whose boards are all alike (a DGT board is an 8x8
	// chess board sensing identity and colour) may return its Info from
	// the start; a replay without one needs Assume.
	Info() *Info
	// Handshake reports whether a record holds the start of a board's
	// handshake: a replay may begin there with nothing before it. A
	// protocol without one may report the record where the host first
	// asked for the whole board, or always false (a replay then starts at
	// the game's first record).
	Handshake(r Record) bool
	// Assume takes info as the board's handshake, made just before the
	// record first, for a log that holds no handshake before a game: it
	// returns an error when the protocol cannot start from there.
	Assume(info Info, first Record) error
	// Stats returns the replayer's counters.
	Stats() ReplayStats
}

// NewReplayer returns a replayer of protocol's raw logs, connected through
// cfg.Port at cfg.Start, from the protocol's registration
// ([Protocol.Replayer]); an empty protocol is [ProtocolSensorboard], as
// for records stored before the raw log named it.
func NewReplayer(protocol string, cfg ReplayConfig) (Replayer, error) {
	p, ok := Lookup(protocol)
	if !ok {
		if protocol == "" {
			protocol = ProtocolSensorboard
		}
		return nil, fmt.Errorf("no replayer for board protocol %q (known: %v)", protocol, ProtocolNames())
	}
	return p.Replayer(cfg), nil
}
