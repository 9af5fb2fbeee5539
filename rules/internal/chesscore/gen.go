package chesscore

import "arbiter/rules"

// cellSet is a set of mailbox cells.
type cellSet [(maxCells + 63) / 64]uint64

func (s *cellSet) has(c int) bool { return s[c>>6]&(1<<(c&63)) != 0 }
func (s *cellSet) add(c int)      { s[c>>6] |= 1 << (c & 63) }

// Pseudo appends to buf the pseudo-legal moves of the side to move (moves
// that may leave the own king attacked) and returns it. Each effect is
// listed once: routes that end in the same position are one move.
func (b *Board) Pseudo(buf []Move) []Move {
	c := b.cfg
	us := b.turn
	var g gen
	g.b = b
	g.us = us
	g.own = MakePiece(us, Monster)
	g.enemyMon = MakePiece(us.Other(), Monster)
	g.hasMon = b.monsters[us] > 0
	g.buf = buf
	for _, cell8 := range c.cells {
		s := int(cell8)
		p := b.cell[s]
		if p == Empty || p.Color() != us {
			continue
		}
		switch p.Kind() {
		case Pawn:
			g.pawn(s)
		case Knight:
			g.knight(s, p)
		case Bishop:
			g.slider(s, p, 4, 8)
		case Rook:
			g.slider(s, p, 0, 4)
		case Queen:
			g.slider(s, p, 0, 8)
		case King:
			g.king(s)
		case Monster:
			g.monster(s, p)
		}
	}
	if b.castle != 0 {
		g.castling()
	}
	return g.buf
}

// maxMonsters bounds the monsters of one side: two at the start and one
// per promoted pawn (a pawn for each file). Positions keep monsters plus
// pawns within it (ParseFEN checks), so promotions never exceed it.
const maxMonsters = 2 + MaxWidth

// gen is the state of one move generation.
type gen struct {
	b        *Board
	us       rules.Color
	own      Piece // own monster
	enemyMon Piece
	hasMon   bool // the side to move has a monster: bounces, pushes, jumps
	buf      []Move
	seen     cellSet // destinations of the current piece, for de-duplication
	// returns records monster captures that end on the start cell: their
	// effect is only the removal of the captured monster, so two monsters
	// can make the same move (Tensor D46).
	returns  [maxMonsters]int32 // indexes into buf, one per enemy monster
	nReturns int
}

func (g *gen) add(from, to int) {
	g.buf = append(g.buf, Move{From: uint8(from), To: uint8(to)})
}

// addOnce adds a move to to unless the current piece already has one.
func (g *gen) addOnce(from, to int) {
	if !g.seen.has(to) {
		g.seen.add(to)
		g.add(from, to)
	}
}

func (g *gen) pawn(s int) {
	b, c := g.b, g.b.cfg
	fwd := c.forward(g.us)
	one := s + fwd
	r := c.rankOf(s)
	startRank := (g.us == rules.White && r == 1) || (g.us == rules.Black && r == c.height-2)
	x := b.cell[one]
	if x == Empty {
		g.pawnTo(s, one)
		if startRank && b.cell[one+fwd] == Empty {
			g.add(s, one+fwd)
		}
	} else if x == g.own && startRank && b.cell[one+fwd] == Empty {
		g.add(s, one+fwd) // jump over the own monster
		g.buf = append(g.buf, Move{From: uint8(s), To: uint8(one), Aux: uint8(one + fwd), Kind: Push})
	}
	for _, t := range [2]int{one - 1, one + 1} {
		if enemyOrdinary[g.us][b.cell[t]] {
			g.pawnTo(s, t)
		} else if t == int(b.ep) && b.ep != 0 {
			g.buf = append(g.buf, Move{From: uint8(s), To: uint8(t), Kind: EnPassant})
		}
	}
}

