package tavreli

import (
	"math/bits"
	"slices"

	"arbiter/rules"
)

// GenerateLegal appends the legal moves of the side to move to dst and
// returns it. It does not allocate when dst has room. The order is
// deterministic: origins in square order, then destinations in pattern
// order, then the count k ascending; castling and en passant follow the
// ordinary moves of their piece.
//
// Most moves are proved legal without being played: when the side to move
// is not in check, a move that is not a Volkhv move and not en passant can
// only expose its own Volkhv through its origin square, either by emptying
// a pinned square off the pin line, or by leaving an enemy piece on top of
// the remainder; a Volkhv move only needs its destination to be safe. Only
// moves that free an enemy piece, en passant and moves out of check are
// tried with Make and Unmake.
func (b *Board) GenerateLegal(dst []Move) []Move {
	c := b.side
	ks := b.king[c]
	inCheck := b.attacked(ks, c.Other())
	var ps pins
	if !inCheck {
		b.findPins(ks, c, &ps)
	}
	var tg [40]int8
	for own := b.own[c]; own != 0; own &= own - 1 {
		o := int8(bits.TrailingZeros64(own))
		g := b.top[o]
		role := b.role(g)
		h := int(b.height[o])
		nt := b.targets(o, role, c, tg[:0])
		remEnemy := b.enemyLevels(g, h, c)
		if role == Volkhv && !inCheck {
			dst = b.appendVolkhvMoves(dst, o, h, remEnemy, nt, c)
			dst = b.appendCastling(dst, o, c)
			continue
		}
		pinMask := ps.maskOf(o)
		for _, d := range nt {
			for k := 1; k <= h; k++ {
				m := Move{from: o, to: d, n: uint8(k)}
				switch {
				case inCheck || role == Volkhv || (k < h && remEnemy&(1<<k) != 0):
					if !b.legalAfter(m, c) {
						continue
					}
				case k == h:
					if pinMask&(1<<uint(d)) == 0 {
						continue
					}
				}
				dst = append(dst, m)
			}
		}
		if b.mayTakeEnPassant(o, role, c) {
			dst = b.appendEnPassant(dst, o, h, c)
		}
	}
	return dst
}

// enemyLevels returns, for the stack of height h topped by g, bit k set
// when the piece that a group of k leaves on top is not c's.
func (b *Board) enemyLevels(g uint8, h int, c rules.Color) uint32 {
	var remEnemy uint32
	if h > 1 {
		p := b.below[g]
		for k := 1; k < h; k++ {
			if b.color(p) != c {
				remEnemy |= 1 << k
			}
			p = b.below[p]
		}
	}
	return remEnemy
}

// mayTakeEnPassant reports whether c's top piece of the given role on o
// may capture en passant: it is a Ratnik diagonally behind the en passant
// square.
func (b *Board) mayTakeEnPassant(o int8, role Role, c rules.Color) bool {
	return role == Ratnik && b.ep >= 0 && isForwardDiagonal(o, b.ep, c)
}

// appendEnPassant appends the legal en passant captures of every count
// from c's stack of height h on o.
func (b *Board) appendEnPassant(dst []Move, o int8, h int, c rules.Color) []Move {
	for k := 1; k <= h; k++ {
		m := Move{from: o, to: b.ep, n: uint8(k), kind: EnPassant}
		if b.legalAfter(m, c) {
			dst = append(dst, m)
		}
	}
	return dst
}

// appendVolkhvMoves appends the legal moves of c's Volkhv on o to the
// destinations nt when c is not in check. Only the destination's safety
// matters then: the Volkhv is the only piece to protect. When the whole
// tower leaves, o is empty after the move and may let a line through
// (x-ray); when an own piece stays on top of the remainder, o still
// blocks; when an enemy piece is freed on o, its attacks are new, so
// those moves are played to be judged.
func (b *Board) appendVolkhvMoves(dst []Move, o int8, h int, remEnemy uint32, nt []int8, c rules.Color) []Move {
	e := c.Other()
	for _, d := range nt {
		for k := 1; k <= h; k++ {
			m := Move{from: o, to: d, n: uint8(k)}
			var ok bool
			switch {
			case k == h:
				top := b.top[o]
				b.top[o] = 0
				ok = !b.attacked(d, e)
				b.top[o] = top
			case remEnemy&(1<<k) == 0:
				ok = !b.attacked(d, e)
			default:
				ok = b.legalAfter(m, c)
			}
			if ok {
				dst = append(dst, m)
			}
		}
	}
	return dst
}

