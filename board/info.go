package board

import (
	"fmt"

	"arbiter/rules"
)

// Info is who a board is and what it can do, as its driver learnt it at
// the handshake ([EventHello]).
type Info struct {
	ID       string // unique board identity, e.g. "TB-0042" or "DGT-12345"
	Firmware string
	// Protocol names the driver's protocol ([ProtocolSensorboard],
	// "dgt"): the raw log stores it with every record, and replays pick
	// their [Replayer] by it.
	Protocol  string
	Caps      Caps
	MaxHeight uint8 // highest stack the board counts exactly
	// Width and Height give the grid; Cells the number of sensed cells.
	// A rectangular board has Cells = Width*Height and an empty Graph.
	Width, Height uint8
	Cells         uint16
	Zones         []ZoneInfo
	Buttons       []ButtonInfo
	// Graph names a cell graph ("kvaa13") whose cells the board senses in
	// the game's square order; empty for a rectangular board.
	Graph string
	// Boot changes whenever the board powers up, where its protocol says
	// so (0 otherwise).
	Boot uint32
}

// ZoneInfo describes one off-board zone (tray) of a board.
type ZoneInfo struct {
	Kind  rules.ZoneKind
	Owner rules.Color
}

// Fits reports whether the board can play on geometry g: the same cells
// on the same grid, and the game's zones in the game's order if the board
// senses zones at all.
func (h *Info) Fits(g *rules.Geometry) error {
	if int(h.Cells) != g.Len() {
		return fmt.Errorf("board %s has %d cells, the game %d", h.ID, h.Cells, g.Len())
	}
	if int(h.Width) != g.Width() || int(h.Height) != g.Height() {
		return fmt.Errorf("board %s is a %dx%d grid, the game %dx%d", h.ID, h.Width, h.Height, g.Width(), g.Height())
	}
	if (h.Graph == "") != g.Rectangular() {
		return fmt.Errorf("board %s: graph %q does not suit the game's board", h.ID, h.Graph)
	}
	if len(h.Zones) == 0 {
		return nil // a board without trays plays any game
	}
	zs := g.Zones()
	if len(h.Zones) != len(zs) {
		return fmt.Errorf("board %s has %d zones, the game %d", h.ID, len(h.Zones), len(zs))
	}
	for i, z := range zs {
		if h.Zones[i].Kind != z.Kind || h.Zones[i].Owner != z.Owner {
			return fmt.Errorf("board %s zone %d is %s of %s, the game's is %s of %s", h.ID, i,
				h.Zones[i].Kind, h.Zones[i].Owner, z.Kind, z.Owner)
		}
	}
	return nil
}
