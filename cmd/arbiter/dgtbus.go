package main

import (
	"context"
	"log/slog"

	"arbiter/board"
	"arbiter/director"
	"arbiter/hardware/dgt/driver"
	"arbiter/internal/config"
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
// with protocol dgt-bus), tuned by boards.dgt, feeding d, or nil when
// there is none. The bytes of a bus line are not written to the raw log:
// they belong to a line, not to one board.
func startDGTBus(ctx context.Context, lines []driver.Line, boards config.Boards, d *director.Director, log *slog.Logger) (*driver.Bus, error) {
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
		Logger:     log,
	})
}

// busSenders sends to the boards of the DGT bus lines through their
// driver, and to every other board through next.
type busSenders struct {
	bus  *driver.Bus
	next director.Sender
}

func (s busSenders) pick(id string) director.Sender {
	if s.bus != nil && s.bus.Owns(id) {
		return s.bus
	}
	return s.next
}

// Show implements board.Display.
func (s busSenders) Show(id string, m board.Message) error { return s.pick(id).Show(id, m) }

// Resync implements board.Display.
func (s busSenders) Resync(id string) error { return s.pick(id).Resync(id) }

// Recall implements board.Recaller, for the boards whose driver does.
func (s busSenders) Recall(id string) error { return recall(s.pick(id), id) }
