package board

import "arbiter/rules"

// Side names a player as a board does. The arbiter button belongs to
// nobody.
type Side uint8

// Sides.
const (
	SideFirst  Side = 0
	SideSecond Side = 1
	SideNone   Side = 0xFF
)

// Color returns the side as a rules colour, and false for SideNone.
func (s Side) Color() (rules.Color, bool) {
	switch s {
	case SideFirst:
		return rules.First, true
	case SideSecond:
		return rules.Second, true
	}
	return 0, false
}

// SideOf returns the board side of c.
func SideOf(c rules.Color) Side { return Side(c) }
