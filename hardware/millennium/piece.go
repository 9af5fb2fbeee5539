package millennium

import (
	"arbiter/rules"
)

// Piece is what a ChessLink board reports on a square: the piece's FEN
// letter (K Q R B N P white, k q r b n p black), or 0 for an empty square
// (a '.' in the status).
type Piece byte

// pieceOf reads a status character.
func pieceOf(c byte) (Piece, bool) {
	switch c {
	case '.':
		return 0, true
	case 'K', 'Q', 'R', 'B', 'N', 'P', 'k', 'q', 'r', 'b', 'n', 'p':
		return Piece(c), true
	}
	return 0, false
}

// Letter returns the status character of p.
func (p Piece) Letter() byte {
	if p == 0 {
		return '.'
	}
	return byte(p)
}

// Rules returns the piece as rules/chess views it, and false for an empty
// square.
func (p Piece) Rules() (rules.Piece, bool) {
	switch {
	case p >= 'A' && p <= 'Z':
		return rules.Piece{Color: rules.White, Kind: rules.Kind(p)}, true
	case p >= 'a' && p <= 'z':
		return rules.Piece{Color: rules.Black, Kind: rules.Kind(p - 'a' + 'A')}, true
	}
	return rules.Piece{}, false
}

// PieceOf returns the letter of a chess piece.
func PieceOf(p rules.Piece) Piece {
	if p.Kind == 0 {
		return 0
	}
	if p.Color == rules.Black {
		return Piece(p.Kind - 'A' + 'a')
	}
	return Piece(p.Kind)
}

// Status is a board status: the 64 squares in the board's own order, a8
// b8 ... h8, a7 ... h1 as the protocol document numbers them (a board
// that reports h1 first reads as one turned round: see
// [eboard.Orientation]).
type Status [64]Piece

// ParseStatus reads the data of an 's' message.
func ParseStatus(data string) (Status, bool) {
	var s Status
	if len(data) != 64 {
		return s, false
	}
	for i := range 64 {
		p, ok := pieceOf(data[i])
		if !ok {
			return s, false
		}
		s[i] = p
	}
	return s, true
}

// String writes the status as the protocol sends it.
func (s *Status) String() string {
	b := make([]byte, 64)
	for i, p := range s {
		b[i] = p.Letter()
	}
	return string(b)
}
