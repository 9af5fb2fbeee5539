package kvaa

import (
	"fmt"
	"math/bits"
)

// MaxTurns bounds the number of legal turns of any position (at most three
// counters that may move while a placement is owed, twelve targets each,
// eleven cells to place on); a buffer of this capacity never grows.
const MaxTurns = 512

// moves appends the moves (4.3) of the side owning own against opp: captures
// along the scheme's jump lines, and, unless captures are compulsory and one
// exists, steps to empty neighbours other than the forbidden step. Counters
// on the cells of excl may not move.
func (g *Game) moves(buf []Turn, own, opp uint16, forbid Step, excl uint16) []Turn {
	empty := allCells &^ (own | opp)
	n0 := len(buf)
	for m := own &^ excl; m != 0; m &= m - 1 {
		s := Cell(bits.TrailingZeros16(m))
		for _, j := range g.tab.jumps[s] {
			if opp&bit(j.mid) != 0 && empty&bit(j.to) != 0 {
				buf = append(buf, Turn{s, j.to, j.mid, NoCell, false})
			}
		}
	}
	if g.cfg.Capture == Compulsory && len(buf) > n0 {
		return buf
	}
	for m := own &^ excl; m != 0; m &= m - 1 {
		s := Cell(bits.TrailingZeros16(m))
		to := g.tab.neigh[s] & empty
		if forbid.From == s && !forbid.None() {
			to &^= bit(forbid.To)
		}
		for ; to != 0; to &= to - 1 {
			buf = append(buf, Turn{s, Cell(bits.TrailingZeros16(to)), NoCell, NoCell, false})
		}
	}
	return buf
}

// appendPlacements appends a bare placement on every cell of cells.
func appendPlacements(buf []Turn, cells uint16) []Turn {
	for ; cells != 0; cells &= cells - 1 {
		buf = append(buf, PlaceTurn(Cell(bits.TrailingZeros16(cells))))
	}
	return buf
}

// Turns appends the legal turns of s to buf and returns it (4.7). The order
// is deterministic. It does not allocate when buf has room for [MaxTurns].
func (g *Game) Turns(s *State, buf []Turn) []Turn {
	x := s.Turn
	own, opp, forbid := s.Occ[x], s.Occ[x^1], s.Forbidden[x]
	if !s.MayPlace(x) {
		return g.moves(buf, own, opp, forbid, 0)
	}
	empty := allCells &^ (own | opp)
	switch g.cfg.Placement {
	case MoveThenPlace:
		return g.moveThenPlace(buf, own, opp, forbid, empty)
	case PlaceThenMove:
		return g.placeThenMove(buf, own, opp, forbid, empty)
	case PlaceInstead:
		return appendPlacements(buf, empty)
	case Deferred:
		return g.deferred(buf, own, opp, forbid, empty)
	}
	panic(fmt.Sprintf("kvaa: placement variant %d", g.cfg.Placement)) // New validates it
}

// moveThenPlace appends the turns of placement variant MoveThenPlace: each
// move followed by a placement on any cell empty after it, or a placement
// alone when there is no move (D-10).
func (g *Game) moveThenPlace(buf []Turn, own, opp uint16, forbid Step, empty uint16) []Turn {
	var scratch [64]Turn
	ms := g.moves(scratch[:0], own, opp, forbid, 0)
	if len(ms) == 0 { // D-10: the placement stands alone
		return appendPlacements(buf, empty)
	}
	for _, m := range ms {
		free := (empty | bit(m.from)) &^ bit(m.to)
		if m.over != NoCell {
			free |= bit(m.over)
		}
		for ; free != 0; free &= free - 1 {
			buf = append(buf, m.WithPlacement(Cell(bits.TrailingZeros16(free)), false))
		}
	}
	return buf
}

