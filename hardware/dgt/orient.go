package dgt

import (
	"fmt"
	"time"

	"arbiter/hardware/eboard"
	"arbiter/rules"
)

// Orientation says how a board lies in front of the players: Normal is
// White with the connector on the left (field 0 is a8), Rotated is Black
// at the connector side (field 0 is h1). It is the orientation every
// e-board that reports whole positions shares (hardware/eboard).
type Orientation = eboard.Orientation

// Orientations.
const (
	Undecided = eboard.Undecided
	Normal    = eboard.Normal
	Rotated   = eboard.Rotated
)

// DetectOrientation reads the orientation from a full board as DGT hosts
// do: more than ten white pieces in one half and more than ten black ones
// in the other. It returns Undecided for any other board.
func DetectOrientation(p *Position) Orientation { return eboard.DetectOrientation((*[64]Piece)(p)) }

// Tracker is the board as the host has settled it ([eboard.Tracker]): it
// decides the orientation from the first full board that shows a set-up,
// maps fields onto chess squares, and turns each full-board read into the
// square changes since the previous one. It is pure and shared by
// [Session] and [Tournament].
type Tracker struct {
	eboard.Tracker[Piece]
}

// Settled returns the last settled board in DGT numbering, and false
// before the first.
func (t *Tracker) Settled() (Position, bool) { return t.Tracker.Settled() }

// Settle takes a full board read at instant at. The first read, and the
// read that decides the orientation, are reported whole (EventBoard);
// later ones as one EventSquare per changed square, the emptied squares
// first. It returns how many events it emitted.
func (t *Tracker) Settle(p *Position, at time.Duration, ev Event, emit func(Event)) int {
	whole, changed := t.Tracker.Settle((*[64]Piece)(p), nil)
	o := t.Orientation()
	ev.At = at
	if whole {
		b := ev
		b.Kind = EventBoard
		b.Orientation = o
		b.Pieces, b.Codes = p.Chess(o)
		emit(b)
		return 1
	}
	for _, f := range changed {
		q := p[f]
		s := ev
		s.Kind = EventSquare
		s.Square = o.Square(f)
		s.Code = q
		s.Piece, s.Occupied = q.Rules()
		emit(s)
	}
	return len(changed)
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
