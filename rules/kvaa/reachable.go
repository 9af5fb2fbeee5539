package kvaa

// Census counts the positions reachable from a start position.
type Census struct {
	// Positions is the number of distinct positions, identified as for
	// repetition (board, reserves, side to move, forbidden steps).
	Positions int
	// Terminal is how many of them end the game by the position alone
	// ([Game.Judge]: all captured, blocked, mirror-blocked, mutual block).
	Terminal int
	// Turns is the number of (position, legal turn) pairs.
	Turns int
}

// Reachable enumerates every position reachable from start by legal turns.
// Positions are told apart by their repetition key, so the quiet-ply count
// and turn number are ignored, and so are the rules that look at the past
// (no progress, repetition): they end games, they do not make positions.
// It keeps every key in memory, 16 to 24 bytes a position: the default game
// from the standard start has about 247 million positions.
func (g *Game) Reachable(start State) Census { return g.explore(start, nil) }

// explore is [Game.Reachable], calling visit, if not nil, with every
// position and its legal turns.
func (g *Game) explore(start State, visit func(s State, ts []Turn)) Census {
	seen := newKeySet(1 << 16)
	seen.add(start.key())
	var c Census
	var buf [MaxTurns]Turn
	for i := 0; i < len(seen.order); i++ {
		s := stateFromKey(seen.order[i])
		// A position ends the game by itself exactly when the side to move
		// has no legal turn: a side with nothing left has none either.
		ts := g.Turns(&s, buf[:0])
		if visit != nil {
			visit(s, ts)
		}
		if len(ts) == 0 {
			c.Terminal++
			continue
		}
		c.Turns += len(ts)
		for _, t := range ts {
			next := s
			g.Apply(&next, t)
			seen.add(next.key())
		}
	}
	c.Positions = len(seen.order)
	return c
}

// keySet is an insert-only open-addressing set of position keys that also
// keeps the keys in insertion order, which serves as the search's queue.
// Position keys use 51 bits, so key+1 is never zero and zero marks a free
// slot.
type keySet struct {
	slots []uint64
	shift uint
	order []uint64
}

func newKeySet(size int) *keySet {
	bits := uint(0)
	for 1<<bits < size {
		bits++
	}
	return &keySet{slots: make([]uint64, 1<<bits), shift: 64 - bits}
}

// add inserts k and reports whether it was new.
func (s *keySet) add(k uint64) bool {
	if 2*len(s.order) >= len(s.slots) {
		s.grow()
	}
	if !s.insert(k + 1) {
		return false
	}
	s.order = append(s.order, k)
	return true
}

func (s *keySet) insert(v uint64) bool {
	mask := uint64(len(s.slots) - 1)
	for i := (v * 0x9e3779b97f4a7c15) >> s.shift; ; i = (i + 1) & mask {
		switch s.slots[i] {
		case 0:
			s.slots[i] = v
			return true
		case v:
			return false
		}
	}
}

func (s *keySet) grow() {
	old := s.slots
	s.slots = make([]uint64, 2*len(old))
	s.shift--
	for _, v := range old {
		if v != 0 {
			s.insert(v)
		}
	}
}
