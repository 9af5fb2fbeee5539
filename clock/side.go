package clock

import "fmt"

// Side names a player by move order, not colour: in chess White is First, in
// shogi sente (Black) is First.
type Side uint8

// The two sides of a clock.
const (
	First Side = iota
	Second
)

// Other returns the opponent of s.
func (s Side) Other() Side { return s ^ 1 }

// Valid reports whether s is First or Second.
func (s Side) Valid() bool { return s <= Second }

// String returns "first" or "second".
func (s Side) String() string {
	switch s {
	case First:
		return "first"
	case Second:
		return "second"
	}
	return fmt.Sprintf("Side(%d)", uint8(s))
}
