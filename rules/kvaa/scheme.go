package kvaa

import (
	"fmt"
	"strings"
)

// Class is a class of one-cell step (2.7). Diagonal steps are allowed in
// every scheme; a scheme is the set of orthogonal classes it adds.
type Class uint8

const (
	// Diagonal is the standard step of scheme R.2: to a cell touching at a
	// corner of the checkerboard view.
	Diagonal Class = iota
	// Ring is an orthogonal step from border cell to border cell.
	Ring
	// Spoke is an orthogonal step between the hub c3 and an edge-middle cell.
	Spoke
	// Inner is an orthogonal step between two centre cells.
	Inner
)

var classNames = [...]string{Diagonal: "D", Ring: "RING", Spoke: "SPOKE", Inner: "INNER"}

// String returns the class's name as written in a custom scheme: "D",
// "RING", "SPOKE" or "INNER".
func (c Class) String() string {
	if int(c) < len(classNames) {
		return classNames[c]
	}
	return fmt.Sprintf("class(%d)", c)
}

// link is an undirected step between neighbouring cells.
type link struct {
	a, b  Cell
	class Class
}

// links is the table of 2.7: every pair of neighbouring cells, each with its
// one class. Totals: 16 D, 8 RING, 4 SPOKE, 4 INNER.
var links = [...]link{
	{A1, B2, Diagonal}, {C1, B2, Diagonal}, {C1, D2, Diagonal}, {E1, D2, Diagonal},
	{B2, A3, Diagonal}, {B2, C3, Diagonal}, {D2, C3, Diagonal}, {D2, E3, Diagonal},
	{A3, B4, Diagonal}, {C3, B4, Diagonal}, {C3, D4, Diagonal}, {E3, D4, Diagonal},
	{B4, A5, Diagonal}, {B4, C5, Diagonal}, {D4, C5, Diagonal}, {D4, E5, Diagonal},

	{A1, C1, Ring}, {C1, E1, Ring}, {A5, C5, Ring}, {C5, E5, Ring},
	{A1, A3, Ring}, {A3, A5, Ring}, {E1, E3, Ring}, {E3, E5, Ring},

	{C3, C1, Spoke}, {C3, A3, Spoke}, {C3, E3, Spoke}, {C3, C5, Spoke},

	{B2, D2, Inner}, {B2, B4, Inner}, {D2, D4, Inner}, {B4, D4, Inner},
}

// jumpLine is a straight line of three cells along which a capture jumps,
// in either direction (2.9).
type jumpLine struct {
	a, mid, b Cell
	class     Class
}

// jumpLines is the table of 2.9, each line once: 10 D, 4 RING, 2 SPOKE.
// INNER links never line up, so INNER adds no captures (DECISION D-5).
var jumpLines = [...]jumpLine{
	{A1, B2, C3, Diagonal}, {C3, D4, E5, Diagonal}, {B2, C3, D4, Diagonal},
	{E1, D2, C3, Diagonal}, {C3, B4, A5, Diagonal}, {D2, C3, B4, Diagonal},
	{C1, B2, A3, Diagonal}, {C1, D2, E3, Diagonal}, {A3, B4, C5, Diagonal},
	{E3, D4, C5, Diagonal},

	{A1, C1, E1, Ring}, {A5, C5, E5, Ring}, {A1, A3, A5, Ring}, {E1, E3, E5, Ring},

	{C1, C3, C5, Spoke}, {A3, C3, E3, Spoke},
}

// Scheme is a movement scheme (4.3.3, DECISION D-4): the set of orthogonal
// classes allowed besides the diagonal steps. Combined schemes are the union
// of their classes; any subset is a valid custom scheme.
type Scheme uint8

// The named schemes of the spec.
const (
	R2 Scheme = 0
	R3 Scheme = 1 << (Inner - 1)
	R4 Scheme = 1<<(Ring-1) | 1<<(Spoke-1)
	R5 Scheme = R4 | R3
	R7 Scheme = 1 << (Ring - 1)
)

// allSchemes is the number of schemes: every subset of the three
// orthogonal classes.
const allSchemes = 1 << Inner

// classBit returns the scheme that adds only the orthogonal class c.
func classBit(c Class) Scheme { return 1 << (c - 1) }

var schemeNames = []struct {
	name string
	s    Scheme
}{{"R2", R2}, {"R3", R3}, {"R4", R4}, {"R5", R5}, {"R7", R7}}

