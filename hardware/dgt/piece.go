package dgt

import (
	"fmt"

	"arbiter/rules"
)

// Piece is a DGT piece code as a board reports it on a field.
type Piece byte

// Chess piece codes (dgtbrd.h).
const (
	Empty   Piece = 0x00
	WPawn   Piece = 0x01
	WRook   Piece = 0x02
	WKnight Piece = 0x03
	WBishop Piece = 0x04
	WKing   Piece = 0x05
	WQueen  Piece = 0x06
	BPawn   Piece = 0x07
	BRook   Piece = 0x08
	BKnight Piece = 0x09
	BBishop Piece = 0x0a
	BKing   Piece = 0x0b
	BQueen  Piece = 0x0c
	// The three "magic pieces": a draw, a White win, a Black win.
	MagicDraw     Piece = 0x0d
	MagicWhiteWin Piece = 0x0e
	MagicBlackWin Piece = 0x0f
)

const pieceLetters = ".PRNBKQprnbkq=10"

// Valid reports whether p is a code a chess board may report.
func (p Piece) Valid() bool { return p <= MagicBlackWin }

// String returns the piece as a FEN letter ('.' for empty, '=', '1', '0'
// for the magic pieces).
func (p Piece) String() string {
	if p.Valid() {
		return pieceLetters[p : p+1]
	}
	return fmt.Sprintf("piece(0x%02x)", byte(p))
}

// White reports whether p is a white chess piece.
func (p Piece) White() bool { return p >= WPawn && p <= WQueen }

// Black reports whether p is a black chess piece.
func (p Piece) Black() bool { return p >= BPawn && p <= BQueen }

var kindLetters = [...]rules.Kind{0, 'P', 'R', 'N', 'B', 'K', 'Q'}

// Rules returns the piece as rules/chess views it, and false for an empty
// field or a magic piece.
func (p Piece) Rules() (rules.Piece, bool) {
	switch {
	case p.White():
		return rules.Piece{Color: rules.White, Kind: kindLetters[p]}, true
	case p.Black():
		return rules.Piece{Color: rules.Black, Kind: kindLetters[p-6]}, true
	}
	return rules.Piece{}, false
}

// MustRules is Rules for a code known to be a chess piece; it panics
// otherwise (tests and emulators).
func (p Piece) MustRules() rules.Piece {
	rp, ok := p.Rules()
	if !ok {
		panic(fmt.Sprintf("dgt: %s is not a chess piece", p))
	}
	return rp
}

// PieceOf returns the DGT code of a chess piece, and false for a piece a
// chess set does not have.
func PieceOf(rp rules.Piece) (Piece, bool) {
	for i, k := range kindLetters {
		if i > 0 && k == rp.Kind {
			if rp.Color == rules.Black {
				return Piece(i + 6), true
			}
			return Piece(i), true
		}
	}
	return Empty, false
}

// Position is the 64 fields of a board in DGT numbering: field 0 is the
// square nearest the connector's far corner (a8 when White sits with the
// connector on the left), field 63 is h1 then.
type Position [64]Piece

// String writes the position as the piece-placement field of a FEN, in
// DGT field order.
func (p *Position) String() string {
	b := make([]byte, 0, 72)
	for r := range 8 {
		if r > 0 {
			b = append(b, '/')
		}
		gap := 0
		for f := range 8 {
			q := p[r*8+f]
			if q == Empty {
				gap++
				continue
			}
			if gap > 0 {
				b = append(b, byte('0'+gap))
				gap = 0
			}
			b = append(b, q.String()...)
		}
		if gap > 0 {
			b = append(b, byte('0'+gap))
		}
	}
	return string(b)
}

// StartPosition is the chess start position on a board set up the
// usual way, the connector on White's left: White's pieces on fields
// 48..63.
var StartPosition = func() Position {
	var p Position
	back := [8]Piece{WRook, WKnight, WBishop, WQueen, WKing, WBishop, WKnight, WRook}
	for f := range 8 {
		p[56+f] = back[f]
		p[48+f] = WPawn
		p[8+f] = BPawn
		p[f] = back[f] + 6
	}
	return p
}()
