package dgt

import (
	"fmt"
	"time"

	"arbiter/rules"
)

// Orientation says how a board lies in front of the players.
type Orientation uint8

// Orientations.
const (
	// Undecided: no full board has shown a set-up yet; squares are mapped
	// as Normal meanwhile.
	Undecided Orientation = iota
	// Normal: White sits with the connector on the left; field 0 is a8.
	Normal
	// Rotated: Black sits at the connector side; field 0 is h1.
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

// DetectOrientation reads the orientation from a full board as DGT hosts
// do: more than ten white pieces in one half and more than ten black ones
// in the other. It returns Undecided for any other board.
func DetectOrientation(p *Position) Orientation {
	var wTop, bTop, wBottom, bBottom int
	for i, q := range p {
		top := i < 32
		switch {
		case q.White() && top:
			wTop++
		case q.White():
			wBottom++
		case q.Black() && top:
			bTop++
		case q.Black():
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

// Square returns the chess square (a1 = 0) of DGT field f.
func (o Orientation) Square(f int) rules.Square {
	if o == Rotated {
		f = 63 - f
	}
	return rules.Square((7-f/8)*8 + f%8)
}

// Field returns the DGT field of chess square sq: the inverse of Square.
func (o Orientation) Field(sq rules.Square) int {
	f := (7-int(sq)/8)*8 + int(sq)%8
	if o == Rotated {
		f = 63 - f
	}
	return f
}

// Tracker is the board as the host has settled it: it decides the
// orientation from the first full board that shows a set-up, maps fields
// onto chess squares, and turns each full-board read into the square
// changes since the previous one. It is pure and shared by [Session] and
// [Tournament].
type Tracker struct {
	// Fixed, if not Undecided, is the orientation to use whatever the
	// board shows (the configuration says so).
	Fixed Orientation

	orient  Orientation
	settled Position
	have    bool
}

// Orientation returns the orientation in use (Undecided until decided).
func (t *Tracker) Orientation() Orientation {
	if t.Fixed != Undecided {
		return t.Fixed
	}
	return t.orient
}

// Settled returns the last settled board in DGT numbering, and false
// before the first.
func (t *Tracker) Settled() (Position, bool) { return t.settled, t.have }

// Forget makes the next [Tracker.Settle] report the whole board (after the
// link came back: what happened meanwhile is unknown). The orientation is
// kept.
func (t *Tracker) Forget() { t.have = false }

// Settle takes a full board read at instant at. The first read, and the
// read that decides the orientation, are reported whole (EventBoard);
// later ones as one EventSquare per changed square, the emptied squares
// first. It returns how many events it emitted.
func (t *Tracker) Settle(p *Position, at time.Duration, ev Event, emit func(Event)) int {
	whole := !t.have
	if t.Fixed == Undecided && t.orient == Undecided {
		if o := DetectOrientation(p); o != Undecided {
			t.orient = o
			whole = true
		}
	}
	o := t.Orientation()
	old := t.settled
	t.settled, t.have = *p, true
	ev.At = at
	if whole {
		b := ev
		b.Kind = EventBoard
		b.Orientation = o
		b.Pieces, b.Codes = p.Chess(o)
		emit(b)
		return 1
	}
	n := 0
	for pass := range 2 {
		for f, q := range p {
			if q == old[f] || (pass == 0) != (q == Empty) {
				continue
			}
			s := ev
			s.Kind = EventSquare
			s.Square = o.Square(f)
			s.Code = q
			s.Piece, s.Occupied = q.Rules()
			emit(s)
			n++
		}
	}
	return n
}

// Chess returns the position by chess square (a1 = 0) for a board lying
// in orientation o: the rules pieces (zero where empty) and the DGT codes.
func (p *Position) Chess(o Orientation) (pieces []rules.Piece, codes []Piece) {
	pieces, codes = make([]rules.Piece, 64), make([]Piece, 64)
	for f, q := range p {
		sq := o.Square(f)
		codes[sq] = q
		pieces[sq], _ = q.Rules()
	}
	return pieces, codes
}

// Diff describes how two boards differ, for messages: "e2 P->., e4 .->P".
func Diff(a, b *Position, o Orientation) string {
	s := ""
	for f := range a {
		if a[f] != b[f] {
			if s != "" {
				s += ", "
			}
			s += fmt.Sprintf("%s %s->%s", chessName(o.Square(f)), a[f], b[f])
		}
	}
	return s
}
