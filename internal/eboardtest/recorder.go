package eboardtest

import (
	"bytes"
	"fmt"
	"sync"
	"time"

	"arbiter/board"
	"arbiter/rules"
)

// Recorder is a live driver's handler and raw log for tests: it keeps
// every event and record, and the board the events show.
type Recorder struct {
	mu      sync.Mutex
	events  []board.Event
	records []board.Record
	pieces  [64]rules.Piece
	changed chan struct{}
}

// NewRecorder returns an empty recorder.
func NewRecorder() *Recorder { return &Recorder{changed: make(chan struct{}, 1)} }

// Handle is the driver's handler.
func (r *Recorder) Handle(e board.Event) {
	r.mu.Lock()
	r.events = append(r.events, e)
	switch e.Kind {
	case board.EventSnapshot:
		for sq, st := range e.Snapshot.Squares {
			r.pieces[sq] = st.Top.Piece
		}
	case board.EventSquare:
		r.pieces[e.Square] = e.Top.Piece
	}
	r.mu.Unlock()
	select {
	case r.changed <- struct{}{}:
	default:
	}
}

// Raw is the driver's raw log: records are numbered from 1.
func (r *Recorder) Raw(_ string, rec board.Record) uint64 {
	rec.Data = bytes.Clone(rec.Data)
	r.mu.Lock()
	defer r.mu.Unlock()
	r.records = append(r.records, rec)
	return uint64(len(r.records))
}

// Taken returns copies of the events and records so far.
func (r *Recorder) Taken() ([]board.Event, []board.Record) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]board.Event(nil), r.events...), append([]board.Record(nil), r.records...)
}

// Hello returns what the board's first handshake said, or nil.
func (r *Recorder) Hello() *board.Info {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, e := range r.events {
		if e.Kind == board.EventHello {
			return e.Info
		}
	}
	return nil
}

// Wait waits until the events show the pieces of v.
func (r *Recorder) Wait(v rules.View, timeout time.Duration) error {
	var want [64]rules.Piece
	for sq := range want {
		want[sq], _ = v.Top(rules.Square(sq))
	}
	deadline := time.After(timeout)
	for {
		r.mu.Lock()
		got := r.pieces
		r.mu.Unlock()
		if got == want {
			return nil
		}
		select {
		case <-r.changed:
		case <-deadline:
			return fmt.Errorf("the host shows %v, want %v", got, want)
		}
	}
}

// Replay replays records (numbered from 1) through protocol's registered
// replayer as arbiter replay does, its timers let run up to each record,
// and returns the events it emitted and the replayer.
func Replay(protocol string, cfg board.ReplayConfig, records []board.Record) ([]board.Event, board.Replayer, error) {
	var out []board.Event
	cfg.Emit = func(e board.Event) { out = append(out, e) }
	rep, err := board.NewReplayer(protocol, cfg)
	if err != nil {
		return nil, nil, err
	}
	for i, rec := range records {
		rec.Seq = uint64(i + 1)
		for rep.Next() <= rec.Host {
			rep.Tick(rep.Next())
		}
		rep.Feed(rec)
	}
	return out, rep, nil
}
