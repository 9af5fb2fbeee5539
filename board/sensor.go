package board

import "arbiter/rules"

// Sensor describes what a board's sensors can see: its capabilities and
// the highest stack it counts exactly. Simulators reduce their pieces with
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
