package shogi

import "arbiter/rules"

// MaxMoves is a buffer size that holds every legal move list: the most
// legal moves a reachable shogi position is known to have is 593.
const MaxMoves = 600

// sqset is a set of board squares (square indexes 0..80).
type sqset [2]uint64

var fullSet = sqset{^uint64(0), ^uint64(0)}

func (s *sqset) add(pad int) {
	i := uint(idxOf[pad])
	s[i>>6] |= 1 << (i & 63)
}

func (s *sqset) has(pad int) bool {
	i := uint(idxOf[pad])
	return s[i>>6]>>(i&63)&1 != 0
}

// pinInfo lists the side to move's pinned pieces and the direction of
// each pin.
type pinInfo struct {
	n   int
	sq  [8]int
	dir [8]int
}

// pinned returns the pin direction of the piece on s plus one, or 0.
func (p *pinInfo) pinned(s int) int {
	for i := 0; i < p.n; i++ {
		if p.sq[i] == s {
			return p.dir[i] + 1
		}
	}
	return 0
}

// GenerateLegal appends the legal moves of the side to move to dst and
// returns the extended slice: board moves (promotion and non-promotion as
// separate moves) and drops, without uchifuzume drops and without moves
// that leave the mover's king in check (spec 2.6). It does not allocate
// when dst has room for [MaxMoves] more moves.
func (b *Board) GenerateLegal(dst []Move) []Move {
	c := b.turn
	opp := c.Other()
	me := uint8(c) + 1
	them := uint8(opp) + 1
	ks := int(b.king[c])

	// Checkers and pins of the king, if there is one.
	var pins pinInfo
	nchk := 0
	target := fullSet     // where non-king moves may go
	dropTarget := fullSet // where drops may go
	if ks != 0 {
		var block sqset
		for d := range 8 {
			off := dirOffset[d]
			bit := uint8(1) << ((d + 4) & 7)
			t := ks + off
			p := b.sq[t]
			if p != NoPiece {
				if side[p] == them && (stepMask[p]|slideMask[p])&bit != 0 {
					nchk++
					block.add(t)
				}
				if side[p] != me {
					continue
				}
			} else {
				for t += off; b.sq[t] == NoPiece; t += off {
				}
				p = b.sq[t]
				if side[p] == them && slideMask[p]&bit != 0 {
					nchk++
					for u := ks + off; u != t+off; u += off {
						block.add(u)
					}
					continue
				}
				if side[p] != me {
					continue
				}
			}
			// An own piece on t: pinned if an enemy slider stands behind it.
			u := t + off
			for b.sq[u] == NoPiece {
				u += off
			}
			if q := b.sq[u]; side[q] == them && slideMask[q]&bit != 0 {
				pins.sq[pins.n] = t
				pins.dir[pins.n] = d
				pins.n++
			}
		}
		kn := MakePiece(opp, Knight)
		for _, j := range knightJump[opp] {
			if t := ks - j; b.sq[t] == kn {
				nchk++
				block.add(t)
			}
		}
		if nchk > 0 {
			target = block
			dropTarget = block
		}
	}

	// Board moves of pieces other than the king.
	if nchk < 2 {
		for _, s8 := range padOf {
			s := int(s8)
			p := b.sq[s]
			if side[p] != me || p.Type() == King {
				continue
			}
			pd := 0
			if pins.n > 0 {
				pd = pins.pinned(s)
			}
			for _, d := range stepDirs[p] {
				if pd != 0 && int(d) != pd-1 && int(d) != (pd+3)&7 {
					continue
				}
				t := s + dirOffset[d]
				if q := b.sq[t]; canLand[c][q] && target.has(t) {
					dst = b.addMove(dst, c, s, t, p, q)
				}
			}
			for _, d := range slideDirs[p] {
				if pd != 0 && int(d) != pd-1 && int(d) != (pd+3)&7 {
					continue
				}
				off := dirOffset[d]
				for t := s + off; ; t += off {
					q := b.sq[t]
					if q == NoPiece {
						if target.has(t) {
							dst = b.addMove(dst, c, s, t, p, q)
						}
						continue
					}
					if canLand[c][q] && target.has(t) {
						dst = b.addMove(dst, c, s, t, p, q)
					}
					break
				}
			}
			if p.Type() == Knight && pd == 0 {
				for _, j := range knightJump[c] {
					t := s + j
					if q := b.sq[t]; canLand[c][q] && target.has(t) {
						dst = b.addMove(dst, c, s, t, p, q)
					}
				}
			}
		}
	}

	// King moves: the destination must not be attacked once the king has
	// left its square.
	if ks != 0 {
		kp := b.sq[ks]
		b.sq[ks] = NoPiece
		for _, d := range stepDirs[kp] {
			t := ks + dirOffset[d]
			if q := b.sq[t]; canLand[c][q] && !b.attacked(t, opp) {
				dst = append(dst, boardMove(ks, t, kp, q, false))
			}
		}
		b.sq[ks] = kp
	}

	// Drops.
	if nchk >= 2 {
		return dst
	}
	var types [7]PieceType
	nt := 0
	for _, t := range handTypes {
		if b.hand[c][t] > 0 {
			types[nt] = t
			nt++
		}
	}
	if nt == 0 {
		return dst
	}
	var pawnFile [9]bool
	if b.hand[c][Pawn] > 0 {
		pawn := MakePiece(c, Pawn)
		for i, s := range padOf {
			if b.sq[s] == pawn {
				pawnFile[i%9] = true
			}
		}
	}
	eks := int(b.king[opp])
	for i, s8 := range padOf {
		s := int(s8)
		if b.sq[s] != NoPiece || !dropTarget.has(s) {
			continue
		}
		rr := relRank[c][s]
		for _, t := range types[:nt] {
			if rr < deadRanks[t] {
				continue
			}
			m := dropMove(s, MakePiece(c, t))
			if t == Pawn {
				if pawnFile[i%9] {
					continue
				}
				if s+forward[c] == eks && b.dropMates(m) {
					continue
				}
			}
			dst = append(dst, m)
		}
	}
	return dst
}

