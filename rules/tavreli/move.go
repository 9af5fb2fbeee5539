package tavreli

import (
	"strconv"

	"arbiter/rules"
)

// MoveKind tells the special moves apart from the ordinary group moves.
type MoveKind uint8

// The kinds of move.
const (
	// GroupMove moves the top k pieces of a stack (a lone piece, a whole
	// tower or a split).
	GroupMove MoveKind = iota
	// EnPassant is a Ratnik group capturing a double-stepped Ratnik on the
	// square it crossed (2.5.4).
	EnPassant
	// CastleShort is 0-0: the Volkhv to the g-file, the h-Ratoborets to f.
	CastleShort
	// CastleLong is 0-0-0: the Volkhv to the c-file, the a-Ratoborets to d.
	CastleLong
)

// Move is a Tavreli move: the top n pieces of the origin go to the
// destination (spec 2.2: origin, destination, count), or a castling. It is
// a small comparable value and implements [rules.Move].
type Move struct {
	from, to int8
	n        uint8
	kind     MoveKind
}

// NewMove returns the group move of the top n pieces from one square to
// another. It is a move of no particular position: check it against
// [Board.GenerateLegal] or use [Position.Play], which does.
func NewMove(from, to rules.Square, n int, kind MoveKind) Move {
	return Move{from: int8(from), to: int8(to), n: uint8(n), kind: kind}
}

// From returns the origin square (the Volkhv's square for castling).
func (m Move) From() rules.Square { return rules.Square(m.from) }

// To returns the destination (the Volkhv's destination for castling).
func (m Move) To() rules.Square { return rules.Square(m.to) }

// Count returns k, the number of pieces taken from the top of the origin.
func (m Move) Count() int { return int(m.n) }

// Kind returns the kind of move.
func (m Move) Kind() MoveKind { return m.kind }

// IsZero reports whether m is the zero Move, which is no move.
func (m Move) IsZero() bool { return m == Move{} }

// String returns the canonical machine form, which does not depend on the
// position: origin and destination in Latin letters, preceded by the count
// in parentheses when more than one piece moves ("e2e4", "(2)d4d8").
// Castling is the Volkhv's two-square move ("e1g1"), which no other move
// can be. Two legal moves of a position never share a string.
func (m Move) String() string {
	return string(m.appendMachine(nil))
}

func (m Move) appendMachine(dst []byte) []byte {
	if m.n > 1 {
		dst = append(dst, '(')
		dst = strconv.AppendInt(dst, int64(m.n), 10)
		dst = append(dst, ')')
	}
	dst = appendSquare(dst, m.from)
	return appendSquare(dst, m.to)
}

// moveFromRules converts a rules.Move made by this package back.
func moveFromRules(m rules.Move) (Move, bool) {
	mv, ok := m.(Move)
	return mv, ok
}
