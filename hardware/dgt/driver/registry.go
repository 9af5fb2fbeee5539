package driver

import (
	"errors"
	"strings"
	"time"

	"arbiter/board"
	"arbiter/hardware/dgt"
)

// boardReplayer is the DGT protocol's [board.Replayer]: a [Replayer] on
// the log's records, its events stamped with their record's number.
type boardReplayer struct {
	r     *Replayer
	cfg   board.ReplayConfig
	info  *board.Info
	stats board.ReplayStats
}

// newBoardReplayer replays with the live session's configuration
// (cfg.Setting: settle time, White at the clock's right).
func newBoardReplayer(cfg board.ReplayConfig) *boardReplayer {
	return &boardReplayer{r: NewReplayer(settingOf(cfg).session(), cfg.Port), cfg: cfg}
}

func (b *boardReplayer) emit(evs []board.Event, seq uint64) { replayed(b.cfg, &b.info, evs, seq) }

// replayed hands a replayer's events to cfg.Emit, each stamped with the
// raw number seq, and keeps the info of a hello among them.
func replayed(cfg board.ReplayConfig, info **board.Info, evs []board.Event, seq uint64) {
	for _, e := range evs {
		if e.Kind == board.EventHello {
			*info = e.Info
		}
		e.RawSeq = seq
		if cfg.Emit != nil {
			cfg.Emit(e)
		}
	}
}

// Connect implements [board.Replayer]. A DGT log holds the host's start,
// which starts the replayed session; Connect is for a log that does not.
func (b *boardReplayer) Connect(_ string, now time.Duration) { b.emit(b.r.Connect(now), 0) }

// Disconnect implements [board.Replayer].
func (b *boardReplayer) Disconnect(now time.Duration) { b.emit(b.r.Disconnect(now), 0) }

// Feed implements [board.Replayer].
func (b *boardReplayer) Feed(rec board.Record) {
	seq := recordSeq(b.cfg, rec)
	if rec.Sent {
		b.stats.Sent++
	} else {
		b.stats.Frames++
	}
	b.emit(b.r.Chunk(rec.Host, rec.Sent, rec.Data), seq)
}

// Next implements [board.Replayer].
func (b *boardReplayer) Next() time.Duration { return b.r.Next() }

// Tick implements [board.Replayer].
func (b *boardReplayer) Tick(now time.Duration) { b.emit(b.r.Tick(now), 0) }

// RequestState implements [board.Replayer]: the daemon's request for a
// DGT board's state is answered by the driver from the settled board,
// with no bytes on the wire ([Driver.Resync]); so is this one.
func (b *boardReplayer) RequestState(now time.Duration) {
	b.stats.Requests++
	b.emit(b.r.Resync(now), 0)
}

// Info implements [board.Replayer].
func (b *boardReplayer) Info() *board.Info { return b.info }

// Handshake implements [board.Replayer]: the host starting the
// conversation.
func (b *boardReplayer) Handshake(rec board.Record) bool {
	return dgt.IsStart(dgt.Chunk{Host: rec.Host, Sent: rec.Sent, Data: rec.Data})
}

// Assume implements [board.Replayer]: a log cut after the board told its
// serial number goes on as the board info.ID, its session started just
// before the first record.
func (b *boardReplayer) Assume(info board.Info, first board.Record) error {
	serial, ok := strings.CutPrefix(info.ID, IDPrefix)
	if !ok || serial == "" {
		return errors.New("not a DGT board id: " + info.ID)
	}
	b.emit(b.r.Connect(first.Host), 0)
	b.emit(b.r.translate([]dgt.Event{{Kind: dgt.EventIdentified, Serial: serial, At: first.Host}}), 0)
	return nil
}

// Stats implements [board.Replayer].
func (b *boardReplayer) Stats() board.ReplayStats {
	return b.stats
}

// recordSeq returns the raw number that stamps the events of rec: the one
// cfg.Unit gives the record, or the record's own.
func recordSeq(cfg board.ReplayConfig, rec board.Record) uint64 {
	if cfg.Unit != nil {
		if s := cfg.Unit(rec.Data, rec.Host, nil); s != 0 {
			return s
		}
	}
	return rec.Seq
}
