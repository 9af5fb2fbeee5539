package arbiter

import (
	"fmt"
	"slices"

	"arbiter/rules"
)

// candidate is one legal move of the turn with what a board would show
// after it. Candidates are worked out only for moves that could explain
// what the board shows, so a turn with hundreds of legal moves (Tavreli
// splits) costs little.
type candidate struct {
	move rules.Move
	next rules.Position
	sig  string // sensed signature of the position after the move
	// changed lists the squares whose stacks differ from the baseline;
	// hidden the ones among them whose sensed cell does not change
	// (an occupant replaced by another the board cannot tell apart): such
	// a move shows only through the lifts on those squares.
	changed []rules.Square
	hidden  []rules.Square
	// hands is the sensed signature of the hand stands alone after the
	// move: a tie-break among candidates, never a condition.
	hands string
	// cells is the sensed state after the move, worked out only to
	// compare a board that reported some top pieces as unknown (fitsAll).
	cells []cell
}

// turn is the baseline of the side to move and its legal moves.
type turn struct {
	pos       rules.Position
	caps      Caps
	base      rules.View
	baseCells []cell
	moves     []rules.Move
	cands     []*candidate // by move index; nil until worked out
	// origins are the squares from which some legal move starts.
	origins map[rules.Square]bool
	// hand marks the cells of the hand stands (shogi.md 6.6: the hands
	// are kept logically, their sensed counts are a cross-check); nil
	// when the board senses none.
	hand []bool
}

func newTurn(pos rules.Position, caps Caps, hand []bool) *turn {
	t := &turn{pos: pos, caps: caps, base: pos.View(), hand: hand}
	t.baseCells = caps.cells(t.base)
	return t
}

// sig is the signature of cells against the baseline, hand stands left
// out.
func (t *turn) sig(cells []cell) string { return signature(t.baseCells, cells, t.hand, false) }

// handSig is the signature of the hand stands alone.
func (t *turn) handSig(cells []cell) string {
	if t.hand == nil {
		return ""
	}
	return signature(t.baseCells, cells, t.hand, true)
}

// legal lists the legal moves on first use: most events (lifts, a hand in
// the air) need only the baseline.
func (t *turn) legal() []rules.Move {
	if t.origins == nil {
		t.moves = t.pos.Legal()
		t.cands = make([]*candidate, len(t.moves))
		t.origins = map[rules.Square]bool{}
		for _, m := range t.moves {
			if m.From() != rules.NoSquare {
				t.origins[m.From()] = true
			}
		}
	}
	return t.moves
}

// candidate works out move i.
func (t *turn) candidate(i int) (*candidate, error) {
	if c := t.cands[i]; c != nil {
		return c, nil
	}
	m := t.moves[i]
	next, err := t.pos.Play(m)
	if err != nil {
		return nil, fmt.Errorf("play legal move %s: %w", m, err)
	}
	v := next.View()
	cells := t.caps.cells(v)
	c := &candidate{move: m, next: next, changed: t.base.Changed(v, nil), sig: t.sig(cells), hands: t.handSig(cells)}
	for _, sq := range c.changed {
		if cells[sq] == t.baseCells[sq] {
			c.hidden = append(c.hidden, sq)
		}
	}
	t.cands[i] = c
	return c, nil
}

// isHand reports whether cell i is a hand stand's.
func (t *turn) isHand(i int) bool { return i < len(t.hand) && t.hand[i] }

// fitsAll reports whether cells show what the board would after
// candidate c, cell by cell, a top the board could not read fitting any
// (cell.fits); hand stands are left out, as in signatures.
func (t *turn) fitsAll(c *candidate, cells []cell) bool {
	if c.cells == nil {
		c.cells = t.caps.cells(c.next.View())
	}
	for i := range cells {
		if !t.isHand(i) && !cells[i].fits(c.cells[i]) {
			return false
		}
	}
	return true
}

// hasUnknown reports whether a board that senses identities reported
// some occupied cell's top as unknown: then signatures cannot be compared
// as text.
func (t *turn) hasUnknown(cells []cell) bool {
	if !t.caps.TopKind {
		return false
	}
	for i := 0; i < len(t.base.Stacks); i++ {
		if cells[i].unknown() {
			return true
		}
	}
	return false
}

// owner returns the colour of the top piece of sq at the baseline.
func (t *turn) owner(sq rules.Square) (rules.Color, bool) {
	p, ok := t.base.Top(sq)
	return p.Color, ok
}

// matchAll returns the candidates whose sensed state equals cells: only
// moves whose squares were changed or lifted are worked out. With lossy
// (frames were lost) a lift may be missing, so a destination need not
// have been seen lifted.
func (t *turn) matchAll(cells []cell, lifted map[rules.Square]bool, lossy bool) ([]int, error) {
	sig := t.sig(cells)
	unknown := t.hasUnknown(cells)
	touched := func(sq rules.Square) bool {
		return lifted[sq] || (int(sq) < len(cells) && !cells[sq].fits(t.baseCells[sq]))
	}
	var out []int
	for i, m := range t.legal() {
		// A piece that ends where it began (a Tensor monster's capture
		// that returns to its square) shows only on the squares it
		// changes elsewhere: its own need not have been lifted.
		returns := m.From() == m.To()
		if from := m.From(); from != rules.NoSquare && !touched(from) && !returns {
			continue
		}
		if to := m.To(); to != rules.NoSquare && !touched(to) && !lossy && !returns {
			continue
		}
		c, err := t.candidate(i)
		if err != nil {
			return nil, err
		}
		if c.sig == sig || unknown && t.fitsAll(c, cells) {
			out = append(out, i)
		}
	}
	return out, nil
}

