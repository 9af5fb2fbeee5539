package main

import (
	"context"
	"log/slog"
	"time"

	"arbiter/board"
	"arbiter/director"
	"arbiter/hardware/dgt/driver"
	"arbiter/internal/config"
	"arbiter/store"
)

// busLine returns the bus line of a boards.ports[] entry with protocol
// dgt-bus (its addresses are checked by the configuration).
func busLine(p config.Port) driver.Line {
	l := driver.Line{Path: p.Path, Glob: p.Glob}
	for _, a := range p.Addresses {
		l.Addresses = append(l.Addresses, uint16(a))
	}
	return l
}

// startDGTBus returns the driver of the DGT bus lines (boards.ports[]
// with protocol dgt-bus), tuned by boards.dgt, feeding d and writing each
// board's part of the bus conversation to raw under the board's id
// (protocol dgt-bus; nil: no raw log), or nil when there is none.
func startDGTBus(ctx context.Context, lines []driver.Line, boards config.Boards, d *director.Director, raw *store.RawLog, log *slog.Logger) (*driver.Bus, error) {
	if len(lines) == 0 {
		return nil, nil
	}
	return driver.NewBus(driver.BusConfig{
		Lines:      lines,
		Scan:       boards.Scan,
		Poll:       boards.DGT.BusPoll,
		WhiteRight: boards.DGT.WhiteRight,
		Now:        d.Now,
		Handler:    func(e board.Event) { d.BoardEvent(ctx, e) },
		Raw:        rawFrames(raw, driver.BusProtocol, log),
		Logger:     log,
	})
}

// rawFrames returns a driver's raw-log callback that appends each record
// to raw as a frame of protocol, or nil without a raw log.
func rawFrames(raw *store.RawLog, protocol string, log *slog.Logger) func(string, board.Record) {
	if raw == nil {
		return nil
	}
	return func(id string, r board.Record) {
		f := store.Frame{BoardID: id, HostNs: int64(r.Host), Wall: time.Now(), Data: r.Data, Protocol: protocol, Sent: r.Sent}
		if _, err := raw.AppendFrame(f); err != nil {
			log.Error("raw log", "board", id, "err", err)
		}
	}
}
