package tavreli

import "arbiter/rules"

// attacked reports whether sq is attacked by colour by (D6): some top piece
// of that colour reaches sq by its pattern, whatever sq holds. It looks
// outward from sq instead of building attack maps: the Volkhv next to sq,
// a Ratnik or a leaper on a square that reaches sq, the first piece along
// each line.
func (b *Board) attacked(sq int8, by rules.Color) bool {
	if k := b.king[by]; k >= 0 && kingZone[sq]&(1<<uint(k)) != 0 {
		return true
	}
	rc := codeOf(by, Ratnik)
	if b.topIn(&ratnikFrom[by][sq], rc, rc) || b.topIn(&knightJumps[sq], codeOf(by, Vsadnik), codeOf(by, Helgi)) {
		return true
	}
	qc, hc := codeOf(by, Knyaz), codeOf(by, Helgi)
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

// topIn reports whether the top piece of a square of j has code c1 or c2.
func (b *Board) topIn(j *jumps, c1, c2 pieceCode) bool {
	for i := range j.n {
		if c := b.topCode(j.sqs[i]); c == c1 || c == c2 {
			return true
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
