package tavreli

import (
	"fmt"

	"arbiter/rules"
)

// Array is the back-rank order of the initial position, file a to h, the
// same for both colours. The Ratnik in front of each piece carries that
// piece's mark, except that the one in front of the Volkhv carries the
// Helgi mark (src §2.5).
type Array [8]Role

// DefaultArray is DECISION D1: the chess order R N B Q K B N R. The source
// text lost its diagram of the initial position; the castling rules fix
// only the Ratobortsy and the Volkhv.
var DefaultArray = Array{Ratoborets, Vsadnik, Luchnik, Knyaz, Volkhv, Luchnik, Vsadnik, Ratoborets}

// ParseArray reads an array written as eight code letters ("RNBQKBNR").
// The Ratobortsy must stand on a and h and the Volkhv on e, as castling
// requires (spec 1.5); the other five squares hold Q, B, B, N and N.
func ParseArray(s string) (Array, error) {
	var a Array
	if len(s) != 8 {
		return a, fmt.Errorf("initial array %q: want 8 piece letters", s)
	}
	var n [8]int
	for i := range 8 {
		r := roleOfLetter(s[i])
		if r == NoRole || r == Ratnik || r == Helgi {
			return a, fmt.Errorf("initial array %q: character %d %q is not one of K Q R B N", s, i+1, s[i])
		}
		a[i] = r
		n[r]++
	}
	if a[0] != Ratoborets || a[7] != Ratoborets || a[4] != Volkhv {
		return a, fmt.Errorf("initial array %q: the Ratobortsy must stand on a and h and the Volkhv on e", s)
	}
	if n[Knyaz] != 1 || n[Luchnik] != 2 || n[Vsadnik] != 2 {
		return a, fmt.Errorf("initial array %q: want one Q, two B and two N", s)
	}
	return a, nil
}

// String writes the array as eight letters.
func (a Array) String() string {
	var s [8]byte
	for i, r := range a {
		s[i] = r.Letter()
	}
	return string(s[:])
}

// Mark returns the mark of the Ratnik that starts on file f (0 = a).
func (a Array) Mark(f int) Role {
	if a[f] == Volkhv {
		return Helgi
	}
	return a[f]
}

// Start returns the initial position of the array.
func (a Array) Start() Board {
	var b Board
	for f := range 8 {
		for _, c := range []rules.Color{rules.First, rules.Second} {
			back, front := 0, 1
			if c == rules.Second {
				back, front = 7, 6
			}
			// Errors are impossible: 32 pieces fit.
			_ = b.push(sqOf(f, back), Piece{Color: c, Role: a[f]})
			_ = b.push(sqOf(f, front), Piece{Color: c, Role: Ratnik, Mark: a.Mark(f)})
		}
	}
	b.side = rules.First
	b.castle = CastleWhiteShort | CastleWhiteLong | CastleBlackShort | CastleBlackLong
	b.ep = noSquare
	b.dstep = 0xffff
	b.full = 1
	b.finish()
	return b
}

// StartBoard returns the initial position with the default array (D1).
func StartBoard() Board { return DefaultArray.Start() }
