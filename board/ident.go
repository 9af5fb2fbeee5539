package board

import "arbiter/rules"

// Ident is the identity of a piece as a board senses it. Known is false
// when the board cannot identify pieces or the square is empty; Piece then
// is zero. Which fields of Piece are meaningful depends on the board's
// capabilities (a board may sense kind but not colour).
type Ident struct {
	Known bool
	Piece rules.Piece
}

// String returns the piece, or "?" when unknown.
func (id Ident) String() string {
	if !id.Known {
		return "?"
	}
	return id.Piece.String()
}
