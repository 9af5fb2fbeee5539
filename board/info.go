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
// on the same grid, and, of the zones it senses, only the game's, in the
// game's order (ZoneMap).
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
	_, err := h.ZoneMap(g)
	return err
}

// ZoneMap returns, for each of the board's zones (trays) in its own
// numbering, the index of the same zone (kind and owner) in geometry g.
// A board may have only some of the game's zones, or none (a Kvaa board
// with its reserve trays only, a shogi board without piece stands), but
// lists those it has in the game's order, each once.
func (h *Info) ZoneMap(g *rules.Geometry) ([]int, error) {
	zs := g.Zones()
	out := make([]int, len(h.Zones))
	next := 0
	for i, z := range h.Zones {
		j := next
		for j < len(zs) && (zs[j].Kind != z.Kind || zs[j].Owner != z.Owner) {
			j++
		}
		if j == len(zs) {
			if k := g.Zone(z.Kind, z.Owner); k >= 0 {
				return nil, fmt.Errorf("board %s zone %d is %s of %s, out of the game's order of zones", h.ID, i, z.Kind, z.Owner)
			}
			return nil, fmt.Errorf("board %s zone %d is %s of %s, which the game does not have", h.ID, i, z.Kind, z.Owner)
		}
		out[i], next = j, j+1
	}
	return out, nil
}
