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
	ks := int(b.king[b.turn])
	var pins pinInfo
	nchk := 0
	target := fullSet // where non-king moves and drops may go
	if ks != 0 {
		nchk, target = b.checks(ks, &pins)
	}
	if nchk >= 2 {
		// Double check: only the king may move.
		return b.appendKingMoves(dst, ks)
	}
	dst = b.appendPieceMoves(dst, &pins, target)
	dst = b.appendKingMoves(dst, ks)
	return b.appendDrops(dst, target)
}

// checks finds the pieces that check the king of the side to move, on
// mailbox square ks, and records in pins the own pieces pinned to it. It
// returns the number of checkers and the squares where a non-king move or
// a drop may go: every square without check, else the checker's square
// and, for a slider, the squares between.
func (b *Board) checks(ks int, pins *pinInfo) (int, sqset) {
	opp := b.turn.Other()
	var block sqset
	n := 0
	for d := range 8 {
		n += b.checkRay(ks, d, pins, &block)
	}
	kn := MakePiece(opp, Knight)
	for _, j := range knightJump[opp] {
		if t := ks - j; b.sq[t] == kn {
			n++
			block.add(t)
		}
	}
	if n == 0 {
		return 0, fullSet
	}
	return n, block
}

// checkRay looks from the king on ks along direction d. An enemy piece
// that checks along it adds its square, and the squares between, to block
// and counts 1; an own piece with an enemy slider behind it is recorded in
// pins.
func (b *Board) checkRay(ks, d int, pins *pinInfo, block *sqset) int {
	me := uint8(b.turn) + 1
	them := uint8(b.turn.Other()) + 1
	off := dirOffset[d]
	bit := uint8(1) << ((d + 4) & 7)
	t := ks + off
	p := b.sq[t]
	if p != NoPiece {
		if side[p] == them && (stepMask[p]|slideMask[p])&bit != 0 {
			block.add(t)
			return 1
		}
	} else {
		for t += off; b.sq[t] == NoPiece; t += off {
		}
		p = b.sq[t]
		if side[p] == them && slideMask[p]&bit != 0 {
			for u := ks + off; u != t+off; u += off {
				block.add(u)
			}
			return 1
		}
	}
	if side[p] != me {
		return 0
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
	return 0
}

// alongPin reports whether a piece with pin direction pd (plus one, 0 when
// not pinned) may move in direction d: along the pin, either way.
func alongPin(pd int, d int8) bool {
	return pd == 0 || int(d) == pd-1 || int(d) == (pd+3)&7
}

// appendPieceMoves appends the board moves of the side to move's pieces
// other than the king to squares of target.
func (b *Board) appendPieceMoves(dst []Move, pins *pinInfo, target sqset) []Move {
	me := uint8(b.turn) + 1
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
		dst = b.appendMovesFrom(dst, s, p, pd, target)
	}
	return dst
}

// appendMovesFrom appends the moves of the piece p on s to squares of
// target: its steps, slides and knight jumps, only along the pin when pd
// (see alongPin) is not 0.
func (b *Board) appendMovesFrom(dst []Move, s int, p Piece, pd int, target sqset) []Move {
	c := b.turn
	for _, d := range stepDirs[p] {
		if !alongPin(pd, d) {
			continue
		}
		t := s + dirOffset[d]
		if q := b.sq[t]; canLand[c][q] && target.has(t) {
			dst = b.addMove(dst, c, s, t, p, q)
		}
	}
	for _, d := range slideDirs[p] {
		if alongPin(pd, d) {
			dst = b.appendSlide(dst, s, dirOffset[d], p, target)
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
	return dst
}

// appendSlide appends the moves of the slider p on s along offset off to
// squares of target, up to the first piece, taken if it is an enemy's.
func (b *Board) appendSlide(dst []Move, s, off int, p Piece, target sqset) []Move {
	c := b.turn
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
		return dst
	}
}

// appendKingMoves appends the moves of the king on ks, if there is one:
// the destination must not be attacked once the king has left its square.
func (b *Board) appendKingMoves(dst []Move, ks int) []Move {
	if ks == 0 {
		return dst
	}
	c := b.turn
	opp := c.Other()
	kp := b.sq[ks]
	b.sq[ks] = NoPiece
	for _, d := range stepDirs[kp] {
		t := ks + dirOffset[d]
		if q := b.sq[t]; canLand[c][q] && !b.attacked(t, opp) {
			dst = append(dst, boardMove(ks, t, kp, q, false))
		}
	}
	b.sq[ks] = kp
	return dst
}

// appendDrops appends the drops of the side to move on empty squares of
// target: not where the piece could never move, no nifu and no
// uchifuzume.
func (b *Board) appendDrops(dst []Move, target sqset) []Move {
	c := b.turn
	types, nt := b.handTypesOf(c)
	if nt == 0 {
		return dst
	}
	pawnFile := b.pawnFiles(c)
	eks := int(b.king[c.Other()])
	for i, s8 := range padOf {
		s := int(s8)
		if b.sq[s] != NoPiece || !target.has(s) {
			continue
		}
		rr := relRank[c][s]
		for _, t := range types[:nt] {
			if rr < deadRanks[t] {
				continue
			}
			m := dropMove(s, MakePiece(c, t))
			if t == Pawn && (pawnFile[i%9] || s+forward[c] == eks && b.dropMates(m)) {
				continue
			}
			dst = append(dst, m)
		}
	}
	return dst
}

// handTypesOf returns the piece types c holds in hand, in the order of
// handTypes, and their number.
func (b *Board) handTypesOf(c rules.Color) (types [7]PieceType, n int) {
	for _, t := range handTypes {
		if b.hand[c][t] > 0 {
			types[n] = t
			n++
		}
	}
	return types, n
}

// pawnFiles returns, when c holds a pawn in hand, the files (by board
// column) where c already has an unpromoted pawn; else none.
func (b *Board) pawnFiles(c rules.Color) (files [9]bool) {
	if b.hand[c][Pawn] == 0 {
		return files
	}
	pawn := MakePiece(c, Pawn)
	for i, s := range padOf {
		if b.sq[s] == pawn {
			files[i%9] = true
		}
	}
	return files
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
