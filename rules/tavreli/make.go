package tavreli

import (
	"math/bits"

	"arbiter/rules"
)

// Undo holds what [Board.Unmake] needs to take a move back.
type Undo struct {
	hash    uint64
	own     [2]uint64
	toggled uint64 // bit p: piece p was promoted or demoted by the move
	half    int32
	dstep   uint16
	ep      int8
	castle  uint8
	bottom  uint8 // lowest piece of the moving group
	rem     uint8 // the piece that was under the group: the origin's new top
	victim  uint8 // en passant: the piece that was under the victim
}

// Make plays m, which must be a legal move of b (from [Board.GenerateLegal]),
// and returns what Unmake needs to take it back. Applying the move includes
// all its consequences (D16): remainder activation, liberation, promotion
// and demotion on both squares, rights, en passant square and clocks.
func (b *Board) Make(m Move) Undo {
	u := Undo{hash: b.hash, own: b.own, half: b.half, dstep: b.dstep, ep: b.ep, castle: b.castle}
	c := b.side
	h := b.hash ^ b.stateKey()
	if m.kind == CastleShort || m.kind == CastleLong {
		h = b.makeCastle(m, c, h)
	} else {
		h = b.makeGroup(m, c, h, &u)
	}
	if c == rules.Second {
		b.full++
	}
	b.side = c.Other()
	b.hash = h ^ b.stateKey()
	return u
}

// makeGroup plays a group move or en passant of c, updating the hash h,
// and records in u what Unmake needs.
func (b *Board) makeGroup(m Move, c rules.Color, h uint64, u *Undo) uint64 {
	o, d, k := m.from, m.to, int(m.n)
	g := b.top[o]
	moverRole := b.role(g)
	var y3 int8 = noSquare
	if m.kind == EnPassant {
		y3 = d - forward(c)
		h = b.liftVictim(y3, d, h, u)
	}
	hO, hD := int(b.height[o]), int(b.height[d])
	dOld := b.top[d]

	// The top k pieces of o go onto d in their order.
	p, bottom := g, g
	lo, ld := hO-1, hD+k-1
	for range k {
		h ^= b.pieceKey(p, o, lo) ^ b.pieceKey(p, d, ld)
		lo--
		ld--
		bottom = p
		p = b.below[p]
	}
	b.below[bottom] = dOld
	b.top[d] = g
	b.height[d] = uint8(hD + k)
	b.top[o] = p
	b.height[o] = uint8(hO - k)
	u.bottom, u.rem = bottom, p

	// Destination: the stack's former owner's pieces become captives and
	// lose their promotion (D14); a Ratnik mover on its last rank promotes.
	if dOld != 0 && b.color(dOld) != c {
		h = b.demoteCaptives(dOld, d, hD-1, c, h, u)
	}
	if moverRole == Ratnik && rankOf(d) == lastRank(c) {
		h = b.toggle(g, d, hD+k-1, h)
		u.toggled |= 1 << g
	}
	if p != 0 {
		h = b.activateRemainder(o, c, h, u)
	} else {
		bo := uint64(1) << uint(o)
		b.own[c] &^= bo
		b.castle &^= castleLost[o]
		b.dstep &^= dstepLost[o]
	}
	if y3 != noSquare {
		h = b.settleVictimSquare(y3, h, u)
	}
	bd := uint64(1) << uint(d)
	b.own[c.Other()] &^= bd
	b.own[c] |= bd
	b.updateCounters(o, d, moverRole, dOld != 0, c)
	return h
}

// liftVictim takes the en passant victim off the top of y3, the square it
// crossed, and puts it on d alone, where the capturing group will cover it
// (D12).
func (b *Board) liftVictim(y3, d int8, h uint64, u *Undo) uint64 {
	v := b.top[y3]
	hy := int(b.height[y3])
	h ^= b.pieceKey(v, y3, hy-1)
	u.victim = b.below[v]
	b.top[y3] = u.victim
	b.height[y3]--
	b.below[v] = 0
	b.top[d] = v
	b.height[d] = 1
	return h ^ b.pieceKey(v, d, 0)
}

// demoteCaptives demotes the promoted pieces not of colour owner in the
// stack from q, at level lvl, down on sq: captives lose their promotion.
func (b *Board) demoteCaptives(q uint8, sq int8, lvl int, owner rules.Color, h uint64, u *Undo) uint64 {
	for ; q != 0; q = b.below[q] {
		if b.color(q) != owner && b.mark[q] != NoRole && b.role(q) != Ratnik {
			h = b.toggle(q, sq, lvl, h)
			u.toggled |= 1 << q
		}
		lvl--
	}
	return h
}

// activateRemainder applies the consequences on o of c's group leaving
// the rest of the stack there: its new top acts at once (src 3.2). When
// that is an enemy piece, the square changes hands and c's pieces under it
// become captives; a Ratnik on its last rank promotes.
func (b *Board) activateRemainder(o int8, c rules.Color, h uint64, u *Undo) uint64 {
	rem := b.top[o]
	tc := b.color(rem)
	lvl := int(b.height[o]) - 1
	if tc != c {
		h = b.demoteCaptives(rem, o, lvl, tc, h, u)
		bo := uint64(1) << uint(o)
		b.own[c] &^= bo
		b.own[tc] |= bo
	}
	if b.role(rem) == Ratnik && rankOf(o) == lastRank(tc) {
		h = b.toggle(rem, o, lvl, h)
		u.toggled |= 1 << rem
	}
	return h
}

