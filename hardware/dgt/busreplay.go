package dgt

import (
	"errors"
	"fmt"
	"log/slog"
	"math"
	"time"
)

// never is the instant of a timer that is not set.
const never = time.Duration(math.MaxInt64)

// busRequest is a request of the replayed log waiting for its outcome.
type busRequest struct {
	cmd      byte // as the loop asked (DGT_BUS_SEND_CHANGES for its repeats)
	addr     uint16
	sends    int
	lastSend time.Duration
}

// BusReplayer recreates, offline and deterministically, the events a live
// [Tournament] emitted for one board of a bus line from the raw log its
// [Bus] wrote for the board ([BusConfig.Raw]): the same settled squares,
// orientation, lever presses, clock readings, link lost and back and
// identification, with the same instants. It drives the same per-board
// state machine as the live loop: a command record begins an exchange
// (or is its next request, or a repeat of the request in course); the
// replies after it are its outcome; a request with no good reply fails
// after [BusConfig.Tries] sends, Timeout after the last one (or at its
// last reply that failed its checksum). A Version request (the first
// request of a board after discovery) starts a new session, as a new
// Tournament does.
//
// A log that does not fit (the host sent one command where the board's
// state wants another, a reply nobody asked for, bytes that are no bus
// message) is reported by the error of [BusReplayer.Record]; the replayer
// then adopts the board's next full read and goes on. It is not safe for
// concurrent use; it starts no goroutine.
type BusReplayer struct {
	cfg    TournamentConfig
	bus    BusConfig
	log    *slog.Logger
	bb     *busBoard
	req    *busRequest
	resync bool // the board's state is adopted from its next full read
	out    []Event
	last   time.Duration

	// Stats counts what the replayed loop did, as [Tournament.Stats].
	Stats TournamentStats
}

// NewBusReplayer returns a replayer of a board read by a [Tournament] of
// cfg on a [Bus] of bus (the live ones: Verify, WhiteRight, Orientation;
// Tries and Timeout). Zero fields take the defaults, as live.
func NewBusReplayer(cfg TournamentConfig, bus BusConfig) *BusReplayer {
	if cfg.Verify <= 0 {
		cfg.Verify = 5
	}
	if bus.Timeout <= 0 {
		bus.Timeout = 80 * time.Millisecond
	}
	if bus.Tries <= 0 {
		bus.Tries = 3
	}
	cfg.Emit, cfg.Now = nil, nil
	return &BusReplayer{cfg: cfg, bus: bus, log: slog.New(slog.DiscardHandler)}
}

func (r *BusReplayer) emit(e Event) { r.out = append(r.out, e) }

func (r *BusReplayer) take() []Event {
	out := r.out
	r.out = nil
	return out
}

func (r *BusReplayer) count(f func(*TournamentStats)) { f(&r.Stats) }

func (r *BusReplayer) newBoard(addr uint16) {
	r.bb = newBusBoard(addr, &r.cfg, r.log, r.count, r.emit)
}

// Assume starts the replay of a log cut in mid-session: the board at addr,
// its state adopted from its next full read.
func (r *BusReplayer) Assume(addr uint16) {
	r.newBoard(addr)
	r.req, r.resync = nil, true
}

// LineDown says that the line failed at now (a log marks it with an empty
// read record): the request in course and the board's session end; the
// next session begins with its Version request.
func (r *BusReplayer) LineDown(now time.Duration) {
	r.at(now)
	r.req, r.bb = nil, nil
}

// Next returns the instant at which the request in course fails for want
// of a reply: Tick is due then.
func (r *BusReplayer) Next() time.Duration {
	if r.req != nil && r.req.sends >= r.bus.Tries {
		return r.req.lastSend + r.bus.Timeout
	}
	return never
}

// Tick lets time pass to now and returns the events of a request that
// failed meanwhile.
func (r *BusReplayer) Tick(now time.Duration) []Event {
	r.at(now)
	r.tick(r.last)
	return r.take()
}

func (r *BusReplayer) tick(now time.Duration) {
	if at := r.Next(); at <= now {
		r.finish(Message{}, ErrNoReply, at)
	}
}

func (r *BusReplayer) at(now time.Duration) { r.last = max(r.last, now) }

// Record takes the next record of the board's log (host instant, sent by
// the host, bytes) and returns the events the loop emitted up to it. An
// empty read record is a line failure ([BusReplayer.LineDown]). The error
// says why the record does not fit the replayed loop.
func (r *BusReplayer) Record(host time.Duration, sent bool, data []byte) ([]Event, error) {
	r.at(host)
	host = r.last // a log never goes back; a damaged one does not undo time
	r.tick(host)
	var err error
	switch {
	case !sent && len(data) == 0:
		r.LineDown(host)
	case sent:
		err = r.command(host, data)
	default:
		err = r.reply(host, data)
	}
	return r.take(), err
}

