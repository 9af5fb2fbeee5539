package driver

import (
	"io"
	"log/slog"
	"time"

	"arbiter/board"
	"arbiter/hardware/dgt"
)

// Replayer reads one DGT board's raw log (Config.Raw) again, offline and
// deterministically: the chunks go in, in order, and out come the events
// the driver delivered live for that board (the same settled squares,
// orientation, presses and instants), translated as the driver
// translates them. Its input is (host instant, sent, bytes); see
// [dgt.Replayer].
type Replayer struct {
	r *dgt.Replayer
	l *link
}

// NewReplayer returns a replayer of a board read through port with the
// session configuration of the live driver (Config.Session).
func NewReplayer(session dgt.Config, port string) *Replayer {
	d := &Driver{cfg: Config{Session: session, Now: func() time.Duration { return 0 }, Open: func(string) (io.ReadWriteCloser, error) { return nil, io.EOF }},
		log: slog.New(slog.DiscardHandler), ports: map[string]*link{}, boards: map[string]*link{}}
	return &Replayer{r: dgt.NewReplayer(session), l: &link{d: d, path: port, caps: Caps, ready: make(chan struct{}, 1)}}
}

// Chunk takes the next chunk of the log and returns the events it caused.
func (r *Replayer) Chunk(host time.Duration, sent bool, data []byte) []board.Event {
	return r.translate(r.r.Chunk(host, sent, data))
}

// Connect says that the port was opened at now (a log holding the
// host's start needs no Connect).
func (r *Replayer) Connect(now time.Duration) []board.Event {
	return r.translate(r.r.Connect(now))
}

// Disconnect says that the port failed at now (a log marks it with an
// empty read).
func (r *Replayer) Disconnect(now time.Duration) []board.Event {
	return r.translate(r.r.Disconnect(now))
}

// Resync delivers the replayed board's settled position whole at now, as
// [Driver.Resync] does live (from what the host holds, with no bytes on
// the wire): nothing before the first full board.
func (r *Replayer) Resync(now time.Duration) []board.Event {
	if !r.l.have {
		return nil
	}
	r.l.emit(r.l.snapshot(board.Event{Host: now}))
	return r.translate(nil)
}

// Next returns the instant at which the replayed session next acts by
// itself.
func (r *Replayer) Next() time.Duration { return r.r.Next() }

// Tick lets time pass to now.
func (r *Replayer) Tick(now time.Duration) []board.Event { return r.translate(r.r.Tick(now)) }

// Stats returns what the replayer took.
func (r *Replayer) Stats() dgt.ReplayStats { return r.r.Stats }

func (r *Replayer) translate(evs []dgt.Event) []board.Event {
	for _, e := range evs {
		r.l.take(e)
	}
	out := r.l.queue
	r.l.queue = nil
	return out
}
