package chesscore

// Legal appends to buf the legal moves of the side to move and returns it.
// Moves are in generation order, which is deterministic.
func (b *Board) Legal(buf []Move) []Move {
	start := len(buf)
	buf = b.Pseudo(buf)
	return buf[:start+len(b.filterLegal(buf[start:]))]
}

// filterLegal keeps, in place, the moves of moves that do not leave the
// mover's king attacked and returns the kept prefix.
func (b *Board) filterLegal(moves []Move) []Move {
	ks := int(b.king[b.turn])
	out := moves[:0]
	if b.monsters[0]|b.monsters[1] != 0 {
		// Bounce lines make pins irregular: test every move.
		for _, m := range moves {
			if b.safeAfter(m) {
				out = append(out, m)
			}
		}
		return out
	}
	var pinned cellSet
	inCheck, hasPins := b.checkAndPins(ks, &pinned)
	for _, m := range moves {
		if !inCheck && int(m.From) != ks && m.Kind != EnPassant && (!hasPins || !pinned.has(int(m.From))) {
			out = append(out, m)
			continue
		}
		if b.safeAfter(m) {
			out = append(out, m)
		}
	}
	return out
}

// safeAfter reports whether the mover's king is safe after m.
func (b *Board) safeAfter(m Move) bool {
	us := b.turn
	u := b.Make(m)
	ok := !b.Attacked(int(b.king[us]), us.Other())
	b.Unmake(m, u)
	return ok
}

// checkAndPins reports whether the mover's king on ks is in check, and
// marks the cells of the mover's pieces that stand alone between the king
// and an enemy slider, reporting whether there is any. It is valid only
// with no monsters on the board, and walks each ray from the king once.
func (b *Board) checkAndPins(ks int, set *cellSet) (inCheck, hasPins bool) {
	c := b.cfg
	them := b.turn.Other()
	rook, bishop, queen := MakePiece(them, Rook), MakePiece(them, Bishop), MakePiece(them, Queen)
	for i, d := range c.dirs {
		slider := rook
		if i >= 4 {
			slider = bishop
		}
		s := ks + d
		for b.cell[s] == Empty {
			s += d
		}
		p := b.cell[s]
		if p == Wall {
			continue
		}
		if p.Color() == them {
			if p == slider || p == queen || (s == ks+d && p == MakePiece(them, King)) {
				inCheck = true
			}
			continue
		}
		t := s + d
		for b.cell[t] == Empty {
			t += d
		}
		if x := b.cell[t]; x == slider || x == queen {
			set.add(s)
			hasPins = true
		}
	}
	if !inCheck {
		inCheck = b.pawnAttacks(ks, them) || b.knightAttacks(ks, them)
	}
	return inCheck, hasPins
}

// Perft counts the leaves of the legal move tree of the given depth, with
// bulk counting at the last ply (the number of legal moves of a node at
// depth 1 is its leaf count, without making them).
func (b *Board) Perft(depth int) uint64 {
	if depth <= 0 {
		return 1
	}
	bufs := make([][]Move, depth)
	for i := range bufs {
		bufs[i] = make([]Move, 0, maxMovesGuess)
	}
	return b.perft(depth, bufs)
}

func (b *Board) perft(depth int, bufs [][]Move) uint64 {
	moves := b.Legal(bufs[depth-1][:0])
	bufs[depth-1] = moves[:0]
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

// CheckSuffix returns "#" if the legal move m mates, "+" if it checks, and
// "" otherwise: the check mark of SAN and TLAN.
func (b *Board) CheckSuffix(m Move) string {
	u := b.Make(m)
	defer b.Unmake(m, u)
	if !b.InCheck() {
		return ""
	}
	var buf [maxMovesGuess]Move
	if len(b.Legal(buf[:0])) == 0 {
		return "#"
	}
	return "+"
}