// finish feeds the request's outcome to the board.
func (r *BusReplayer) finish(m Message, err error, at time.Duration) {
	req := r.req
	r.req = nil
	if err != nil {
		err = fmt.Errorf("dgt: bus command 0x%02x to board %d, %d tries: %w", req.cmd, req.addr, r.bus.Tries, err)
	}
	if r.bb == nil {
		return
	}
	read := r.bb.step == stepAdopt || r.bb.step == stepVerifyRead
	r.bb.outcome(m, err, at)
	if read && err == nil && !r.bb.lost {
		r.resync = false
	}
}

// mismatch reports a log that left the replayed loop's path: the board's
// state is adopted from its next full read.
func (r *BusReplayer) mismatch(format string, args ...any) error {
	r.resync = true
	if r.bb != nil {
		r.bb.step = stepIdle
	}
	return fmt.Errorf("dgt: bus replay: "+format, args...)
}

func (r *BusReplayer) command(host time.Duration, data []byte) error {
	cmd, addr, err := ParseBusCommand(data)
	if err != nil {
		return fmt.Errorf("dgt: bus replay: command % x: %w", data, err)
	}
	var bad error
	if q := r.req; q != nil {
		repeat := cmd == q.cmd || (q.cmd == BusSendChanges && cmd == BusRepeatChanges)
		if repeat && addr == q.addr && q.sends < r.bus.Tries {
			q.sends++
			q.lastSend = host
			return nil
		}
		r.req = nil
		if cmd != BusSendVersion { // a host stopped in mid-request, and a new one starts
			bad = r.mismatch("command 0x%02x to board %d while the request 0x%02x had %d of %d tries", cmd, addr, q.cmd, q.sends, r.bus.Tries)
		}
	}
	if _, ok := replyTo[cmd]; !ok || cmd == BusRepeatChanges || addr == 0 {
		return errors.Join(bad, r.mismatch("command 0x%02x to board %d is no request of the tournament loop", cmd, addr))
	}
	switch {
	case cmd == BusSendVersion:
		r.newBoard(addr)
		r.resync = false
	case r.bb == nil:
		r.Assume(addr)
	case addr != r.bb.addr:
		return errors.Join(bad, fmt.Errorf("dgt: bus replay: command to board %d in the log of board %d", addr, r.bb.addr))
	}
	r.req = &busRequest{cmd: cmd, addr: addr, sends: 1, lastSend: host}
	return errors.Join(bad, r.begin(cmd, host))
}

// begin starts (or goes on with) the board's exchange that sends cmd.
func (r *BusReplayer) begin(cmd byte, host time.Duration) error {
	bb := r.bb
	var bad error
	if want, ok := bb.want(); ok {
		if want == cmd {
			return nil // the exchange's next request
		}
		bad = r.mismatch("the host sent command 0x%02x where the board's state wants 0x%02x", cmd, want)
	}
	x := exIgnore
	switch cmd {
	case BusSendVersion:
		x = exIdentify
	case BusSendChanges, BusSendClock:
		if !bb.tagged && !r.resync {
			bad = errors.Join(bad, r.mismatch("command 0x%02x to a board with no start tag", cmd))
		}
		bb.tagged = true
		x = exPoll
		if cmd == BusSendClock {
			x = exClock
		}
	case BusSendBoard:
		switch {
		case !bb.tagged:
			x = exSetUp
		case r.resync:
			x = exAdopt
		default:
			bad = errors.Join(bad, r.mismatch("a full read of board %d that no poll asked for", bb.addr))
			x = exAdopt
		}
	case BusSetStartGame:
		x = exTag
	case BusSendFromStart:
		bad = errors.Join(bad, r.mismatch("a log from the start tag of board %d that no read asked for", bb.addr))
	}
	bb.begin(x, host)
	return bad
}

func (r *BusReplayer) reply(host time.Duration, data []byte) error {
	var dec Decoder
	dec.Bus = true
	k, m, err := dec.Decode(data)
	var de *DecodeError
	checksum := errors.As(err, &de) && de.Checksum
	switch {
	case err != nil && !checksum:
		return fmt.Errorf("dgt: bus replay: reply % x: %w", data, err)
	case k != len(data):
		return fmt.Errorf("dgt: bus replay: reply % x holds %d bytes past its message", data, len(data)-k)
	}
	q := r.req
	if q == nil {
		if err == nil && m.ID == MsgBusPing {
			return nil // an answer to a ping to every board
		}
		return fmt.Errorf("dgt: bus replay: a reply (% x) that no request waits for", data)
	}
	if checksum {
		if de.Addr != q.addr {
			return fmt.Errorf("dgt: bus replay: a reply of board %d to a request to board %d", de.Addr, q.addr)
		}
		if q.sends >= r.bus.Tries {
			r.finish(Message{}, ErrChecksum, host)
		}
		return nil // the request is repeated
	}
	if m.ID != replyTo[q.cmd] || m.Addr != q.addr {
		return fmt.Errorf("dgt: bus replay: reply 0x%02x of board %d to command 0x%02x to board %d", m.ID, m.Addr, q.cmd, q.addr)
	}
	r.finish(m, nil, host)
	return nil
}
