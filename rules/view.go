package rules

import (
	"slices"
	"strings"
)

// View is the physical picture of a position: what a perfect sensor board
// would see. Stacks holds, for every square, the pieces on it from bottom
// to top (nil when empty); Zones holds, for every off-board zone of the
// game's [Geometry], its pieces in canonical order (see [Piece.Less]).
//
// Sensor boards see less than a View: some only stack heights, some also
// the top piece. Code that compares a board with a View reduces the View to
// what the board can sense.
type View struct {
	Stacks [][]Piece
	Zones  [][]Piece
}

// NewView returns an empty view for the geometry g.
func NewView(g *Geometry) View {
	return View{
		Stacks: make([][]Piece, g.Len()),
		Zones:  make([][]Piece, len(g.Zones())),
	}
}

// Height returns the number of pieces on sq.
func (v View) Height(sq Square) int { return len(v.Stacks[sq]) }

// Top returns the top piece of sq, and false if sq is empty.
func (v View) Top(sq Square) (Piece, bool) {
	s := v.Stacks[sq]
	if len(s) == 0 {
		return Piece{}, false
	}
	return s[len(s)-1], true
}

// Heights appends the height of every square to dst and returns it.
func (v View) Heights(dst []int) []int {
	for _, s := range v.Stacks {
		dst = append(dst, len(s))
	}
	return dst
}

// Total returns the number of pieces on the board, zones excluded.
func (v View) Total() int {
	n := 0
	for _, s := range v.Stacks {
		n += len(s)
	}
	return n
}

// Equal reports whether v and w show the same stacks and zone contents.
func (v View) Equal(w View) bool {
	if len(v.Stacks) != len(w.Stacks) || len(v.Zones) != len(w.Zones) {
		return false
	}
	for i := range v.Stacks {
		if !slices.Equal(v.Stacks[i], w.Stacks[i]) {
			return false
		}
	}
	for i := range v.Zones {
		if !slices.Equal(v.Zones[i], w.Zones[i]) {
			return false
		}
	}
	return true
}

// Changed appends to dst every square whose stack differs between v and w,
// in square order, and returns it.
func (v View) Changed(w View, dst []Square) []Square {
	for i := range v.Stacks {
		if !slices.Equal(v.Stacks[i], w.Stacks[i]) {
			dst = append(dst, Square(i))
		}
	}
	return dst
}

// Clone returns a deep copy of v.
func (v View) Clone() View {
	c := View{Stacks: make([][]Piece, len(v.Stacks)), Zones: make([][]Piece, len(v.Zones))}
	for i, s := range v.Stacks {
		c.Stacks[i] = slices.Clone(s)
	}
	for i, z := range v.Zones {
		c.Zones[i] = slices.Clone(z)
	}
	return c
}

// SortZones puts every zone's contents in canonical order. Games call it
// after filling a view.
func (v View) SortZones() {
	for _, z := range v.Zones {
		slices.SortFunc(z, func(a, b Piece) int {
			switch {
			case a.Less(b):
				return -1
			case b.Less(a):
				return 1
			}
			return 0
		})
	}
}

// Format draws the view as text, one square a line for non-empty squares
// ("e4: P(H) q"), then one line per non-empty zone. Square names come
// from g.
func (v View) Format(g *Geometry) string {
	var b strings.Builder
	for i, s := range v.Stacks {
		if len(s) == 0 {
			continue
		}
		b.WriteString(g.Name(Square(i)))
		b.WriteByte(':')
		for _, p := range s {
			b.WriteByte(' ')
			b.WriteString(p.String())
		}
		b.WriteByte('\n')
	}
	for i, z := range v.Zones {
		if len(z) == 0 {
			continue
		}
		b.WriteString(g.Zones()[i].Name)
		b.WriteByte(':')
		for _, p := range z {
			b.WriteByte(' ')
			b.WriteString(p.String())
		}
		b.WriteByte('\n')
	}
	return b.String()
}
