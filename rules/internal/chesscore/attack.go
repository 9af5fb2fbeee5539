package chesscore

import "arbiter/rules"

// Attacked reports whether colour by attacks cell q: whether a piece of by
// could capture an enemy ordinary piece standing on q, ignoring pins.
// Monsters attack nothing; with monsters of by on the board, by's sliders
// see through them and may bounce once off one, and by's knights may
// bounce off one (Tensor rules 3.11).
func (b *Board) Attacked(q int, by rules.Color) bool {
	if b.pawnAttacks(q, by) || b.knightAttacks(q, by) || b.kingNextTo(q, by) {
		return true
	}
	c := b.cfg
	monster := MakePiece(by, Monster)
	hasMon := b.monsters[by] > 0
	rook, bishop, queen := MakePiece(by, Rook), MakePiece(by, Bishop), MakePiece(by, Queen)
	for i, d := range c.dirs {
		slider := rook
		if i >= 4 {
			slider = bishop
		}
		s := q + d
		for {
			x := b.cell[s]
			if x == Empty {
				s += d
				continue
			}
			if x == monster {
				if b.bounceAttack(s, c.perp[i], slider, queen, monster) {
					return true
				}
				s += d
				continue
			}
			if x == slider || x == queen {
				return true
			}
			break
		}
	}
	return hasMon && b.bouncingKnightAttacks(q, MakePiece(by, Knight), monster)
}

// pawnAttacks reports whether a pawn of by attacks cell q.
func (b *Board) pawnAttacks(q int, by rules.Color) bool {
	fwd := b.cfg.forward(by)
	pawn := MakePiece(by, Pawn)
	return b.cell[q-fwd-1] == pawn || b.cell[q-fwd+1] == pawn
}

// knightAttacks reports whether a knight of by attacks cell q directly.
func (b *Board) knightAttacks(q int, by rules.Color) bool {
	knight := MakePiece(by, Knight)
	for _, o := range b.cfg.knight {
		if b.cell[q+o] == knight {
			return true
		}
	}
	return false
}

// kingNextTo reports whether the king of by stands next to cell q.
func (b *Board) kingNextTo(q int, by rules.Color) bool {
	king := MakePiece(by, King)
	for _, d := range b.cfg.dirs {
		if b.cell[q+d] == king {
			return true
		}
	}
	return false
}

// bouncingKnightAttacks reports whether a knight (the piece knight)
// reaches cell q by bouncing off a monster of its side (the piece monster)
// a knight's move away from q.
func (b *Board) bouncingKnightAttacks(q int, knight, monster Piece) bool {
	jumps := &b.cfg.knight
	for _, o := range jumps {
		if m := q + o; b.cell[m] == monster {
			for _, o2 := range jumps {
				if s := m + o2; s != q && b.cell[s] == knight {
					return true
				}
			}
		}
	}
	return false
}

// bounceAttack reports whether a slider of the given kind reaches the
// monster on cell m along one of the perpendicular directions ds, seeing
// through its own monsters.
func (b *Board) bounceAttack(m int, ds [2]int, slider, queen, monster Piece) bool {
	for _, e := range ds {
		s := m + e
		for {
			x := b.cell[s]
			if x == Empty || x == monster {
				s += e
				continue
			}
			if x == slider || x == queen {
				return true
			}
			break
		}
	}
	return false
}

// InCheck reports whether the side to move is in check.
func (b *Board) InCheck() bool { return b.Attacked(int(b.king[b.turn]), b.turn.Other()) }
