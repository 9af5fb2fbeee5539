package chesscore

import "arbiter/rules"

// rookDest returns the rook's destination when the king castles from kf to
// kt: beside the king on the centre side.
func rookDest(kf, kt int) int {
	if kt > kf {
		return kt - 1
	}
	return kt + 1
}

// Make plays m, which must be a legal (or at least pseudo-legal) move of
// b, and returns what [Board.Unmake] needs to take it back.
func (b *Board) Make(m Move) Undo {
	c := b.cfg
	us := b.turn
	them := us.Other()
	from, to := int(m.From), int(m.To)
	p := b.cell[from]
	u := Undo{castle: b.castle, ep: b.ep, halfmove: b.halfmove}
	b.ep = 0
	b.halfmove++
	switch m.Kind {
	case Normal:
		u.captured = b.cell[to]
		b.cell[from] = Empty
		if m.Promo != NoKind {
			b.cell[to] = MakePiece(us, m.Promo)
			if m.Promo == Monster {
				b.monsters[us]++
			}
		} else {
			b.cell[to] = p
		}
		if u.captured != Empty {
			b.halfmove = 0
		}
		switch p.Kind() {
		case King:
			b.king[us] = uint8(to)
		case Pawn:
			b.halfmove = 0
			b.markDoubleStep(from, to, c.forward(us))
		}
	case EnPassant:
		capCell := to - c.forward(us)
		u.captured = b.cell[capCell]
		b.cell[capCell] = Empty
		b.cell[from] = Empty
		b.cell[to] = p
		b.halfmove = 0
	case Castle:
		rook := b.cell[m.Aux]
		b.cell[from] = Empty
		b.cell[m.Aux] = Empty
		b.cell[to] = p
		b.cell[rookDest(from, to)] = rook
		b.king[us] = uint8(to)
	case Push:
		mon := b.cell[to]
		b.cell[from] = Empty
		b.cell[to] = p
		b.cell[m.Aux] = mon
		if p.Kind() == Pawn {
			b.halfmove = 0
		}
	case MonsterCapture:
		u.captured = b.cell[m.Aux]
		b.cell[m.Aux] = Empty
		b.cell[from] = Empty
		b.cell[to] = p
		b.monsters[them]--
		b.halfmove = 0
	}
	// Moving from or onto a king or rook start cell ends those rights; a
	// capture on a rook's start cell is covered by the same table.
	b.castle &= c.castleKeep[from] & c.castleKeep[to]
	if us == rules.Black {
		b.fullmove++
	}
	b.turn = them
	return u
}

// markDoubleStep sets the en passant target when the pawn of the side to
// move, whose step forward is fwd, went from cell from to cell to by a
// double step. The target is kept only if an enemy pawn stands beside the
// pawn, which keeps perft cheap.
func (b *Board) markDoubleStep(from, to, fwd int) {
	if to-from != 2*fwd || b.cell[from+fwd] != Empty {
		return
	}
	ep := MakePiece(b.turn.Other(), Pawn)
	if b.cell[to-1] == ep || b.cell[to+1] == ep {
		b.ep = uint8(from + fwd)
	}
}

// Unmake takes back m, which must be the last move made, using the Undo
// that [Board.Make] returned.
func (b *Board) Unmake(m Move, u Undo) {
	c := b.cfg
	them := b.turn
	us := them.Other()
	b.turn = us
	if us == rules.Black {
		b.fullmove--
	}
	b.castle, b.ep, b.halfmove = u.castle, u.ep, u.halfmove
	from, to := int(m.From), int(m.To)
	switch m.Kind {
	case Normal:
		p := b.cell[to]
		if m.Promo != NoKind {
			if m.Promo == Monster {
				b.monsters[us]--
			}
			p = MakePiece(us, Pawn)
		}
		b.cell[to] = u.captured
		b.cell[from] = p
		if p.Kind() == King {
			b.king[us] = uint8(from)
		}
	case EnPassant:
		b.cell[from] = b.cell[to]
		b.cell[to] = Empty
		b.cell[to-c.forward(us)] = u.captured
	case Castle:
		rd := rookDest(from, to)
		rook := b.cell[rd]
		king := b.cell[to]
		b.cell[rd] = Empty
		b.cell[to] = Empty
		b.cell[from] = king
		b.cell[m.Aux] = rook
		b.king[us] = uint8(from)
	case Push:
		p := b.cell[to]
		b.cell[to] = b.cell[m.Aux]
		b.cell[m.Aux] = Empty
		b.cell[from] = p
	case MonsterCapture:
		p := b.cell[to]
		b.cell[to] = Empty
		b.cell[from] = p
		b.cell[m.Aux] = u.captured
		b.monsters[them]++
	}
}
