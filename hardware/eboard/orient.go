package eboard

import (
	"arbiter/rules"
	"arbiter/rules/chess"
)

// Piece is what a board reports on one field: a protocol's own piece code
// (a DGT code, a ChessLink letter, a calibrated Certabo piece). Its zero
// value is an empty field.
type Piece interface {
	comparable
	// Rules returns the piece as rules/chess views it, and false for an
	// empty field or a code that is no chess piece; a field the board
	// senses occupied by a piece it could not identify is true with a
	// zero piece.
	Rules() (rules.Piece, bool)
}

// Orientation says how a board lies in front of the players.
type Orientation uint8

// Orientations.
const (
	// Undecided: no full board has shown a set-up yet; fields are mapped
	// as Normal meanwhile.
	Undecided Orientation = iota
	// Normal: the board lies as its maker labels it; field 0 is a8.
	Normal
	// Rotated: the board is turned round; field 0 is h1.
	Rotated
)

// String names the orientation.
func (o Orientation) String() string {
	switch o {
	case Normal:
		return "normal"
	case Rotated:
		return "rotated"
	}
	return "undecided"
}

// Square returns the chess square (a1 = 0) of field f.
func (o Orientation) Square(f int) rules.Square {
	if o == Rotated {
		f = 63 - f
	}
	return rules.Square((7-f/8)*8 + f%8)
}

// Field returns the field of chess square sq: the inverse of Square.
func (o Orientation) Field(sq rules.Square) int {
	f := (7-int(sq)/8)*8 + int(sq)%8
	if o == Rotated {
		f = 63 - f
	}
	return f
}

// DetectOrientation reads the orientation from a full board as DGT hosts
// (and picochess for the boards it drives) do: more than ten white pieces
// in one half and more than ten black ones in the other. It returns
// Undecided for any other board.
func DetectOrientation[P Piece](fields *[64]P) Orientation {
	var wTop, bTop, wBottom, bBottom int
	for i, q := range fields {
		p, ok := q.Rules()
		if !ok || p.Kind == 0 {
			continue
		}
		top := i < 32
		switch {
		case p.Color == rules.White && top:
			wTop++
		case p.Color == rules.White:
			wBottom++
		case top:
			bTop++
		default:
			bBottom++
		}
	}
	switch {
	case wBottom > 10 && bTop > 10:
		return Normal
	case wTop > 10 && bBottom > 10:
		return Rotated
	}
	return Undecided
}

// startView is the chess start position by square.
var startView = func() (v [64]rules.Piece) {
	s := chess.Start().View()
	for sq := range v {
		v[sq], _ = s.Top(rules.Square(sq))
	}
	return v
}()

// StartOrientation returns the orientation in which fields show the chess
// start position exactly, or Undecided when they show it in neither.
func StartOrientation[P Piece](fields *[64]P) Orientation {
	for _, o := range []Orientation{Normal, Rotated} {
		same := true
		for f, q := range fields {
			p, _ := q.Rules()
			if p != startView[o.Square(f)] {
				same = false
				break
			}
		}
		if same {
			return o
		}
	}
	return Undecided
}

// StartPiece returns the piece on chess square sq in the chess start
// position, and false for a square empty there.
func StartPiece(sq rules.Square) (rules.Piece, bool) {
	p := startView[sq]
	return p, p.Kind != 0
}
