package board

import "arbiter/rules"

// MaxHeight is the highest stack an event or a snapshot carries exactly;
// a higher stack is reported as MaxHeight and saturated.
const MaxHeight = 0x7F

// SquareState is one square of a [Snapshot].
type SquareState struct {
	Height    uint8
	Saturated bool // the true height is at least Height
	Top       Ident
}

// ZoneState is one zone in a [Snapshot].
type ZoneState struct {
	Count     int
	Saturated bool
	Pieces    []rules.Piece // identified pieces; nil on count-only boards
}

// Snapshot is a board's complete state, from a dump or a full board read:
// the squares in the board's sensor order, the zones in the board's order.
type Snapshot struct {
	// Token answers the host's request for it, where the protocol numbers
	// requests (0 otherwise).
	Token   uint16
	Squares []SquareState
	Zones   []ZoneState
	Buttons []ButtonState
}

// Heights returns every square's height, in square order.
func (s *Snapshot) Heights() []int {
	h := make([]int, len(s.Squares))
	for i, q := range s.Squares {
		h[i] = int(q.Height)
	}
	return h
}
