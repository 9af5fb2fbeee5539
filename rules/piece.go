package rules

import "strings"

// Kind is a game's code for a kind of piece, written as an upper-case ASCII
// letter ('K', 'P', 'T', ...). Each game documents its letters.
type Kind byte

// Face says which side of a physical piece is up.
type Face uint8

const (
	// Front is the normal face (a shogi piece's unpromoted side).
	Front Face = 0
	// Back is the reverse face (a shogi piece turned over to promote).
	Back Face = 1
)

// Piece is the identity of one piece as a sensor board could see it:
// colour, kind, the mark printed on it and the face that is up.
//
// In a [View] a Piece describes the physical piece, not its role in the
// game: a promoted Tavreli Ratnik is still a Ratnik (Kind 'P') with its mark,
// because promotion changes nothing physical; a promoted shogi piece is the
// same kind with its Back face up. Games keep roles in their own positions.
type Piece struct {
	Color Color
	Kind  Kind
	// Mark is an identity printed on the piece beyond its kind: the piece a
	// Tavreli Ratnik promotes into. Zero when the piece has none.
	Mark Kind
	Face Face
}

// String writes the piece in a compact form: the kind letter, upper case
// for First and lower case for Second, then "(mark)" and "+" for the Back
// face, e.g. "P(H)" or "s+".
func (p Piece) String() string {
	var b strings.Builder
	k := byte(p.Kind)
	if p.Color == Second && k >= 'A' && k <= 'Z' {
		k += 'a' - 'A'
	}
	b.WriteByte(k)
	if p.Mark != 0 {
		b.WriteByte('(')
		b.WriteByte(byte(p.Mark))
		b.WriteByte(')')
	}
	if p.Face == Back {
		b.WriteByte('+')
	}
	return b.String()
}

// Less orders pieces by colour, kind, mark and face: the canonical order of
// a zone's contents.
func (p Piece) Less(q Piece) bool {
	if p.Color != q.Color {
		return p.Color < q.Color
	}
	if p.Kind != q.Kind {
		return p.Kind < q.Kind
	}
	if p.Mark != q.Mark {
		return p.Mark < q.Mark
	}
	return p.Face < q.Face
}
