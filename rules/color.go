package rules

// Color is a side of the game. The two sides are named by their place in
// the standard start position: First is the side that moves first there
// (White in chess and Tavreli, sente in shogi, South in Kvaa) and Second is
// the other. A game whose first mover is chosen per game (Kvaa) still names
// its sides this way; [Position.Turn] says who is to move.
type Color uint8

const (
	First  Color = 0 // White, sente (Black in shogi terms), South
	Second Color = 1 // Black, gote (White in shogi terms), North
)

// Aliases for the chess family, where the first mover is White.
const (
	White = First
	Black = Second
)

// Other returns the opponent of c.
func (c Color) Other() Color { return c ^ 1 }

// String returns "first" or "second". Games name their sides with
// [Game.SideName].
func (c Color) String() string {
	switch c {
	case First:
		return "first"
	case Second:
		return "second"
	}
	return "invalid color"
}

// ParseColor is the inverse of [Color.String]: it reads "first" or
// "second".
func ParseColor(s string) (Color, bool) {
	for c := First; c <= Second; c++ {
		if c.String() == s {
			return c, true
		}
	}
	return 0, false
}

// Valid reports whether c is First or Second.
func (c Color) Valid() bool { return c <= Second }
