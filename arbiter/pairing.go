package arbiter

import (
	"maps"
	"slices"

	"arbiter/rules"
)

// Pairing tells apart moves of several pieces that leave the same
// position, by the order in which the board saw the pieces leave and
// arrive (kvaa.md 7.3, choose(C, E)): a Kvaa turn of a placement and a
// step, @e3,d2-c3 or @c3,d2-e3, fills c3 and e3 and empties d2 either
// way. The window's changes are walked with the mover's pieces in hand: a
// lift of the mover's piece puts it in hand, and so does a piece taken
// from the mover's reserve tray; a piece set down is the first of the
// mover's pieces in hand (first lifted, first landed), or one brought
// from the reserve when the hand holds none of them; a piece landing and
// lifted again goes on from where it first came (one path); a lift of
// the opponent's piece takes it off the board. When the hand holds both
// a lifted piece and a reserve piece taken from its tray, either may be
// the one set down, and both are followed. The move is the one candidate
// made of the paths so built (rules.Legged); when the order leaves
// several, the player is asked.

// change is a change of one cell (a square's height, or a counted zone's
// count) that the board reported, in the window's order.
type change struct {
	cell     int
	from, to int
}

// record notes a change of cell i (a square, or a counted zone after
// them) to height h (not an adjustment's: squareChanged, zoneChanged).
func (s *Session) record(i, h int) {
	if len(s.changes) >= maxLog || s.obs[i].height == h {
		return
	}
	s.changes = append(s.changes, change{cell: i, from: s.obs[i].height, to: h})
}

// trimChanges forgets the window's changes once the board, its counted
// zones included, shows the turn's position again: what came before was
// undone (a piece lifted and put back, the board put right after a
// take-back), and the pieces' paths start from here.
func (s *Session) trimChanges(t *turn) {
	if len(s.changes) > 0 && signature(t.baseCells, s.obs, nil, false) == "" {
		s.changes = s.changes[:0]
	}
}

// pair narrows the candidates idx of turn t to the one whose paths the
// window's changes make, if exactly one is; otherwise it returns idx.
// Lost frames (lossy) may have lost changes: then nothing is narrowed.
func (s *Session) pair(t *turn, idx []int) []int {
	if len(idx) < 2 || s.lossy {
		return idx
	}
	ways, ok := s.pairedLegs(t)
	if !ok {
		return idx
	}
	var out []int
	for _, i := range idx {
		m, ok := t.cands[i].move.(rules.Legged)
		if !ok {
			return idx
		}
		if slices.ContainsFunc(ways, func(legs []rules.Leg) bool { return sameLegs(m.Legs(), legs) }) {
			out = append(out, i)
		}
	}
	if len(out) != 1 {
		return idx
	}
	s.note(s.now, "the order of the pieces' moves tells %s", t.pos.FormatMove(t.cands[out[0]].move))
	return out
}

// piece is a piece followed through the window: where it came from
// (NoSquare: the reserve), and whether it is the mover's.
type piece struct {
	from rules.Square
	own  bool
}

// walk is one way of pairing the window's changes: the pieces on the
// board by square, those in hand in the order they were taken, and the
// paths of the pieces taken off.
type walk struct {
	on   map[rules.Square]piece
	hand []piece
	off  []rules.Leg
}

func (w walk) clone() walk {
	return walk{on: maps.Clone(w.on), hand: slices.Clone(w.hand), off: slices.Clone(w.off)}
}

// legs returns the paths the walk ends with.
func (w walk) legs() []rules.Leg {
	legs := slices.Clone(w.off)
	for _, p := range w.hand {
		if p.from != rules.NoSquare {
			legs = append(legs, rules.Leg{From: p.from, To: rules.NoSquare})
		}
	}
	for sq, p := range w.on {
		if p.from != sq {
			legs = append(legs, rules.Leg{From: p.from, To: sq})
		}
	}
	return legs
}

// maxWays bounds the ways followed: a few pieces in hand at once.
const maxWays = 64