// settleVictimSquare gives y3, where an en passant victim stood, to the
// owner of what is left there, normalising that stack.
func (b *Board) settleVictimSquare(y3 int8, h uint64, u *Undo) uint64 {
	by := uint64(1) << uint(y3)
	b.own[0] &^= by
	b.own[1] &^= by
	if b.top[y3] != 0 {
		h = b.normalise(y3, h, u)
		b.own[b.ownerOf(y3)] |= by
	}
	return h
}

// updateCounters sets the en passant square, the half-move clock and the
// Volkhv's square after a move of c's moverRole from o to d.
func (b *Board) updateCounters(o, d int8, moverRole Role, onto bool, c rules.Color) {
	b.ep = noSquare
	if moverRole == Ratnik && (d-o == 16 || o-d == 16) {
		b.ep = (o + d) / 2
	}
	if moverRole == Ratnik || onto {
		b.half = 0
	} else {
		b.half++
	}
	if moverRole == Volkhv {
		b.king[c] = d
	}
}

// toggle promotes a Ratnik into its mark or demotes a promoted piece back
// into a Ratnik, keeping the hash up to date.
func (b *Board) toggle(q uint8, sq int8, lvl int, h uint64) uint64 {
	h ^= b.pieceKey(q, sq, lvl)
	b.flip(q)
	return h ^ b.pieceKey(q, sq, lvl)
}

func (b *Board) flip(q uint8) {
	r := Ratnik
	if b.role(q) == Ratnik {
		r = b.mark[q]
	}
	b.code[q] = b.code[q]&^7 | pieceCode(r)
}

// normalise applies promotion and demotion to a whole stack (2.8).
func (b *Board) normalise(sq int8, h uint64, u *Undo) uint64 {
	t := b.top[sq]
	tc := b.color(t)
	h = b.demoteCaptives(t, sq, int(b.height[sq])-1, tc, h, u)
	if b.role(t) == Ratnik && rankOf(sq) == lastRank(tc) {
		h = b.toggle(t, sq, int(b.height[sq])-1, h)
		u.toggled |= 1 << t
	}
	return h
}

// castleSquares returns the Volkhv's and the Ratoborets' origin and
// destination for a castling of colour c.
func castleSquares(c rules.Color, kind MoveKind) (ks, kd, rs, rd int8) {
	r := 0
	if c == rules.Second {
		r = 7
	}
	if kind == CastleShort {
		return sqOf(4, r), sqOf(6, r), sqOf(7, r), sqOf(5, r)
	}
	return sqOf(4, r), sqOf(2, r), sqOf(0, r), sqOf(3, r)
}

func (b *Board) makeCastle(m Move, c rules.Color, h uint64) uint64 {
	ks, kd, rs, rd := castleSquares(c, m.kind)
	kp, rp := b.top[ks], b.top[rs]
	h ^= b.pieceKey(kp, ks, 0) ^ b.pieceKey(kp, kd, 0) ^ b.pieceKey(rp, rs, 0) ^ b.pieceKey(rp, rd, 0)
	b.top[ks], b.height[ks] = 0, 0
	b.top[rs], b.height[rs] = 0, 0
	b.top[kd], b.height[kd] = kp, 1
	b.top[rd], b.height[rd] = rp, 1
	b.own[c] = b.own[c]&^(1<<uint(ks)|1<<uint(rs)) | 1<<uint(kd) | 1<<uint(rd)
	b.king[c] = kd
	b.castle &^= castleLost[ks]
	b.ep = noSquare
	b.half++
	return h
}

// Unmake takes back m, which must be the last move made, given the Undo
// that Make returned for it.
func (b *Board) Unmake(m Move, u Undo) {
	c := b.side.Other()
	b.side = c
	if c == rules.Second {
		b.full--
	}
	for t := u.toggled; t != 0; t &= t - 1 {
		b.flip(uint8(bits.TrailingZeros64(t)))
	}
	if m.kind == CastleShort || m.kind == CastleLong {
		ks, kd, rs, rd := castleSquares(c, m.kind)
		b.top[ks], b.height[ks] = b.top[kd], 1
		b.top[rs], b.height[rs] = b.top[rd], 1
		b.top[kd], b.height[kd] = 0, 0
		b.top[rd], b.height[rd] = 0, 0
		b.king[c] = ks
	} else {
		o, d, k := m.from, m.to, m.n
		g := b.top[d]
		b.top[d] = b.below[u.bottom]
		b.height[d] -= k
		b.below[u.bottom] = u.rem
		b.top[o] = g
		b.height[o] += k
		if m.kind == EnPassant {
			v := b.top[d]
			y3 := d - forward(c)
			b.top[d], b.height[d] = 0, 0
			b.below[v] = b.top[y3]
			b.top[y3] = v
			b.height[y3]++
		}
		if b.role(g) == Volkhv {
			b.king[c] = o
		}
	}
	b.hash, b.own, b.half, b.dstep, b.ep, b.castle = u.hash, u.own, u.half, u.dstep, u.ep, u.castle
}
