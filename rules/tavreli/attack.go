package tavreli

import "arbiter/rules"

// attacked reports whether sq is attacked by colour by (D6): some top piece
// of that colour reaches sq by its pattern, whatever sq holds. It looks
// outward from sq instead of building attack maps.
func (b *Board) attacked(sq int8, by rules.Color) bool {
	return b.ratnikAttacks(sq, by) || b.jumpAttacks(sq, by) || b.volkhvAttacks(sq, by) || b.lineAttacks(sq, by)
}

// ratnikAttacks reports whether a Ratnik of colour by attacks sq: Ratniki
// attack the two squares diagonally in front of them.
func (b *Board) ratnikAttacks(sq int8, by rules.Color) bool {
	f, r := fileOf(sq), rankOf(sq)
	back := r - 1
	if by == rules.Second {
		back = r + 1
	}
	if back < 0 || back >= 8 {
		return false
	}
	pc := codeOf(by, Ratnik)
	return (f > 0 && b.topCode(sqOf(f-1, back)) == pc) || (f < 7 && b.topCode(sqOf(f+1, back)) == pc)
}

// jumpAttacks reports whether a Vsadnik or a Helgi of colour by attacks
// sq with a knight's jump.
func (b *Board) jumpAttacks(sq int8, by rules.Color) bool {
	nc, hc := codeOf(by, Vsadnik), codeOf(by, Helgi)
	kj := &knightJumps[sq]
	for i := range kj.n {
		if c := b.topCode(kj.sqs[i]); c == nc || c == hc {
			return true
		}
	}
	return false
}

// volkhvAttacks reports whether the Volkhv of colour by stands next to sq.
func (b *Board) volkhvAttacks(sq int8, by rules.Color) bool {
	k := b.king[by]
	if k < 0 || k == sq {
		return false
	}
	df, dr := fileOf(k)-fileOf(sq), rankOf(k)-rankOf(sq)
	return df >= -1 && df <= 1 && dr >= -1 && dr <= 1
}

// lineAttacks reports whether a line piece of colour by attacks sq: the
// first piece along a rank or file is a Ratoborets, along a diagonal a
// Luchnik, along either a Knyaz or a Helgi.
func (b *Board) lineAttacks(sq int8, by rules.Color) bool {
	qc, hc := codeOf(by, Knyaz), codeOf(by, Helgi)
	line := codeOf(by, Ratoborets)
	for d := range 8 {
		if d == 4 {
			line = codeOf(by, Luchnik)
		}
		if c := b.firstOnRay(&rays[sq][d]); c == line || c == qc || c == hc {
			return true
		}
	}
	return false
}

// firstOnRay returns the code of the first top piece along ry, 0 when the
// ray is empty.
func (b *Board) firstOnRay(ry *ray) pieceCode {
	for i := range ry.n {
		if p := b.top[ry.sqs[i]]; p != 0 {
			return b.code[p]
		}
	}
	return 0
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