// IsLegal reports whether m is a legal move of b. It checks m against the
// movement rules of its origin's stack and plays it to judge the Volkhv's
// safety, rather than generating every legal move: callers check moves
// one at a time (Position.Play).
func (b *Board) IsLegal(m Move) bool {
	c := b.side
	o := m.from
	if o < 0 || o >= 64 || m.to < 0 || m.to >= 64 || b.own[c]&(1<<uint(o)) == 0 {
		return false
	}
	return b.followsPattern(m, c) && b.legalAfter(m, c)
}

// followsPattern reports whether m, from a square of c, obeys the
// movement rules of its kind and of its origin's stack, the Volkhv's
// safety aside.
func (b *Board) followsPattern(m Move, c rules.Color) bool {
	o := m.from
	role := b.role(b.top[o])
	group := m.n >= 1 && int(m.n) <= int(b.height[o])
	switch m.kind {
	case GroupMove:
		var tg [40]int8
		return group && slices.Contains(b.targets(o, role, c, tg[:0]), m.to)
	case EnPassant:
		return group && role == Ratnik && m.to == b.ep && isForwardDiagonal(o, b.ep, c)
	case CastleShort, CastleLong:
		var buf [2]Move
		return role == Volkhv && !b.attacked(b.king[c], c.Other()) && slices.Contains(b.appendCastling(buf[:0], o, c), m)
	}
	return false
}

// legalAfter plays m and reports whether c's Volkhv is then safe.
func (b *Board) legalAfter(m Move, c rules.Color) bool {
	u := b.Make(m)
	ok := !b.attacked(b.king[c], c.Other())
	b.Unmake(m, u)
	return ok
}

func isForwardDiagonal(o, t int8, c rules.Color) bool {
	if rankOf(t)-rankOf(o) != int(forward(c))/8 {
		return false
	}
	df := fileOf(t) - fileOf(o)
	return df == 1 || df == -1
}

// targets appends the destinations reachable by a top piece of the given
// role and colour standing on o: the pattern, path and destination rules
// of 2.2 and 2.5, without the Volkhv-safety rule.
func (b *Board) targets(o int8, role Role, c rules.Color, dst []int8) []int8 {
	switch role {
	case Ratnik:
		return b.ratnikTargets(o, c, dst)
	case Vsadnik:
		return b.leaps(&knightJumps[o], dst)
	case Volkhv:
		return b.leaps(&kingSteps[o], dst)
	case Luchnik:
		return b.lines(o, 4, 8, dst)
	case Ratoborets:
		return b.lines(o, 0, 4, dst)
	case Knyaz:
		return b.lines(o, 0, 8, dst)
	case Helgi:
		return b.leaps(&knightJumps[o], b.lines(o, 0, 8, dst))
	}
	return dst
}

// leaps keeps every square of j whose top is not a Volkhv: nothing may be
// placed on a Volkhv.
func (b *Board) leaps(j *jumps, dst []int8) []int8 {
	for i := range j.n {
		t := j.sqs[i]
		if Role(b.topCode(t)&7) != Volkhv {
			dst = append(dst, t)
		}
	}
	return dst
}

// lines follows directions d0..d1-1 up to and including the first occupied
// square, unless that square is topped by a Volkhv.
func (b *Board) lines(o int8, d0, d1 int, dst []int8) []int8 {
	for d := d0; d < d1; d++ {
		ry := &rays[o][d]
		for i := range ry.n {
			t := ry.sqs[i]
			p := b.top[t]
			if p == 0 {
				dst = append(dst, t)
				continue
			}
			if b.role(p) != Volkhv {
				dst = append(dst, t)
			}
			break
		}
	}
	return dst
}

