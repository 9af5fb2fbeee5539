package tavreli

import "arbiter/rules"

// attacked reports whether sq is attacked by colour by (D6): some top piece
// of that colour reaches sq by its pattern, whatever sq holds. It looks
// outward from sq instead of building attack maps.
func (b *Board) attacked(sq int8, by rules.Color) bool {
	f, r := fileOf(sq), rankOf(sq)
	// Ratniki attack the two squares diagonally in front of them.
	back := r - 1
	if by == rules.Second {
		back = r + 1
	}
	if back >= 0 && back < 8 {
		pc := codeOf(by, Ratnik)
		if f > 0 && b.topCode(sqOf(f-1, back)) == pc {
			return true
		}
		if f < 7 && b.topCode(sqOf(f+1, back)) == pc {
			return true
		}
	}
	nc, hc := codeOf(by, Vsadnik), codeOf(by, Helgi)
	kj := &knightJumps[sq]
	for i := range kj.n {
		if c := b.topCode(kj.sqs[i]); c == nc || c == hc {
			return true
		}
	}
	if k := b.king[by]; k >= 0 && k != sq {
		df, dr := fileOf(k)-f, rankOf(k)-r
		if df >= -1 && df <= 1 && dr >= -1 && dr <= 1 {
			return true
		}
	}
	qc := codeOf(by, Knyaz)
	line := codeOf(by, Ratoborets)
	for d := range 8 {
		if d == 4 {
			line = codeOf(by, Luchnik)
		}
		ry := &rays[sq][d]
		for i := range ry.n {
			p := b.top[ry.sqs[i]]
			if p == 0 {
				continue
			}
			if c := b.code[p]; c == line || c == qc || c == hc {
				return true
			}
			break
		}
	}
	return false
}

// InCheck reports whether the side to move is in check.
func (b *Board) InCheck() bool {
	return b.attacked(b.king[b.side], b.side.Other())
}

// slides reports whether a top piece with code c moves along
// direction d (0..3 orthogonal, 4..7 diagonal).
func slides(c pieceCode, d int) bool {
	switch Role(c & 7) {
	case Knyaz, Helgi:
		return true
	case Ratoborets:
		return d < 4
	case Luchnik:
		return d >= 4
	}
	return false
}

// pins lists the squares owned by the side to move that stand alone
// between its Volkhv and an enemy line piece: emptying such a square
// exposes the Volkhv unless the group lands on the line (mask).
type pins struct {
	n    int
	bits uint64
	sq   [8]int8
	mask [8]uint64
}

func (b *Board) findPins(ks int8, c rules.Color, ps *pins) {
	for d := range 8 {
		ry := &rays[ks][d]
		var first int8 = noSquare
		for i := range ry.n {
			t := ry.sqs[i]
			p := b.top[t]
			if p == 0 {
				continue
			}
			if first == noSquare {
				if b.color(p) != c {
					break
				}
				first = t
				continue
			}
			if b.color(p) != c && slides(b.code[p], d) {
				ps.sq[ps.n] = first
				ps.mask[ps.n] = rayMask[ks][t]
				ps.bits |= 1 << uint(first)
				ps.n++
			}
			break
		}
	}
}

func (ps *pins) maskOf(sq int8) uint64 {
	if ps.bits&(1<<uint(sq)) == 0 {
		return ^uint64(0)
	}
	for i := range ps.n {
		if ps.sq[i] == sq {
			return ps.mask[i]
		}
	}
	return ^uint64(0)
}
