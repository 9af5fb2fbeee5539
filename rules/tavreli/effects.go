package tavreli

import "arbiter/rules"

// EffectKind is a consequence of a move that leaves no physical trace and
// that the arbiter should announce (spec 5.4 items 6 and 7).
type EffectKind uint8

// The kinds of effect.
const (
	// Promotion: a Ratnik became the piece of its mark.
	Promotion EffectKind = iota + 1
	// Demotion: a promoted Ratnik was taken prisoner and is a Ratnik again.
	Demotion
	// Liberation: a piece of the side not moving became the top of the
	// origin square and is active again.
	Liberation
)

// String returns "promotion", "demotion" or "liberation".
func (k EffectKind) String() string {
	switch k {
	case Promotion:
		return "promotion"
	case Demotion:
		return "demotion"
	case Liberation:
		return "liberation"
	}
	return "effect"
}

// Effect is one consequence of a move: what happened to which piece on
// which square. Piece is the piece after the move.
type Effect struct {
	Kind   EffectKind
	Square rules.Square
	Piece  Piece
}

// Effects returns the invisible consequences of the legal move m: the
// promotions, demotions and liberations it causes, in square order
// (origin-side effects and destination effects of the same square kind
// together). The board is unchanged.
func (b *Board) Effects(m Move) []Effect {
	if m.kind == CastleShort || m.kind == CastleLong {
		return nil
	}
	c := b.side
	u := b.Make(m)
	defer b.Unmake(m, u)
	var out []Effect
	add := func(k EffectKind, sq int8, p uint8) {
		out = append(out, Effect{Kind: k, Square: rules.Square(sq), Piece: b.piece(p)})
	}
	if u.rem != 0 && b.color(u.rem) != c {
		add(Liberation, m.from, u.rem)
	}
	for _, sq := range [2]int8{m.from, m.to} {
		for p := b.top[sq]; p != 0; p = b.below[p] {
			if u.toggled&(1<<p) == 0 {
				continue
			}
			if b.role(p) == Ratnik {
				add(Demotion, sq, p)
			} else {
				add(Promotion, sq, p)
			}
		}
	}
	return out
}

// FirstPart returns the position a board shows after the first part of a
// compound move (spec 3.2, D20): for castling, the Volkhv on its
// destination with the Ratoborets still at home; for en passant, the
// captured Ratnik moved back onto the square it crossed with the capturer
// still at home. It reports false for other moves. The board is unchanged.
func (b *Board) FirstPart(m Move) (Board, bool) {
	nb := *b
	switch m.kind {
	case CastleShort, CastleLong:
		c := b.side
		ks, kd, _, _ := castleSquares(c, m.kind)
		nb.top[kd], nb.height[kd] = nb.top[ks], 1
		nb.top[ks], nb.height[ks] = 0, 0
		nb.king[c] = kd
	case EnPassant:
		y3 := m.to - forward(b.side)
		v := nb.top[y3]
		nb.top[y3] = nb.below[v]
		nb.height[y3]--
		nb.below[v] = 0
		nb.top[m.to], nb.height[m.to] = v, 1
	default:
		return Board{}, false
	}
	nb.finish()
	return nb, true
}