// ratnikTargets appends the destinations of c's Ratnik on top of o.
func (b *Board) ratnikTargets(o int8, c rules.Color, dst []int8) []int8 {
	r := rankOf(o)
	if r == lastRank(c) {
		return dst // only ever a carried Ratnik, never a top piece (2.5.5)
	}
	fw := o + forward(c)
	// Forward: onto an empty square or an own stack not topped by the Volkhv.
	if b.ratnikMayStep(fw, c) {
		dst = append(dst, fw)
	}
	// Double step (D9, D10): only the right-holder, which stands alone.
	if r == startRank(c) && b.height[o] == 1 && b.DoubleStep(c, fileOf(o)) && b.top[fw] == 0 {
		if t := fw + forward(c); b.ratnikMayStep(t, c) {
			dst = append(dst, t)
		}
	}
	// Diagonal: only onto enemy-owned stacks not topped by the Volkhv.
	f := fileOf(o)
	for _, t := range [2]int8{fw - 1, fw + 1} {
		if df := fileOf(t) - f; (df == 1 || df == -1) && b.ratnikMayCapture(t, c) {
			dst = append(dst, t)
		}
	}
	return dst
}

// ratnikMayStep reports whether c's Ratnik may step straight onto t: an
// empty square or an own stack not topped by the Volkhv.
func (b *Board) ratnikMayStep(t int8, c rules.Color) bool {
	p := b.top[t]
	return p == 0 || (b.color(p) == c && b.role(p) != Volkhv)
}

// ratnikMayCapture reports whether c's Ratnik may go diagonally onto t:
// an enemy-owned stack not topped by the Volkhv.
func (b *Board) ratnikMayCapture(t int8, c rules.Color) bool {
	p := b.top[t]
	return p != 0 && b.color(p) != c && b.role(p) != Volkhv
}

// appendCastling appends the legal castlings of c's Volkhv on o (2.6).
func (b *Board) appendCastling(dst []Move, o int8, c rules.Color) []Move {
	short, long := CastleWhiteShort, CastleWhiteLong
	if c == rules.Second {
		short, long = CastleBlackShort, CastleBlackLong
	}
	if b.castle&(short|long) == 0 || b.height[o] != 1 {
		return dst
	}
	for _, kind := range [2]MoveKind{CastleShort, CastleLong} {
		right := short
		if kind == CastleLong {
			right = long
		}
		if b.castle&right != 0 && b.mayCastle(o, c, kind) {
			ks, kd, _, _ := castleSquares(c, kind)
			dst = append(dst, Move{from: ks, to: kd, n: 1, kind: kind})
		}
	}
	return dst
}

// mayCastle reports whether c's Volkhv on o may castle the given way, the
// right aside: its original Ratoborets stands alone in the corner, the
// squares between them are empty, and neither destination is attacked.
func (b *Board) mayCastle(o int8, c rules.Color, kind MoveKind) bool {
	ks, kd, rs, rd := castleSquares(c, kind)
	if ks != o || b.height[rs] != 1 || b.topCode(rs) != codeOf(c, Ratoborets) || b.mark[b.top[rs]] != NoRole {
		return false
	}
	return b.emptyBetween(rs, ks) && !b.attacked(kd, c.Other()) && !b.attacked(rd, c.Other())
}

// emptyBetween reports whether the squares strictly between x and y, on
// one rank, are empty.
func (b *Board) emptyBetween(x, y int8) bool {
	if x > y {
		x, y = y, x
	}
	for s := x + 1; s < y; s++ {
		if b.top[s] != 0 {
			return false
		}
	}
	return true
}

// Perft returns the number of leaves of the legal move tree of the given
// depth. Leaves are counted in bulk: at depth 1 it counts the generated
// legal moves without playing them.
func (b *Board) Perft(depth int) uint64 {
	if depth <= 0 {
		return 1
	}
	bufs := make([][]Move, depth+1)
	for i := range bufs {
		bufs[i] = make([]Move, 0, 256)
	}
	return b.perft(depth, bufs)
}

func (b *Board) perft(depth int, bufs [][]Move) uint64 {
	moves := b.GenerateLegal(bufs[depth][:0])
	bufs[depth] = moves
	if depth == 1 {
		return uint64(len(moves))
	}
	var n uint64
	for _, m := range moves {
		u := b.Make(m)
		n += b.perft(depth-1, bufs)
		b.Unmake(m, u)
	}
	return n
}
