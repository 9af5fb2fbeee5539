package sensorboard

import (
	"errors"
	"time"

	"arbiter/board"
)

// DefaultReadTimeout is the driver's default read timeout ([Config]): the
// longest a live link goes without a tick while its port is open.
const DefaultReadTimeout = 100 * time.Millisecond

// Replayer is this protocol's [board.Replayer]: the frames of a raw log
// go through the driver's own [Decoder] and [Link] again, with the
// instants of the log, and the link is ticked as the driver's reads
// would have ticked it (after every read and every [DefaultReadTimeout]).
// Host frames are not sent again, but the dump requests among them tell
// the link which dumps it waits for. Health changes that came from
// silence rather than from frames are reproduced only as far as the
// ticks reproduce the silence.
type Replayer struct {
	// Send receives the link's requests to the board (dump and handshake
	// requests); nil drops them, as a replay of a log must. A test that
	// drives a simulated board with the replayer delivers them. Send must
	// not call back into the replayer.
	Send func(Message)

	cfg     board.ReplayConfig
	dec     *Decoder
	scratch *Decoder // for Handshake and Assume, which must not disturb dec
	link    Link
	rawSeq  uint64 // the raw number of the frame the link is taking, or 0
	hostLog bool   // the log holds the host's frames
	info    *board.Info
	next    time.Duration
	stats   board.ReplayStats
}

// NewReplayer returns a replayer whose link is connected through
// cfg.Port at cfg.Start and waits for the board's HELLO.
func NewReplayer(cfg board.ReplayConfig) *Replayer {
	r := &Replayer{cfg: cfg, dec: NewDecoder(), scratch: NewDecoder()}
	r.link.Emit = r.emit
	r.link.Send = func(m Message) {
		if _, ok := m.(*DumpReqMsg); ok {
			r.stats.Requests++
		}
		if r.Send != nil {
			r.Send(m)
		}
	}
	r.link.SetPort(cfg.Port, cfg.Start)
	r.next = cfg.Start + DefaultReadTimeout
	return r
}

// Link returns the replayer's protocol link.
func (r *Replayer) Link() *Link { return &r.link }

func (r *Replayer) emit(e board.Event) {
	e.RawSeq = r.rawSeq // set while a frame is taken, as in the driver
	if e.Kind == board.EventHello {
		r.info = e.Info
	}
	if r.cfg.Emit != nil {
		r.cfg.Emit(e)
	}
}

// Connect implements [board.Replayer].
func (r *Replayer) Connect(port string, now time.Duration) { r.link.SetPort(port, now) }

// Disconnect implements [board.Replayer]: the link keeps its state and
// waits for the board's return, and reports the loss through its health.
func (r *Replayer) Disconnect(now time.Duration) {
	r.link.Disconnected(now)
	r.dec.Reset()
}

// Feed implements [board.Replayer]: rec holds the bytes of one read (or
// one stored frame); frames from the host are told apart by their type.
func (r *Replayer) Feed(rec board.Record) {
	p, host := rec.Data, rec.Host
	for len(p) > 0 {
		n, f, err := r.dec.Decode(p)
		p = p[n:]
		if err == ErrIncomplete {
			break
		}
		seq := rec.Seq
		if r.cfg.Unit != nil {
			if s := r.cfg.Unit(r.dec.Wire(), host, err); s != 0 {
				seq = s
			}
		}
		if err != nil {
			r.stats.Bad++
			if r.cfg.Bad != nil {
				r.cfg.Bad(seq, host, err)
			}
			continue
		}
		if !f.Type.FromBoard() {
			r.sent(f, host)
			continue
		}
		r.stats.Frames++
		// As the driver does, only the frame's own events carry its
		// number: those of ticks carry none.
		r.rawSeq = seq
		r.link.Frame(f, host)
		r.rawSeq = 0
	}
	// The driver ticks the link after every read.
	r.Tick(host)
}

// sent passes on a logged host frame (the raw log holds what the host
// sent, too): a dump request sets the token the link waits for, as live.
func (r *Replayer) sent(f Frame, host time.Duration) {
	r.stats.Sent++
	r.hostLog = true
	m := NewMessage(f.Type)
	if m == nil || m.UnmarshalPayload(f.Payload) != nil {
		return
	}
	r.link.Sent(m, host)
}

// Next implements [board.Replayer]: the driver's next read timeout.
func (r *Replayer) Next() time.Duration { return r.next }

// Tick implements [board.Replayer].
func (r *Replayer) Tick(now time.Duration) {
	r.link.Tick(now)
	r.next = now + DefaultReadTimeout
}

// RequestState implements [board.Replayer]: the link asks for a dump,
// unless the log holds the host's frames (the logged request is then
// awaited) or no board has said hello.
func (r *Replayer) RequestState(now time.Duration) {
	if r.info != nil && !r.hostLog {
		r.link.RequestDump(now)
	}
}

// Info implements [board.Replayer].
func (r *Replayer) Info() *board.Info { return r.info }

// Handshake implements [board.Replayer]: rec's first good frame is a
// HELLO.
func (r *Replayer) Handshake(rec board.Record) bool {
	f, ok := firstFrame(r.scratch, rec.Data)
	return ok && f.Type == TypeHello
}

// Assume implements [board.Replayer]: the link takes a HELLO made up from
// info, numbered just before first's frame so that no loss is reported.
func (r *Replayer) Assume(info board.Info, first board.Record) error {
	f, ok := firstFrame(r.scratch, first.Data)
	if !ok {
		return errors.New("the first frame does not decode")
	}
	h := &Hello{
		Major: VersionMajor, Minor: VersionMinor, Caps: info.Caps, MaxHeight: info.MaxHeight, Heartbeat: 500,
		Width: info.Width, Height: info.Height, Cells: info.Cells, ID: info.ID, Graph: info.Graph, Zones: info.Zones,
	}
	r.link.Frame(Frame{Header: Header{Type: TypeHello, Seq: f.Seq - 1, Time: f.Time}, Payload: h.AppendPayload(nil)}, first.Host)
	if r.info == nil {
		return errors.New("the link refused a made-up handshake")
	}
	return nil
}

// Stats implements [board.Replayer].
func (r *Replayer) Stats() board.ReplayStats {
	s := r.stats
	s.Duplicate = int(r.link.Stats.Duplicates)
	return s
}

// firstFrame decodes with d, reset first, the first good frame of a
// stored record (the raw log stores one frame a record); ok is false when
// none decodes.
func firstFrame(d *Decoder, data []byte) (f Frame, ok bool) {
	d.Reset()
	for len(data) > 0 {
		n, f, err := d.Decode(data)
		data = data[n:]
		if err == nil {
			return f, true
		}
	}
	return f, false
}
