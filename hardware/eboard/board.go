package eboard

import (
	"errors"
	"time"

	"arbiter/board"
	"arbiter/rules"
)

// ErrNoBoard is what Resync answers before the first full board was read.
var ErrNoBoard = errors.New("no full board read yet")

// Board is what a session keeps of a board that reports whole positions:
// its [Tracker], and the board events a settled read makes.
type Board[P Piece] struct {
	Tracker[P]
	// Caps are what the board senses of a piece (board.Sensor.Identify).
	Caps board.Caps

	changed []int
}

// Take settles the read p (field order) at instant at and emits what it
// changed through emit: the whole board as a snapshot (the first read, or
// one that decided the orientation), or an EventSquare per changed square,
// emptied squares first. It returns how many events it emitted: 0 for a
// read that changed nothing.
func (b *Board[P]) Take(p *[64]P, at time.Duration, emit func(board.Event)) int {
	return b.TakeAt(p, at, at, emit)
}

// TakeAt is [Board.Take] for a read taken at instant host that shows what
// the board already showed at instant at (a read confirmed by a later
// one): its events are stamped with both.
func (b *Board[P]) TakeAt(p *[64]P, host, at time.Duration, emit func(board.Event)) int {
	whole, changed := b.Settle(p, b.changed[:0])
	b.changed = changed
	if whole {
		emit(b.snapshot(host))
		return 1
	}
	o := b.Orientation()
	for _, f := range changed {
		e := board.Event{Kind: board.EventSquare, Host: host, At: at, Mapped: at != host, Square: o.Square(f)}
		if piece, ok := p[f].Rules(); ok {
			e.Height, e.Top = 1, b.ident(piece)
		}
		emit(e)
	}
	return len(changed)
}

// Snapshot emits the settled board whole at instant at, or returns
// ErrNoBoard before the first read.
func (b *Board[P]) Snapshot(at time.Duration, emit func(board.Event)) error {
	if _, have := b.Settled(); !have {
		return ErrNoBoard
	}
	emit(b.snapshot(at))
	return nil
}

func (b *Board[P]) snapshot(at time.Duration) board.Event {
	p, _ := b.Settled()
	o := b.Orientation()
	s := &board.Snapshot{Squares: make([]board.SquareState, 64)}
	for f, q := range p {
		if piece, ok := q.Rules(); ok {
			s.Squares[o.Square(f)] = board.SquareState{Height: 1, Top: b.ident(piece)}
		}
	}
	return board.Event{Kind: board.EventSnapshot, Host: at, Snapshot: s}
}

// ident is what the board reports of a piece: nothing for a piece it
// could not identify.
func (b *Board[P]) ident(p rules.Piece) board.Ident {
	if p.Kind == 0 {
		return board.Ident{}
	}
	return board.Sensor{Caps: b.Caps}.Identify(p)
}
