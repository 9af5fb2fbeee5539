package sensorboard

import (
	"fmt"

	"arbiter/rules"
)

// Sensor describes what a board's sensors can see: its capabilities and
// the highest stack it counts exactly. The simulator reduces its pieces with
// it to know what to report, and the host (arbiter.CapsOf) to know what to
// expect.
type Sensor struct {
	Caps      Caps
	MaxHeight int // default 31
}

// Square returns what the sensors report for a stack (bottom first).
func (s Sensor) Square(stack []rules.Piece) SquareState {
	max := s.MaxHeight
	if max <= 0 {
		max = 31
	}
	max = min(max, MaxHeight)
	var st SquareState
	h := len(stack)
	if !s.Caps.Has(CapHeight) && h > 1 {
		h = 1
	}
	if h > max {
		h, st.Saturated = max, true
	}
	st.Height = uint8(h)
	if len(stack) > 0 {
		st.Top = s.Identify(stack[len(stack)-1])
	}
	return st
}

// Identify returns what the sensors make of a top piece: nothing without
// CapIdentity, and only the colour and face the board can sense.
func (s Sensor) Identify(p rules.Piece) Ident {
	if !s.Caps.Has(CapIdentity) {
		return Ident{}
	}
	q := rules.Piece{Kind: p.Kind, Mark: p.Mark}
	if s.Caps.Has(CapColor) {
		q.Color = p.Color
	}
	if s.Caps.Has(CapFace) {
		q.Face = p.Face
	}
	return Ident{Known: true, Piece: q}
}

// View returns what the sensors report for every square of v, on a board
// of geometry g: in the board's sensor order, as a dump sends them.
func (s Sensor) View(g *rules.Geometry, v rules.View) []SquareState {
	out := make([]SquareState, len(v.Stacks))
	for i := range out {
		out[i] = s.Square(v.Stacks[g.SensorSquare(i)])
	}
	return out
}

// Fits reports whether a board with this handshake can play on geometry g:
// the same cells on the same grid, and the game's zones in the game's
// order if the board senses zones at all.
func (h *Hello) Fits(g *rules.Geometry) error {
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
