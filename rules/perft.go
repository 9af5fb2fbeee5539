package rules

import (
	"fmt"
	"slices"
)

// Perfter is implemented by positions whose game has a fast perft. [Perft]
// and [Divide] use it when present.
type Perfter interface {
	// Perft returns the number of leaf nodes of the legal move tree of the
	// given depth.
	Perft(depth int) uint64
}

// Perft counts the leaves of the legal move tree of pos to depth.
func Perft(pos Position, depth int) uint64 {
	if p, ok := pos.(Perfter); ok {
		return p.Perft(depth)
	}
	if depth <= 0 {
		return 1
	}
	moves := pos.Legal()
	if depth == 1 {
		return uint64(len(moves))
	}
	var n uint64
	for _, m := range moves {
		next, err := pos.Play(m)
		if err != nil {
			panic(fmt.Sprintf("rules: legal move %s does not play: %v", m, err))
		}
		n += Perft(next, depth-1)
	}
	return n
}

// DivideEntry is one line of a perft divide: a legal move and the number of
// leaves below it.
type DivideEntry struct {
	Move  string
	Nodes uint64
}

// Divide returns, for each legal move of pos, the perft of depth-1 below it,
// sorted by move text so that two engines' lists can be compared line by
// line.
func Divide(pos Position, depth int) ([]DivideEntry, error) {
	if depth < 1 {
		return nil, fmt.Errorf("divide depth %d: must be at least 1", depth)
	}
	moves := pos.Legal()
	out := make([]DivideEntry, 0, len(moves))
	for _, m := range moves {
		next, err := pos.Play(m)
		if err != nil {
			return nil, fmt.Errorf("play legal move %s: %w", m, err)
		}
		out = append(out, DivideEntry{Move: m.String(), Nodes: Perft(next, depth-1)})
	}
	slices.SortFunc(out, func(a, b DivideEntry) int {
		switch {
		case a.Move < b.Move:
			return -1
		case a.Move > b.Move:
			return 1
		}
		return 0
	})
	return out, nil
}

// CountKey returns how many of the positions in history, and pos itself,
// have pos's key. Games use it for repetition rules.
func CountKey(history []Position, pos Position) int {
	k := pos.Key()
	n := 1
	for _, h := range history {
		if h.Key() == k {
			n++
		}
	}
	return n
}
