package driver

import (
	"errors"
	"io"
	"log/slog"
	"strconv"
	"strings"
	"time"

	"arbiter/board"
	"arbiter/hardware/dgt"
)

// BusReplayer is the [board.Replayer] of protocol [BusProtocol]: it reads
// one bus board's raw log (BusConfig.Raw) again, offline and without
// goroutines, through a [dgt.BusReplayer], and translates its events as
// the bus driver does, each stamped with its record's number. A record
// that does not fit the replayed loop is reported through
// [board.ReplayConfig.Bad] and the replay goes on.
type BusReplayer struct {
	r     *dgt.BusReplayer
	l     *link
	cfg   board.ReplayConfig
	info  *board.Info
	stats board.ReplayStats
}

// NewBusReplayer returns a replayer of a bus board read by a driver of
// live (its Poll, WhiteRight and Bus), reporting to cfg.
func NewBusReplayer(live BusConfig, cfg board.ReplayConfig) *BusReplayer {
	if live.Poll <= 0 {
		live.Poll = 2 * time.Second
	}
	d := &Driver{cfg: Config{Session: dgt.Config{WhiteRight: live.WhiteRight}, Now: func() time.Duration { return 0 },
		Open: func(string) (io.ReadWriteCloser, error) { return nil, io.EOF }},
		log: slog.New(slog.DiscardHandler), ports: map[string]*link{}, boards: map[string]*link{}}
	return &BusReplayer{r: dgt.NewBusReplayer(live.tournament(), live.Bus), cfg: cfg,
		l: &link{d: d, path: cfg.Port, caps: BusCaps, ready: make(chan struct{}, 1)}}
}

// Replayer returns the replayed loop (its statistics).
func (b *BusReplayer) Replayer() *dgt.BusReplayer { return b.r }

func (b *BusReplayer) translate(evs []dgt.Event, seq uint64) {
	for _, e := range evs {
		b.l.take(e)
	}
	out := b.l.queue
	b.l.queue = nil
	replayed(b.cfg, &b.info, out, seq)
}

// Connect implements [board.Replayer]: a bus log's sessions begin with
// their board's Version request, so opening the line does nothing.
func (b *BusReplayer) Connect(string, time.Duration) {}

// Disconnect implements [board.Replayer]: the line failed at now.
func (b *BusReplayer) Disconnect(now time.Duration) { b.lineDown(now, 0) }

// lineDown ends the board's session at now, as the line's failure did.
func (b *BusReplayer) lineDown(now time.Duration, seq uint64) {
	b.r.LineDown(now)
	b.l.lineDown(now)
	b.translate(nil, seq)
}

// Feed implements [board.Replayer].
func (b *BusReplayer) Feed(rec board.Record) {
	seq := recordSeq(b.cfg, rec)
	if rec.Sent {
		b.stats.Sent++
	}
	if !rec.Sent && len(rec.Data) == 0 {
		b.lineDown(rec.Host, seq)
		return
	}
	evs, err := b.r.Record(rec.Host, rec.Sent, rec.Data)
	if err != nil {
		b.stats.Bad++
		if b.cfg.Bad != nil {
			b.cfg.Bad(seq, rec.Host, err)
		}
	} else if !rec.Sent {
		b.stats.Frames++
	}
	b.translate(evs, seq)
}

// Next implements [board.Replayer].
func (b *BusReplayer) Next() time.Duration { return b.r.Next() }

// Tick implements [board.Replayer].
func (b *BusReplayer) Tick(now time.Duration) { b.translate(b.r.Tick(now), 0) }

// RequestState implements [board.Replayer]: the daemon's request for a
// bus board's state is answered by the driver from the settled board,
// with no bytes on the wire ([Bus.Resync]); so is this one.
func (b *BusReplayer) RequestState(now time.Duration) {
	b.stats.Requests++
	if b.l.have {
		b.l.emit(b.l.snapshot(board.Event{Host: now}))
	}
	b.translate(nil, 0)
}

// Info implements [board.Replayer].
func (b *BusReplayer) Info() *board.Info { return b.info }

// Handshake implements [board.Replayer]: a board's session on the line
// begins with the host asking for its version.
func (b *BusReplayer) Handshake(rec board.Record) bool {
	if !rec.Sent {
		return false
	}
	cmd, _, err := dgt.ParseBusCommand(rec.Data)
	return err == nil && cmd == dgt.BusSendVersion
}

// Assume implements [board.Replayer]: a log cut after the board's session
// began goes on as the board info.ID, its state adopted from its next
// full read.
func (b *BusReplayer) Assume(info board.Info, first board.Record) error {
	serial, ok := strings.CutPrefix(info.ID, IDPrefix)
	addr, err := strconv.ParseUint(serial, 10, 14)
	if !ok || err != nil || addr == 0 {
		return errors.New("not a DGT bus board id: " + info.ID)
	}
	b.r.Assume(uint16(addr))
	b.translate([]dgt.Event{{Kind: dgt.EventIdentified, Serial: serial, Addr: uint16(addr), At: first.Host}}, 0)
	return nil
}

// Stats implements [board.Replayer].
func (b *BusReplayer) Stats() board.ReplayStats { return b.stats }
