package emu

import (
	"math/rand/v2"
	"time"

	"arbiter/rules"
)

// Hands is a board as a person's hands meet it: squares to lift pieces
// from and put pieces on, by chess square.
type Hands interface {
	// LiftSquare lifts the piece on a chess square.
	LiftSquare(sq rules.Square)
	// PlaceSquare puts a chess piece on a chess square (replacing
	// whatever is there, as when a capturing piece pushes the captured
	// one off).
	PlaceSquare(sq rules.Square, p rules.Piece)
	// PieceAt returns the piece on a chess square, and false when it is
	// empty.
	PieceAt(sq rules.Square) (rules.Piece, bool)
	// Flush makes the board report what it held back (the firmware's next
	// scan).
	Flush()
}

// Player is a person moving chess pieces on a board.
type Player struct {
	Board Hands
	Rng   *rand.Rand
	// Step is the longest pause between two actions (default 4 ms).
	Step time.Duration
	// Slide is the chance that a piece slides across the squares between
	// its origin and its target, resting briefly on each.
	Slide float64
	// PushOff is the chance that a capturing piece is put straight onto
	// the captured one, pushing it off (the board never sees the target
	// empty).
	PushOff float64
	// LiftBack is the chance that the mover first lifts the piece to be
	// moved and puts it back on its square (a hesitation), then moves it.
	LiftBack float64
	// Carry: the hands carry the pieces themselves, so a piece is set
	// down only after it was taken up (a board that tells pieces apart,
	// as an RFID board does, sees the very piece move), and both pieces
	// of a castling are in the air together, whichever went up first (as
	// FIDE 4.4.2 wants it: a rook set down before the king is touched
	// binds the player to the rook); a promotion's new piece comes after
	// every lift. Without it a placement may come before the lift of the
	// piece it stands for, which a board that reports piece codes cannot
	// tell from the other order.
	Carry bool
	// Sleep waits between actions (default time.Sleep).
	Sleep func(time.Duration)
}

type op struct {
	lift bool
	sq   rules.Square
	p    rules.Piece
}

func (pl *Player) pause() {
	step := pl.Step
	if step <= 0 {
		step = 4 * time.Millisecond
	}
	d := time.Duration(pl.Rng.Int64N(int64(step) + 1))
	if pl.Sleep != nil {
		pl.Sleep(d)
	} else {
		time.Sleep(d)
	}
}

func top(v rules.View, sq rules.Square) (rules.Piece, bool) { return v.Top(sq) }

// Move makes the board go from view before to view after with a person's
// actions: every square that loses its piece is lifted and every square
// that gains one is set, in a random order that lifts a square before
// setting it (unless the piece is pushed off), so castling goes with
// either piece first and captures and en passant in either order; a
// promotion sets the new piece. A take-back is Move(after, before).
func (pl *Player) Move(before, after rules.View) {
	ops := changes(before, after)
	pl.Rng.Shuffle(len(ops), func(i, j int) { ops[i], ops[j] = ops[j], ops[i] })
	if pl.LiftBack > 0 && pl.Rng.Float64() < pl.LiftBack {
		pl.liftBack(before, after, ops)
	}
	mv := &moving{pl: pl, before: before, after: after, ops: ops, pushed: pl.pushedOff(before, ops),
		lifted: map[rules.Square]bool{}, held: map[rules.Piece]int{}}
	for _, o := range ops {
		switch {
		case o.lift && mv.pushed[o.sq]:
			continue
		case o.lift:
			mv.do(o)
			mv.release()
		case mv.waits(o):
			mv.deferred = append(mv.deferred, o)
		default:
			mv.do(o)
		}
	}
	for _, d := range mv.deferred {
		mv.do(d)
	}
	pl.Board.Flush()
}

// changes lists the lifts and placements that turn before into after:
// a lift of every square that loses its piece, a placement on every
// square that gains one.
func changes(before, after rules.View) []op {
	var ops []op
	for i := range before.Stacks {
		sq := rules.Square(i)
		bp, bok := top(before, sq)
		ap, aok := top(after, sq)
		if bok && (!aok || ap != bp) {
			ops = append(ops, op{lift: true, sq: sq})
		}
		if aok && (!bok || ap != bp) {
			ops = append(ops, op{sq: sq, p: ap})
		}
	}
	return ops
}

// pushedOff draws the squares whose piece a placement of ops pushes off
// (PushOff): a capture's victim that is never lifted.
func (pl *Player) pushedOff(before rules.View, ops []op) map[rules.Square]bool {
	pushed := map[rules.Square]bool{}
	for _, o := range ops {
		if bp, ok := top(before, o.sq); !o.lift && ok && bp.Color != o.p.Color && pl.Rng.Float64() < pl.PushOff {
			pushed[o.sq] = true
		}
	}
	return pushed
}