// pawnTo adds a pawn step or capture, with every promotion on the last rank.
func (g *gen) pawnTo(s, t int) {
	c := g.b.cfg
	r := c.rankOf(t)
	if r == 0 || r == c.height-1 {
		for _, k := range c.promos {
			g.buf = append(g.buf, Move{From: uint8(s), To: uint8(t), Promo: k})
		}
		return
	}
	g.add(s, t)
}

func (g *gen) king(s int) {
	b := g.b
	for _, d := range b.cfg.dirs {
		if t := s + d; landable[g.us][b.cell[t]] {
			g.add(s, t)
		}
	}
}

func (g *gen) knight(s int, p Piece) {
	b, c := g.b, g.b.cfg
	if !g.hasMon {
		for _, o := range c.knight {
			if t := s + o; landable[g.us][b.cell[t]] {
				g.add(s, t)
			}
		}
		return
	}
	// Tensor: the start cell counts as empty while the knight moves.
	b.cell[s] = Empty
	g.seen = cellSet{}
	for _, o := range c.knight {
		if t := s + o; landable[g.us][b.cell[t]] {
			g.addOnce(s, t)
		}
	}
	for _, o := range c.knight {
		m := s + o
		if b.cell[m] != g.own {
			continue
		}
		for _, o2 := range c.knight {
			t := m + o2
			x := b.cell[t]
			if t != s && landable[g.us][x] {
				g.addOnce(s, t) // bounce
			}
			if x == Empty {
				g.buf = append(g.buf, Move{From: uint8(s), To: uint8(m), Aux: uint8(t), Kind: Push})
			}
		}
	}
	b.cell[s] = p
}

// slider generates a bishop, rook or queen on s using directions
// dirs[lo:hi] (orthogonal 0..3, diagonal 4..7).
func (g *gen) slider(s int, p Piece, lo, hi int) {
	b, c := g.b, g.b.cfg
	if !g.hasMon {
		for _, d := range c.dirs[lo:hi] {
			t := s + d
			for b.cell[t] == Empty {
				g.add(s, t)
				t += d
			}
			if enemyOrdinary[g.us][b.cell[t]] {
				g.add(s, t)
			}
		}
		return
	}
	b.cell[s] = Empty
	g.seen = cellSet{}
	// Straight moves first, so that bounces to the same square are dropped.
	for _, d := range c.dirs[lo:hi] {
		g.walk(s, s, d)
	}
	for i := lo; i < hi; i++ {
		d := c.dirs[i]
		for m := s + d; ; m += d {
			x := b.cell[m]
			if x == Empty {
				continue
			}
			if x != g.own {
				break
			}
			// Push: the monster slides from m like the pusher, through
			// empty cells only.
			for _, e := range c.dirs[lo:hi] {
				for t := m + e; b.cell[t] == Empty; t += e {
					g.buf = append(g.buf, Move{From: uint8(s), To: uint8(m), Aux: uint8(t), Kind: Push})
				}
			}
			// Bounce: turn 90 degrees at m and walk on.
			for _, e := range c.perp[i] {
				g.walk(s, m, e)
			}
		}
	}
	b.cell[s] = p
}

// walk adds the destinations of the slider on s walking from cell a in
// direction d: own monsters are passed over, an enemy ordinary piece ends
// the walk as a capture, anything else ends it.
func (g *gen) walk(s, a, d int) {
	b := g.b
	for t := a + d; ; t += d {
		x := b.cell[t]
		if x == Empty {
			g.addOnce(s, t)
			continue
		}
		if x != g.own {
			if enemyOrdinary[g.us][x] {
				g.addOnce(s, t)
			}
			return
		}
	}
}

