package main

import (
	"context"
	"fmt"
	"log/slog"

	"arbiter/board"
	"arbiter/director"
	"arbiter/hardware/dgt"
	"arbiter/hardware/dgt/driver"
	"arbiter/internal/config"
	"arbiter/replay"
	"arbiter/store"
)

// startDGT returns the driver of the DGT boards on ports (boards.ports[]
// with protocol dgt), tuned by boards.dgt, feeding d and writing the bytes
// of every board to raw (nil: no raw log), or nil when no port speaks
// DGT.
func startDGT(ctx context.Context, ports driver.Config, boards config.Boards, d *director.Director, raw *store.RawLog, log *slog.Logger) (*driver.Driver, error) {
	if len(ports.Paths) == 0 && len(ports.Globs) == 0 {
		return nil, nil
	}
	ports.Scan = boards.Scan
	ports.Session = dgt.Config{Settle: boards.DGT.Settle, WhiteRight: boards.DGT.WhiteRight}
	ports.Now = d.Now
	ports.Logger = log
	ports.Handler = func(e board.Event) { d.BoardEvent(ctx, e) }
	ports.Raw = rawFrames(raw, driver.Protocol, log)
	return driver.New(ports)
}

// owner is a driver that knows which boards it met.
type owner interface {
	director.Sender
	Owns(board string) bool
}

// senders sends to each board through the driver that owns it (a DGT
// driver, single boards or bus lines, for the DGT boards it met), and to
// every other board through ours, our boards' driver.
type senders struct {
	owners []owner
	ours   director.Sender
}

// newSenders returns the senders of the drivers that run (nil ones are
// left out).
func newSenders(ours director.Sender, single *driver.Driver, bus *driver.Bus) senders {
	s := senders{ours: ours}
	if single != nil {
		s.owners = append(s.owners, single)
	}
	if bus != nil {
		s.owners = append(s.owners, bus)
	}
	return s
}

func (s senders) pick(board string) director.Sender {
	for _, o := range s.owners {
		if o.Owns(board) {
			return o
		}
	}
	return s.ours
}

// Show implements board.Display.
func (s senders) Show(id string, m board.Message) error { return s.pick(id).Show(id, m) }

// Resync implements board.Display.
func (s senders) Resync(id string) error { return s.pick(id).Resync(id) }

// Recall implements board.Recaller, for the boards whose driver does.
func (s senders) Recall(id string) error { return recall(s.pick(id), id) }

// recall asks the board's driver for its log, when it keeps one.
func recall(d director.Sender, id string) error {
	r, ok := d.(board.Recaller)
	if !ok {
		return fmt.Errorf("board %s: its driver reads no board's log", id)
	}
	return r.Recall(id)
}

// keepReplaySettings stores with the event how the DGT drivers read their
// boards (settle time, White's display, the bus's poll and timeouts), so
// that arbiter replay reads their raw logs alike (replay.SettingKey).
func keepReplaySettings(db *store.DB, single *driver.Driver, bus *driver.Bus) error {
	keep := func(protocol string, v []byte) error {
		if err := db.PutSetting(replay.SettingKey(protocol), v); err != nil {
			return fmt.Errorf("keep how %s boards are read: %w", protocol, err)
		}
		return nil
	}
	if single != nil {
		if err := keep(driver.Protocol, single.ReplaySetting()); err != nil {
			return err
		}
	}
	if bus != nil {
		return keep(driver.BusProtocol, bus.ReplaySetting())
	}
	return nil
}