// placeThenMove appends the turns of placement variant PlaceThenMove: a
// placement on each empty cell followed by each move then possible, and a
// placement alone where none is (per placement, or only when no placement
// allows a move, by the P2 fallback option).
func (g *Game) placeThenMove(buf []Turn, own, opp uint16, forbid Step, empty uint16) []Turn {
	n0 := len(buf)
	var alone uint16
	for e := empty; e != 0; e &= e - 1 {
		p := Cell(bits.TrailingZeros16(e))
		n := len(buf)
		buf = g.moves(buf, own|bit(p), opp, forbid, bit(p))
		for i := n; i < len(buf); i++ {
			buf[i].place, buf[i].placeFirst = p, true
		}
		if len(buf) == n {
			alone |= bit(p)
		}
	}
	if g.cfg.P2Fallback == PerPlacement || len(buf) == n0 {
		return appendPlacements(buf, alone)
	}
	return buf
}

// deferred appends the turns of placement variant Deferred: the moves,
// then the placements, which a compulsory capture blocks when the P4
// option says so.
func (g *Game) deferred(buf []Turn, own, opp uint16, forbid Step, empty uint16) []Turn {
	n0 := len(buf)
	buf = g.moves(buf, own, opp, forbid, 0)
	if g.cfg.Capture == Compulsory && g.cfg.P4CaptureBlocksPlacement && len(buf) > n0 && buf[n0].over != NoCell {
		return buf // moves lists captures first, and only captures here
	}
	return appendPlacements(buf, empty)
}

// hasTurn reports whether the side to move in s has a legal turn. A side
// that may place always has one: the field has 13 cells and at most 8
// counters, and every variant lets a side that may place do so somehow.
func (g *Game) hasTurn(s *State) bool {
	x := s.Turn
	if s.MayPlace(x) {
		return true
	}
	var scratch [64]Turn
	return len(g.moves(scratch[:0], s.Occ[x], s.Occ[x^1], s.Forbidden[x], 0)) > 0
}

// Apply plays t on s (4.8). t must be a legal turn of s.
func (g *Game) Apply(s *State, t Turn) {
	x := s.Turn
	y := x ^ 1
	s.Forbidden[x] = noStep
	if t.place != NoCell && t.placeFirst {
		s.Occ[x] |= bit(t.place)
		s.Reserve[x]--
	}
	if t.from != NoCell {
		s.Occ[x] = s.Occ[x]&^bit(t.from) | bit(t.to)
		if t.over != NoCell {
			s.Occ[y] &^= bit(t.over)
			if f := s.Forbidden[y]; !f.None() && f.From == t.over {
				s.Forbidden[y] = noStep // its counter is gone
			}
		} else if g.cfg.MirrorRule {
			s.Forbidden[x] = Step{t.to, t.from}
		}
	}
	if t.place != NoCell && !t.placeFirst {
		s.Occ[x] |= bit(t.place)
		s.Reserve[x]--
	}
	if t.over != NoCell || t.place != NoCell {
		s.Quiet = 0
	} else {
		s.Quiet++
	}
	if x != g.cfg.First {
		s.Number++
	}
	s.Turn = y
}

// Legal reports whether t is a legal turn of s.
func (g *Game) Legal(s *State, t Turn) bool {
	var buf [MaxTurns]Turn
	for _, u := range g.Turns(s, buf[:0]) {
		if u == t {
			return true
		}
	}
	return false
}

// Perft returns the number of leaves of the legal turn tree of s to depth.
// Like every perft it ignores the rules that look at the game's past (no
// progress, repetition): it counts turns, not games.
func (g *Game) Perft(s *State, depth int) uint64 { return g.perft(*s, depth) }

// perft takes the state by value: a pointer to a local passed down a
// recursion would move every frame's state to the heap.
func (g *Game) perft(s State, depth int) uint64 {
	if depth <= 0 {
		return 1
	}
	var buf [MaxTurns]Turn
	ts := g.Turns(&s, buf[:0])
	if depth == 1 {
		return uint64(len(ts))
	}
	var n uint64
	for _, t := range ts {
		next := s
		g.Apply(&next, t)
		n += g.perft(next, depth-1)
	}
	return n
}