func (g *gen) monster(s int, p Piece) {
	b, c := g.b, g.b.cfg
	for _, d := range c.dirs {
		if t := s + d; b.cell[t] == Empty {
			g.add(s, t)
		}
	}
	b.cell[s] = Empty
	var landed cellSet // chain destinations over both kinds
	var queue [MaxWidth * MaxHeight]uint8
	for lo := 0; lo < 8; lo += 4 {
		var visited cellSet
		visited.add(s)
		queue[0] = uint8(s)
		n := 1
		for i := 0; i < n; i++ {
			a := int(queue[i])
			for _, d := range c.dirs[lo : lo+4] {
				over := a + d
				x := b.cell[over]
				if x == Empty || x == Wall {
					continue
				}
				l := over + d
				if b.cell[l] != Empty {
					continue
				}
				if x == g.enemyMon {
					g.monsterCapture(s, l, over)
				}
				if !visited.has(l) {
					visited.add(l)
					queue[n] = uint8(l)
					n++
				}
			}
		}
		for _, l := range queue[1:n] {
			if !landed.has(int(l)) {
				landed.add(int(l))
				g.add(s, int(l))
			}
		}
	}
	b.cell[s] = p
}

// monsterCapture adds the capture of the enemy monster on over by the
// monster from s, landing on l. A capture that returns to its start has
// only the removal as effect; of the monsters that can make it, the one
// whose route (s, hop to the mirror of s over the victim, hop back) is
// smallest in the canonical order of Tensor 4.3 makes the move.
func (g *gen) monsterCapture(s, l, over int) {
	m := Move{From: uint8(s), To: uint8(l), Aux: uint8(over), Kind: MonsterCapture}
	if l != s {
		g.buf = append(g.buf, m)
		return
	}
	c := g.b.cfg
	for _, i := range g.returns[:g.nReturns] {
		o := g.buf[i]
		if o.Aux != m.Aux {
			continue
		}
		os, ns := int(o.From), s
		oa, na := c.Index(2*over-os), c.Index(2*over-ns)
		if na < oa || (na == oa && c.Index(ns) < c.Index(os)) {
			g.buf[i] = m
		}
		return
	}
	g.returns[g.nReturns] = int32(len(g.buf))
	g.nReturns++
	g.buf = append(g.buf, m)
}

func (g *gen) castling() {
	b, c := g.b, g.b.cfg
	us := g.us
	ks := int(b.king[us])
	checked := false
	for w := Short; w <= Long; w++ {
		if b.castle&castleBit(us, w) == 0 {
			continue
		}
		rs := c.rookStart(us, w)
		if ks != c.kingStart(us) || b.cell[rs] != MakePiece(us, Rook) {
			continue
		}
		if !g.between(ks, rs) {
			continue
		}
		if !checked {
			if b.Attacked(ks, us.Other()) {
				return
			}
			checked = true
		}
		for _, f := range c.castleDests[w] {
			kt := c.cellAt(f, c.homeRank(us))
			rt := rookDest(ks, kt)
			if !g.vacant(kt, ks, rs) || !g.vacant(rt, ks, rs) || !g.crossable(ks, kt) {
				continue
			}
			g.buf = append(g.buf, Move{From: uint8(ks), To: uint8(kt), Aux: uint8(rs), Kind: Castle})
		}
	}
}

// between reports whether every cell strictly between a and z on one rank
// is empty or holds an own monster.
func (g *gen) between(a, z int) bool {
	if a > z {
		a, z = z, a
	}
	for s := a + 1; s < z; s++ {
		if x := g.b.cell[s]; x != Empty && x != g.own {
			return false
		}
	}
	return true
}

// vacant reports whether a castling destination is free: empty, or the
// king's or rook's own start cell.
func (g *gen) vacant(t, ks, rs int) bool {
	return t == ks || t == rs || g.b.cell[t] == Empty
}

// crossable reports whether the king may cross every cell strictly between
// ks and kt: not attacked, or guarded by an own monster standing there.
func (g *gen) crossable(ks, kt int) bool {
	step := 1
	if kt < ks {
		step = -1
	}
	for s := ks + step; s != kt; s += step {
		if g.b.cell[s] != g.own && g.b.Attacked(s, g.us.Other()) {
			return false
		}
	}
	return true
}
