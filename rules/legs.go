package rules

// Leg is one piece's path in a move as a player makes it: From is
// NoSquare for a piece brought onto the board (a Kvaa placement from
// reserve), To is NoSquare for a piece taken off it (a captured counter).
type Leg struct {
	From, To Square
}

// Legged is implemented by moves made of several pieces' paths that a
// board sensing occupancy cannot tell apart by the position they leave: a
// Kvaa turn of a placement and a step, whose two orders (@e3,d2-c3 and
// @c3,d2-e3) leave the same cells filled. Legs lists the paths in the
// order the rules give them; a reader pairs the board's events into
// paths to tell which turn was made (kvaa.md 7.3).
type Legged interface {
	Legs() []Leg
}
