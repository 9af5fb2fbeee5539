package eboard

import (
	"time"

	"arbiter/board"
)

// Replayer is the [board.Replayer] of a protocol whose driver is a
// [Driver]: it runs a session made by the same [NewSession] on a board's
// raw log, offline and without goroutines, into the very events the live
// driver delivered. What the board sent is fed at its instant; an empty
// host record (the port opened) starts the session and an empty read (the
// port failed) disconnects it; what the host wrote is counted and
// dropped, since a session's events never depend on it. Display messages
// and the host's requests for the whole board ([Replayer.RequestState])
// are answered from what the session holds, as live.
type Replayer struct {
	cfg        board.ReplayConfig
	newSession NewSession
	s          Session
	port       string
	id         string
	info       *board.Info
	seq        uint64
	stats      board.ReplayStats
	sendTo     func([]byte)
}

// NewReplayer returns a replayer of one board's raw log whose sessions
// newSession makes, connected through cfg.Port at cfg.Start. info, if not
// nil, is what every board of the protocol says in its handshake, so that
// a replay needs none ([board.Replayer.Info]).
func NewReplayer(cfg board.ReplayConfig, newSession NewSession, info *board.Info) *Replayer {
	r := &Replayer{cfg: cfg, newSession: newSession, info: info}
	r.make(cfg.Port)
	r.s.Start(cfg.Start)
	return r
}

func (r *Replayer) make(port string) {
	r.port = port
	r.s = r.newSession(port, Wire{Send: r.send, Emit: r.emit})
}

func (r *Replayer) send(p []byte) {
	if r.sendTo != nil {
		r.sendTo(p)
	}
}

// SendTo makes what the session writes go to send (nil: nowhere, as in a
// replay): a board emulated in virtual time is read this way, through
// the same session as live, without goroutines. send must not keep p.
func (r *Replayer) SendTo(send func([]byte)) { r.sendTo = send }

func (r *Replayer) emit(e board.Event) {
	if e.Kind == board.EventHello && e.Info != nil {
		r.info, r.id = e.Info, e.Info.ID
	}
	if r.id == "" {
		return // the live driver delivers nothing before the board is known
	}
	stamp(&e, r.id, r.port, r.seq)
	if r.cfg.Emit != nil {
		r.cfg.Emit(e)
	}
}

// Connect implements [board.Replayer].
func (r *Replayer) Connect(port string, now time.Duration) {
	r.port = port
	r.s.Start(now)
}

// Disconnect implements [board.Replayer].
func (r *Replayer) Disconnect(now time.Duration) {
	r.seq = 0
	r.s.Disconnected(now)
}

// Feed implements [board.Replayer].
func (r *Replayer) Feed(rec board.Record) {
	r.seq = rec.Seq
	if r.cfg.Unit != nil {
		if s := r.cfg.Unit(rec.Data, rec.Host, nil); s != 0 {
			r.seq = s
		}
	}
	defer func() { r.seq = 0 }()
	switch {
	case rec.Sent && len(rec.Data) == 0:
		r.s.Start(rec.Host)
	case rec.Sent:
		r.stats.Sent++
		r.s.Tick(rec.Host)
	case len(rec.Data) == 0:
		r.s.Disconnected(rec.Host)
	default:
		r.stats.Frames++
		r.s.Feed(rec.Data, rec.Host)
	}
}

// Next implements [board.Replayer].
func (r *Replayer) Next() time.Duration { return r.s.Deadline() }

// Tick implements [board.Replayer].
func (r *Replayer) Tick(now time.Duration) { r.s.Tick(now) }

// RequestState implements [board.Replayer]: the driver answers the
// daemon's request from the settled board, with no bytes on the wire; so
// does the replay.
func (r *Replayer) RequestState(now time.Duration) {
	r.stats.Requests++
	_ = r.s.Resync(now)
}

// Show shows a message as the live driver did (its bytes are dropped):
// for tests that compare a replay with a live run.
func (r *Replayer) Show(m board.Message, now time.Duration) error { return r.s.Show(m, now) }

// Session returns the session the replayer runs.
func (r *Replayer) Session() Session { return r.s }

// Info implements [board.Replayer].
func (r *Replayer) Info() *board.Info { return r.info }

// Handshake implements [board.Replayer]: the port opened.
func (r *Replayer) Handshake(rec board.Record) bool { return rec.Sent && len(rec.Data) == 0 }

// Assume implements [board.Replayer]: the session takes info as its
// board's handshake, just before the record first.
func (r *Replayer) Assume(info board.Info, first board.Record) error {
	if err := r.s.Assume(info, first.Host); err != nil {
		return err
	}
	r.id = info.ID
	if r.info == nil || r.info.ID != info.ID {
		i := info
		r.info = &i
	}
	return nil
}

// Stats implements [board.Replayer].
func (r *Replayer) Stats() board.ReplayStats { return r.stats }