// Allows reports whether steps of class c are allowed.
func (s Scheme) Allows(c Class) bool { return c == Diagonal || s&classBit(c) != 0 }

// String returns the scheme's name if it is one of R2, R3, R4, R5, R7, and
// otherwise the custom form listing its classes, e.g. "D+RING+INNER".
// [ParseScheme] reads both.
func (s Scheme) String() string {
	for _, n := range schemeNames {
		if n.s == s {
			return n.name
		}
	}
	var b strings.Builder
	b.WriteString("D")
	for c := Ring; c <= Inner; c++ {
		if s.Allows(c) {
			b.WriteString("+")
			b.WriteString(c.String())
		}
	}
	return b.String()
}

// ParseScheme reads a scheme: a named scheme (R2, R3, R4, R5, R7, also
// written R.2 etc.), a "+"-joined combination of them (R3+R7), or a custom
// set of classes (D+RING+INNER); names and classes may be mixed. Case is
// ignored.
func ParseScheme(text string) (Scheme, error) {
	var s Scheme
	if strings.TrimSpace(text) == "" {
		return 0, fmt.Errorf("scheme: empty")
	}
parts:
	for i, part := range strings.Split(text, "+") {
		p := strings.ToUpper(strings.TrimSpace(part))
		p = strings.Replace(p, "R.", "R", 1)
		for _, n := range schemeNames {
			if p == n.name {
				s |= n.s
				continue parts
			}
		}
		for c, name := range classNames {
			if p == name {
				if Class(c) != Diagonal {
					s |= classBit(Class(c))
				}
				continue parts
			}
		}
		return 0, fmt.Errorf("scheme %q: part %d %q is not R2, R3, R4, R5, R7, D, RING, SPOKE or INNER", text, i+1, part)
	}
	return s, nil
}

// jump is a capture available from a cell: over the enemy on mid to to.
type jump struct{ mid, to Cell }

// tables are the neighbour and jump tables of one scheme, derived from the
// link and jump-line data.
type tables struct {
	neigh [NumCells]uint16
	jumps [NumCells][]jump
	// link[a][b] reports whether a-b is a step of the scheme.
	link [NumCells][NumCells]bool
}

var schemeTables = func() (t [allSchemes]tables) {
	for s := range Scheme(allSchemes) {
		tb := &t[s]
		for _, l := range links {
			if s.Allows(l.class) {
				tb.neigh[l.a] |= bit(l.b)
				tb.neigh[l.b] |= bit(l.a)
				tb.link[l.a][l.b] = true
				tb.link[l.b][l.a] = true
			}
		}
		for _, j := range jumpLines {
			if s.Allows(j.class) {
				tb.jumps[j.a] = append(tb.jumps[j.a], jump{j.mid, j.b})
				tb.jumps[j.b] = append(tb.jumps[j.b], jump{j.mid, j.a})
			}
		}
	}
	return t
}()

// tables returns the scheme's neighbour and jump tables.
func (s Scheme) tables() *tables { return &schemeTables[s&(allSchemes-1)] }

// Neighbours returns the cells a counter on c may step to under the scheme,
// in index order.
func (s Scheme) Neighbours(c Cell) []Cell { return cellsOf(s.tables().neigh[c]) }

// Jumps returns the number of capture lines (counted per direction) the
// scheme allows: 20 for R2 and R3, 28 for R7, 32 for R4 and R5.
func (s Scheme) Jumps() int {
	n := 0
	for _, j := range s.tables().jumps {
		n += len(j)
	}
	return n
}

// cellsOf lists the cells of a mask in index order.
func cellsOf(m uint16) []Cell {
	var cs []Cell
	for c := range Cell(NumCells) {
		if m&bit(c) != 0 {
			cs = append(cs, c)
		}
	}
	return cs
}

// linkClass returns the class of the link a-b, and false if a and b are not
// neighbours in any scheme.
func linkClass(a, b Cell) (Class, bool) {
	for _, l := range links {
		if (l.a == a && l.b == b) || (l.a == b && l.b == a) {
			return l.class, true
		}
	}
	return 0, false
}

// jumpOver returns the middle cell of the jump line from a to b, and false
// if a and b do not lie on one.
func jumpOver(a, b Cell) (Cell, bool) {
	for _, j := range jumpLines {
		if (j.a == a && j.b == b) || (j.a == b && j.b == a) {
			return j.mid, true
		}
	}
	return NoCell, false
}