// moving is a Move under way: the squares lifted, the pieces in the
// hands (Carry) and the placements that wait.
type moving struct {
	pl            *Player
	before, after rules.View
	ops           []op
	pushed        map[rules.Square]bool
	lifted        map[rules.Square]bool
	held          map[rules.Piece]int // pieces in the hands (Carry)
	deferred      []op
}

// do lifts or places, and pauses.
func (mv *moving) do(o op) {
	if o.lift {
		mv.lifted[o.sq] = true
		if p, ok := top(mv.before, o.sq); ok {
			mv.held[p]++
		}
		mv.pl.Board.LiftSquare(o.sq)
	} else {
		mv.pl.slide(mv.before, o, mv.lifted)
		if mv.held[o.p] > 0 {
			mv.held[o.p]--
		}
		mv.pl.Board.PlaceSquare(o.sq, o.p)
	}
	mv.pl.pause()
}

// waits reports whether a placement must wait: for its square to be
// emptied, or (Carry) for its piece to be taken up.
func (mv *moving) waits(o op) bool {
	if !mv.pushed[o.sq] && !mv.lifted[o.sq] && mustLift(mv.before, mv.after, o.sq) {
		return true
	}
	pending := func(is func(rules.Piece) bool) bool {
		return mv.pl.liftPending(mv.ops, mv.before, mv.lifted, mv.pushed, is)
	}
	return mv.pl.Carry && (mv.held[o.p] == 0 && pending(func(p rules.Piece) bool { return p == o.p }) ||
		pending(func(p rules.Piece) bool { return p.Color == o.p.Color }))
}

// release makes the placements that waited for a lift and wait no more.
func (mv *moving) release() {
	for again := true; again; {
		again = false
		for i, d := range mv.deferred {
			if !mv.waits(d) {
				mv.deferred = append(mv.deferred[:i], mv.deferred[i+1:]...)
				mv.do(d)
				again = true
				break
			}
		}
	}
}

// liftPending reports whether a lift of a square holding a piece that is
// is still to come.
func (pl *Player) liftPending(ops []op, before rules.View, lifted, pushed map[rules.Square]bool, is func(rules.Piece) bool) bool {
	for _, o := range ops {
		if bp, ok := top(before, o.sq); o.lift && ok && is(bp) && !lifted[o.sq] && !pushed[o.sq] {
			return true
		}
	}
	return false
}

// liftBack lifts the piece the mover moves (the king of a castling, the
// first of the mover's pieces to leave its square otherwise) and puts it
// back.
func (pl *Player) liftBack(before, after rules.View, ops []op) {
	pick := -1
	for i, o := range ops {
		bp, ok := top(before, o.sq)
		if !o.lift || !ok {
			continue
		}
		if ap, aok := top(after, o.sq); aok && ap.Color != bp.Color {
			continue // a captured piece: the mover's is the other one
		}
		if !moverOwns(before, after, bp.Color) {
			continue
		}
		if pick < 0 || bp.Kind == 'K' {
			pick = i
		}
	}
	if pick < 0 {
		return
	}
	sq := ops[pick].sq
	bp, _ := top(before, sq)
	pl.Board.LiftSquare(sq)
	pl.pause()
	pl.Board.PlaceSquare(sq, bp)
	pl.pause()
}

// moverOwns reports whether pieces of colour c arrive somewhere in the
// move from before to after: c is the mover's.
func moverOwns(before, after rules.View, c rules.Color) bool {
	for i := range after.Stacks {
		sq := rules.Square(i)
		ap, aok := top(after, sq)
		bp, bok := top(before, sq)
		if aok && ap.Color == c && (!bok || bp != ap) {
			return true
		}
	}
	return false
}

// mustLift reports whether sq holds a piece before that must leave first.
func mustLift(before, after rules.View, sq rules.Square) bool {
	bp, ok := top(before, sq)
	ap, _ := top(after, sq)
	return ok && bp != ap
}

// slide moves the piece for o across the empty squares on the line from
// its origin, if it left one in a straight line and the dice say so.
func (pl *Player) slide(before rules.View, o op, lifted map[rules.Square]bool) {
	if pl.Rng.Float64() >= pl.Slide {
		return
	}
	for from := range lifted {
		if bp, _ := top(before, from); bp != o.p {
			continue
		}
		fx, fy := int(from%8), int(from/8)
		tx, ty := int(o.sq%8), int(o.sq/8)
		dx, dy := sign(tx-fx), sign(ty-fy)
		if (tx-fx != 0 && ty-fy != 0 && abs(tx-fx) != abs(ty-fy)) || (dx == 0 && dy == 0) {
			continue
		}
		for x, y := fx+dx, fy+dy; x != tx || y != ty; x, y = x+dx, y+dy {
			sq := rules.Square(y*8 + x)
			if _, occupied := pl.Board.PieceAt(sq); occupied {
				return
			}
			pl.Board.PlaceSquare(sq, o.p)
			pl.pause()
			pl.Board.LiftSquare(sq)
		}
		return
	}
}

func sign(x int) int {
	switch {
	case x > 0:
		return 1
	case x < 0:
		return -1
	}
	return 0
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}