// pairedLegs builds the paths of the window's changes on a board of
// single pieces, every way the order leaves; ok is false when they
// cannot be followed (a stack, a piece lifted that the walk does not
// know, too many ways).
func (s *Session) pairedLegs(t *turn) ([][]rules.Leg, bool) {
	n := s.geo.Len()
	mover := t.pos.Turn()
	start := walk{on: map[rules.Square]piece{}}
	for sq, st := range t.base.Stacks {
		switch len(st) {
		case 0:
		case 1:
			start.on[rules.Square(sq)] = piece{from: rules.Square(sq), own: st[0].Color == mover}
		default:
			return nil, false
		}
	}
	ways := []walk{start}
	for _, c := range s.changes {
		var next []walk
		for _, w := range ways {
			more, ok := s.walkChange(w, c, n, mover)
			if !ok {
				return nil, false
			}
			next = append(next, more...)
		}
		if len(next) > maxWays {
			return nil, false
		}
		ways = next
	}
	out := make([][]rules.Leg, len(ways))
	for i, w := range ways {
		out[i] = w.legs()
	}
	return out, true
}

// walkChange takes change c on walk w and returns the ways it leaves; n
// is the number of squares, after which come the zones.
func (s *Session) walkChange(w walk, c change, n int, mover rules.Color) ([]walk, bool) {
	if c.cell >= n {
		return w.tray(c, s.geo.Zones()[c.cell-n], mover)
	}
	sq := rules.Square(c.cell)
	switch {
	case c.from == 1 && c.to == 0:
		return w.lift(sq)
	case c.from == 0 && c.to == 1:
		return w.land(sq), true
	}
	return nil, false
}

// tray takes change c of zone z: on the mover's reserve tray, a piece
// taken up, or put back.
func (w walk) tray(c change, z rules.Zone, mover rules.Color) ([]walk, bool) {
	if z.Kind != rules.Reserve || z.Owner != mover {
		return []walk{w}, true
	}
	w = w.clone()
	for range c.from - c.to {
		w.hand = append(w.hand, piece{from: rules.NoSquare, own: true})
	}
	for range c.to - c.from {
		k := slices.IndexFunc(w.hand, func(p piece) bool { return p.from == rules.NoSquare })
		if k < 0 {
			return nil, false
		}
		w.hand = slices.Delete(w.hand, k, k+1)
	}
	return []walk{w}, true
}

// lift takes the piece on sq: the mover's into the hand, the opponent's
// off the board.
func (w walk) lift(sq rules.Square) ([]walk, bool) {
	p, ok := w.on[sq]
	if !ok {
		return nil, false
	}
	w = w.clone()
	delete(w.on, sq)
	if p.own {
		w.hand = append(w.hand, p)
	} else {
		w.off = append(w.off, rules.Leg{From: p.from, To: rules.NoSquare})
	}
	return []walk{w}, true
}

// land sets a piece down on sq: the first lifted piece in hand, or one
// from the reserve in hand; either, when the hand holds both; one from
// the reserve when it holds none.
func (w walk) land(sq rules.Square) []walk {
	lifted := slices.IndexFunc(w.hand, func(p piece) bool { return p.from != rules.NoSquare })
	reserve := slices.IndexFunc(w.hand, func(p piece) bool { return p.from == rules.NoSquare })
	var out []walk
	for _, k := range []int{lifted, reserve} {
		if k >= 0 {
			v := w.clone()
			v.on[sq] = v.hand[k]
			v.hand = slices.Delete(v.hand, k, k+1)
			out = append(out, v)
		}
	}
	if len(out) == 0 {
		// Nothing in hand: a piece from the reserve.
		v := w.clone()
		v.on[sq] = piece{from: rules.NoSquare, own: true}
		out = append(out, v)
	}
	return out
}

// sameLegs reports whether two lists hold the same paths, in any order.
func sameLegs(a, b []rules.Leg) bool {
	if len(a) != len(b) {
		return false
	}
	rest := slices.Clone(b)
	for _, l := range a {
		k := slices.Index(rest, l)
		if k < 0 {
			return false
		}
		rest = slices.Delete(rest, k, k+1)
	}
	return true
}