// match returns the candidates whose sensed state equals cells, narrowed
// by the lifts of the window as tensor.md 5.4 and shogi.md 6.3 describe:
// first drop candidates whose hidden changes were never lifted (unless
// that drops them all: a missed lift is no reason to see nothing), then
// prefer those whose hidden changes are exactly the lifted-and-refilled
// squares, then those whose origin was lifted.
func (t *turn) match(cells []cell, lifted map[rules.Square]bool, lossy bool) ([]int, error) {
	all, err := t.matchAll(cells, lifted, lossy)
	if err == nil && len(all) > 1 && t.hand != nil {
		// The stands choose among moves the squares cannot tell apart,
		// when they agree with one: a piece still in a hand is no reason
		// to see nothing.
		hs := t.handSig(cells)
		if h := filter(all, func(i int) bool { return t.cands[i].hands == hs }); len(h) > 0 {
			all = h
		}
	}
	if err != nil || len(all) <= 1 || lossy {
		// Lifts lost with frames cannot tell look-alike moves apart: ask.
		return all, err
	}
	c2 := filter(all, func(i int) bool { return t.hiddenLifted(i, lifted) })
	if len(c2) == 0 {
		c2 = all
	}
	if len(c2) == 1 {
		return c2, nil
	}
	refilled := t.refilled(cells, lifted)
	c3 := filter(c2, func(i int) bool { return t.hiddenAre(i, refilled) })
	if len(c3) == 1 {
		return c3, nil
	}
	if len(c3) > 1 {
		c2 = c3
	}
	c4 := filter(c2, func(i int) bool {
		from := t.cands[i].move.From()
		return from != rules.NoSquare && lifted[from]
	})
	if len(c4) >= 1 && len(c4) < len(c2) {
		return c4, nil
	}
	return c2, nil
}

// hiddenLifted reports whether every hidden change of candidate i was
// lifted.
func (t *turn) hiddenLifted(i int, lifted map[rules.Square]bool) bool {
	for _, sq := range t.cands[i].hidden {
		if !lifted[sq] {
			return false
		}
	}
	return true
}

// refilled returns the squares lifted that held pieces before and hold
// pieces again.
func (t *turn) refilled(cells []cell, lifted map[rules.Square]bool) map[rules.Square]bool {
	refilled := map[rules.Square]bool{}
	for sq := range lifted {
		if int(sq) < len(t.baseCells) && t.baseCells[sq].height > 0 && cells[sq].height > 0 {
			refilled[sq] = true
		}
	}
	return refilled
}

// hiddenAre reports whether the hidden changes of candidate i are exactly
// the squares sqs.
func (t *turn) hiddenAre(i int, sqs map[rules.Square]bool) bool {
	h := t.cands[i].hidden
	if len(h) != len(sqs) {
		return false
	}
	for _, sq := range h {
		if !sqs[sq] {
			return false
		}
	}
	return true
}

// swapLifted reports whether a legal move that changes nothing a board
// senses (a Tensor push that swaps the pusher and the monster) had every
// square it changes lifted: then a press with the board unchanged may
// still be that move.
func (t *turn) swapLifted(lifted map[rules.Square]bool) bool {
	if len(lifted) < 2 {
		return false
	}
	for i, m := range t.legal() {
		if from := m.From(); from == rules.NoSquare || !lifted[from] {
			continue
		}
		c, err := t.candidate(i)
		if err != nil || c.sig != "" || len(c.hidden) == 0 {
			continue
		}
		all := true
		for _, sq := range c.hidden {
			all = all && lifted[sq]
		}
		if all {
			return true
		}
	}
	return false
}

func filter(idx []int, keep func(int) bool) []int {
	var out []int
	for _, i := range idx {
		if keep(i) {
			out = append(out, i)
		}
	}
	return out
}

// movesFrom reports whether some legal move starts on sq.
func (t *turn) movesFrom(sq rules.Square) bool {
	t.legal()
	return t.origins[sq]
}

// capturable reports whether some legal move takes the opponent's piece
// on sq off it: the square's top piece is then another, or none.
func (t *turn) capturable(sq rules.Square) bool {
	top, ok := t.base.Top(sq)
	if !ok {
		return false
	}
	for i := range t.legal() {
		c, err := t.candidate(i)
		if err != nil || !slices.Contains(c.changed, sq) {
			continue
		}
		if now, ok := c.next.View().Top(sq); !ok || now.Color != top.Color {
			return true
		}
	}
	return false
}

// involves reports whether some legal move from a also moves the piece on
// b, which is not its destination (castling: the Volkhv's move that also
// moves the Ratoborets).
func (t *turn) involves(a, b rules.Square) bool {
	for i, m := range t.legal() {
		if m.From() != a || m.To() == b {
			continue
		}
		c, err := t.candidate(i)
		if err == nil && slices.Contains(c.changed, b) {
			return true
		}
	}
	return false
}

// opponentsLift reports whether a lift of sq, once candidate c is made,
// is the opponent's: sq holds one of the opponent's pieces, or a piece of
// the mover's that a legal reply takes away without landing on it (the
// victim of an en passant capture, which a player may lift first).
func (s *Session) opponentsLift(c *candidate, sq rules.Square) bool {
	top, ok := c.next.View().Top(sq)
	if !ok {
		return false
	}
	if top.Color == c.next.Turn() {
		return true
	}
	reply := newTurn(c.next, s.cfg.Caps, s.hand)
	for i, m := range reply.legal() {
		if m.From() == sq || m.To() == sq {
			continue
		}
		r, err := reply.candidate(i)
		if err == nil && slices.Contains(r.changed, sq) && len(r.next.View().Stacks[sq]) < len(reply.base.Stacks[sq]) {
			return true
		}
	}
	return false
}