// addMove appends the board move of p from s to t capturing q, as a
// promotion and a non-promotion where both are legal.
func (b *Board) addMove(dst []Move, c rules.Color, s, t int, p, q Piece) []Move {
	pt := p.Type()
	if pt.Promotable() && (inZone[c][s] || inZone[c][t]) {
		dst = append(dst, boardMove(s, t, p, q, true))
		if dead(c, pt, t) {
			return dst
		}
	}
	return append(dst, boardMove(s, t, p, q, false))
}

// dropMates reports whether the checking pawn drop m leaves the opponent
// without a legal move (uchifuzume, spec 2.7). The check comes from an
// adjacent pawn, so the only answers are king moves and captures of the
// pawn; interpositions are impossible.
func (b *Board) dropMates(m Move) bool {
	b.Make(m)
	mate := !b.escapesPawnCheck(m.to())
	b.Unmake(m)
	return mate
}

// escapesPawnCheck reports whether the side to move, checked by the pawn
// on s, has a legal answer.
func (b *Board) escapesPawnCheck(s int) bool {
	o := b.turn
	c := o.Other()
	ks := int(b.king[o])
	kp := b.sq[ks]
	b.sq[ks] = NoPiece
	escape := false
	for _, d := range stepDirs[kp] {
		t := ks + dirOffset[d]
		if canLand[o][b.sq[t]] && !b.attacked(t, c) {
			escape = true
			break
		}
	}
	b.sq[ks] = kp
	if escape {
		return true
	}
	// Captures of the pawn by pieces other than the king.
	want := uint8(o) + 1
	pawn := b.sq[s]
	capture := func(from int) bool {
		mv := boardMove(from, s, b.sq[from], pawn, false)
		b.Make(mv)
		ok := !b.attacked(int(b.king[o]), c)
		b.Unmake(mv)
		return ok
	}
	for d := range 8 {
		off := dirOffset[d]
		bit := uint8(1) << ((d + 4) & 7)
		t := s + off
		p := b.sq[t]
		mask := stepMask[p] | slideMask[p]
		if p == NoPiece {
			for t += off; b.sq[t] == NoPiece; t += off {
			}
			p = b.sq[t]
			mask = slideMask[p]
		}
		if side[p] == want && p.Type() != King && mask&bit != 0 && capture(t) {
			return true
		}
	}
	kn := MakePiece(o, Knight)
	for _, j := range knightJump[o] {
		if t := s - j; b.sq[t] == kn && capture(t) {
			return true
		}
	}
	return false
}

// HasLegalMove reports whether the side to move has a legal move.
func (b *Board) HasLegalMove() bool {
	var buf [MaxMoves]Move
	return len(b.GenerateLegal(buf[:0])) > 0
}

// Perft counts the leaves of the legal move tree of the given depth (spec
// 7.1: promotion and non-promotion count separately; repetition and
// impasse are ignored). It allocates move buffers once per call.
func (b *Board) Perft(depth int) uint64 {
	if depth <= 0 {
		return 1
	}
	buf := make([]Move, depth*MaxMoves)
	return b.perft(depth, buf)
}

func (b *Board) perft(depth int, buf []Move) uint64 {
	moves := b.GenerateLegal(buf[:0:MaxMoves])
	if depth == 1 {
		return uint64(len(moves))
	}
	rest := buf[MaxMoves:]
	var n uint64
	for _, m := range moves {
		b.Make(m)
		n += b.perft(depth-1, rest)
		b.Unmake(m)
	}
	return n
}
