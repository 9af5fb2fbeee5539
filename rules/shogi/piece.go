package shogi

import "arbiter/rules"

// PieceType is a kind of shogi piece, promoted forms included. The six
// promotable types are 1 to 6; a promoted type is the base type plus
// [Promoted]. Gold and King never promote.
type PieceType uint8

// The piece types.
const (
	NoPieceType PieceType = iota
	Pawn
	Lance
	Knight
	Silver
	Bishop
	Rook
	Gold
	King
	Tokin          // promoted pawn (+P)
	PromotedLance  // +L
	PromotedKnight // +N
	PromotedSilver // +S
	Horse          // promoted bishop (+B)
	Dragon         // promoted rook (+R)
)

// Promoted is added to a promotable base type to get its promoted form.
const Promoted PieceType = 8

// handTypes lists the seven droppable types in the SFEN writing order
// (R, B, G, S, N, L, P).
var handTypes = [7]PieceType{Rook, Bishop, Gold, Silver, Knight, Lance, Pawn}

// HandTypes returns the seven droppable types in the order records write
// hands: R, B, G, S, N, L, P.
func HandTypes() [7]PieceType { return handTypes }

// SetCount returns how many pieces of t's base type a full set has
// (both sides, promoted forms included).
func (t PieceType) SetCount() int {
	if !t.Valid() {
		return 0
	}
	return maxCount[t.Base()]
}

// sfenLetters maps base types to their SFEN letters.
var sfenLetters = [...]byte{Pawn: 'P', Lance: 'L', Knight: 'N', Silver: 'S', Bishop: 'B', Rook: 'R', Gold: 'G', King: 'K'}

// Promotable reports whether t can promote.
func (t PieceType) Promotable() bool { return t >= Pawn && t <= Rook }

// IsPromoted reports whether t is a promoted form.
func (t PieceType) IsPromoted() bool { return t >= Tokin && t <= Dragon }

// Base returns the unpromoted form of t.
func (t PieceType) Base() PieceType {
	if t.IsPromoted() {
		return t - Promoted
	}
	return t
}

// Promote returns the promoted form of a promotable t, and t otherwise.
func (t PieceType) Promote() PieceType {
	if t.Promotable() {
		return t + Promoted
	}
	return t
}

// Valid reports whether t is a real piece type.
func (t PieceType) Valid() bool { return t >= Pawn && t <= Dragon }

// Letter returns the SFEN letter of t's base type, upper case.
func (t PieceType) Letter() byte {
	if !t.Valid() {
		return '?'
	}
	return sfenLetters[t.Base()]
}

// String returns the SFEN form of t for Black: "P", "+R".
func (t PieceType) String() string {
	if !t.Valid() {
		return "?"
	}
	if t.IsPromoted() {
		return "+" + string(t.Letter())
	}
	return string(t.Letter())
}

// Points returns the jishogi value of t: 5 for rooks and bishops in either
// form, 0 for the king, 1 for every other piece.
func (t PieceType) Points() int {
	switch t.Base() {
	case Rook, Bishop:
		return 5
	case King, NoPieceType:
		return 0
	}
	return 1
}

// typeOfLetter maps an upper-case SFEN letter to its base type.
func typeOfLetter(c byte) PieceType {
	switch c {
	case 'P':
		return Pawn
	case 'L':
		return Lance
	case 'N':
		return Knight
	case 'S':
		return Silver
	case 'B':
		return Bishop
	case 'R':
		return Rook
	case 'G':
		return Gold
	case 'K':
		return King
	}
	return NoPieceType
}

// Piece is a piece on the board: a type and an owner. The zero Piece is an
// empty square. Black's pieces are the types themselves; White's have
// [WhiteBit] set.
type Piece uint8

// WhiteBit marks a White (gote) piece.
const WhiteBit Piece = 16

// wall marks the padding around the board in [Board]'s mailbox.
const wall Piece = 64

// NoPiece is an empty square.
const NoPiece Piece = 0

// MakePiece returns the piece of type t owned by c.
func MakePiece(c rules.Color, t PieceType) Piece {
	return Piece(t) | Piece(c)<<4
}

// Type returns the piece's type.
func (p Piece) Type() PieceType { return PieceType(p & 15) }

// Color returns the piece's owner.
func (p Piece) Color() rules.Color { return rules.Color(p>>4) & 1 }

// String returns the SFEN form of p: "P", "+r".
func (p Piece) String() string {
	if p == NoPiece {
		return "."
	}
	s := []byte(p.Type().String())
	if p.Color() == rules.Second {
		s[len(s)-1] += 'a' - 'A'
	}
	return string(s)
}

// Physical returns the piece as a sensor board sees it: the base kind's
// letter, the logical owner and the face that is up.
func (p Piece) Physical() rules.Piece {
	face := rules.Front
	if p.Type().IsPromoted() {
		face = rules.Back
	}
	return rules.Piece{Color: p.Color(), Kind: rules.Kind(p.Type().Letter()), Face: face}
}
