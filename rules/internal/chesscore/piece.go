package chesscore

import "arbiter/rules"

// Kind is a piece kind: Pawn to Monster, or NoKind.
type Kind uint8

// The piece kinds. Monster is Tensor chess's piece.
const (
	NoKind Kind = iota
	Pawn
	Knight
	Bishop
	Rook
	Queen
	King
	Monster
)

// kindLetters maps a kind to its upper-case letter.
const kindLetters = " PNBRQKT"

// Letter returns the kind's upper-case letter ('P', 'N', ..., 'T').
func (k Kind) Letter() byte {
	if k > Monster {
		return '?'
	}
	return kindLetters[k]
}

// KindOf returns the kind with upper-case letter c.
func KindOf(c byte) (Kind, bool) {
	for k := Pawn; k <= Monster; k++ {
		if kindLetters[k] == c {
			return k, true
		}
	}
	return NoKind, false
}

// Piece is the content of a mailbox cell: Empty, Wall, or a kind with a
// colour bit.
type Piece uint8

// Cell contents that are not pieces.
const (
	Empty Piece = 0
	Wall  Piece = 0x10
)

// MakePiece returns the piece of colour c and kind k.
func MakePiece(c rules.Color, k Kind) Piece { return Piece(k) | Piece(c)<<3 }

// Kind returns the piece's kind.
func (p Piece) Kind() Kind { return Kind(p & 7) }

// Color returns the piece's colour.
func (p Piece) Color() rules.Color { return rules.Color(p >> 3 & 1) }

// IsPiece reports whether p is a piece (neither empty nor a wall).
func (p Piece) IsPiece() bool { return p != Empty && p != Wall }

// FENLetter returns the piece's FEN letter: upper case for White.
func (p Piece) FENLetter() byte {
	c := p.Kind().Letter()
	if p.Color() == rules.Black {
		c += 'a' - 'A'
	}
	return c
}

// Classification tables, indexed by mover colour and cell content, so the
// generator's hot loops test a cell with one load.
var (
	// enemyOrdinary[c][p]: p is a piece of c's opponent other than a monster.
	enemyOrdinary [2][256]bool
	// landable[c][p]: an ordinary piece of c may move to a cell holding p
	// (empty, or an enemy ordinary piece to capture).
	landable [2][256]bool
)

func init() {
	for c := rules.White; c <= rules.Black; c++ {
		landable[c][Empty] = true
		for k := Pawn; k <= King; k++ {
			p := MakePiece(c.Other(), k)
			enemyOrdinary[c][p] = true
			landable[c][p] = true
		}
	}
}
