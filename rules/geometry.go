package rules

import (
	"fmt"
	"strconv"
)

// Square identifies a cell of a board: an index from 0 to [Geometry.Len]-1.
// On a rectangular board of width W the square at file f and rank r (both
// from 0, file a and rank 1 being 0) is r*W+f. On a graph board the squares
// are the cells in the order the game lists them.
type Square int16

// NoSquare is the Square of nothing: a drop has no origin square.
const NoSquare Square = -1

// ZoneKind says what an off-board zone holds.
type ZoneKind uint8

const (
	// Hand holds captured pieces that may be dropped back (a shogi hand).
	Hand ZoneKind = iota + 1
	// Reserve holds pieces not yet brought into play (a Kvaa reserve).
	Reserve
	// Captured holds pieces out of the game.
	Captured
)

// String returns the zone kind's name.
func (k ZoneKind) String() string {
	switch k {
	case Hand:
		return "hand"
	case Reserve:
		return "reserve"
	case Captured:
		return "captured"
	}
	return "zone(" + strconv.Itoa(int(k)) + ")"
}

// Zone is an off-board area that holds pieces, such as a shogi player's
// hand or a Kvaa reserve tray. Boards may sense zones as trays.
type Zone struct {
	Name  string // stable identifier, e.g. "hand-first"
	Kind  ZoneKind
	Owner Color
}

// Geometry describes a board: its cells, their coordinates and names, and
// its off-board zones. Rectangular boards have every cell of a W x H grid;
// graph boards (Kvaa's 13 cells) have a subset of a grid, or cells with no
// grid at all, and their links are the game's business.
//
// A Geometry is immutable once made; share one value per game.
type Geometry struct {
	width, height int
	files, ranks  []int8 // per square
	names         []string
	bySquare      []Square // grid index (r*width+f) to square, NoSquare where no cell
	byName        map[string]Square
	zones         []Zone
	// sensor maps a board's sensor number to a square; nil when they are
	// the same (see SensorSquare).
	sensor, sensorIndex []Square
}

const fileLetters = "abcdefghijklmnopqrstuvwxyz"

// NewRect returns the geometry of a full width x height board. Squares are
// named algebraically: file letter from 'a', rank number from 1 ("a1").
func NewRect(width, height int, zones ...Zone) *Geometry {
	if width < 1 || height < 1 || width > len(fileLetters) || height > 99 {
		panic(fmt.Sprintf("rules: board size %dx%d out of range", width, height))
	}
	cells := make([][2]int, 0, width*height)
	for r := range height {
		for f := range width {
			cells = append(cells, [2]int{f, r})
		}
	}
	return NewGrid(width, height, cells, zones...)
}

// NewGrid returns the geometry of a board whose cells are the given
// (file, rank) points of a width x height grid, in square order. Cells are
// named algebraically, as with [NewRect]. It panics on a cell off the grid
// or listed twice: geometries are program constants.
func NewGrid(width, height int, cells [][2]int, zones ...Zone) *Geometry {
	g := &Geometry{
		width:    width,
		height:   height,
		bySquare: make([]Square, width*height),
		byName:   make(map[string]Square, len(cells)),
		zones:    append([]Zone(nil), zones...),
	}
	for i := range g.bySquare {
		g.bySquare[i] = NoSquare
	}
	for i, c := range cells {
		f, r := c[0], c[1]
		if f < 0 || f >= width || r < 0 || r >= height {
			panic(fmt.Sprintf("rules: cell (%d,%d) off a %dx%d grid", f, r, width, height))
		}
		if g.bySquare[r*width+f] != NoSquare {
			panic(fmt.Sprintf("rules: cell (%d,%d) listed twice", f, r))
		}
		sq := Square(i)
		g.bySquare[r*width+f] = sq
		name := string(fileLetters[f]) + strconv.Itoa(r+1)
		g.files = append(g.files, int8(f))
		g.ranks = append(g.ranks, int8(r))
		g.names = append(g.names, name)
		g.byName[name] = sq
	}
	return g
}

// WithSensorRanksReversed returns a copy of g for a game whose rank 1 (row
// 0) is on the second player's side, as shogi's rank a is. Sensor boards
// number their squares rank*W+file from the first player's side (see the
// sensor-board protocol); the copy maps those numbers onto the game's
// squares.
func (g *Geometry) WithSensorRanksReversed() *Geometry {
	c := *g
	n := len(g.names)
	c.sensor, c.sensorIndex = make([]Square, n), make([]Square, n)
	for i := range n {
		f, r := g.Coords(Square(i))
		sq := g.Square(f, g.height-1-r)
		if sq == NoSquare {
			panic("rules: reversed sensor ranks need a rectangular board")
		}
		c.sensor[i], c.sensorIndex[sq] = sq, Square(i)
	}
	return &c
}

// SensorSquare returns the square a board's sensor number i stands for,
// or NoSquare if the board has no such square.
func (g *Geometry) SensorSquare(i int) Square {
	switch {
	case i < 0 || i >= len(g.names):
		return NoSquare
	case g.sensor != nil:
		return g.sensor[i]
	}
	return Square(i)
}

// SensorIndex returns the sensor number of square sq: the inverse of
// SensorSquare.
func (g *Geometry) SensorIndex(sq Square) int {
	if g.sensorIndex != nil && g.Valid(sq) {
		return int(g.sensorIndex[sq])
	}
	return int(sq)
}

// Len returns the number of squares.
func (g *Geometry) Len() int { return len(g.names) }

// Width returns the number of files of the board's grid.
func (g *Geometry) Width() int { return g.width }

// Height returns the number of ranks of the board's grid.
func (g *Geometry) Height() int { return g.height }

// Rectangular reports whether every grid point is a cell.
func (g *Geometry) Rectangular() bool { return len(g.names) == g.width*g.height }

// Square returns the square at file f and rank r (from 0), or NoSquare if
// there is no cell there.
func (g *Geometry) Square(f, r int) Square {
	if f < 0 || f >= g.width || r < 0 || r >= g.height {
		return NoSquare
	}
	return g.bySquare[r*g.width+f]
}

// Coords returns the file and rank (from 0) of sq.
func (g *Geometry) Coords(sq Square) (f, r int) {
	return int(g.files[sq]), int(g.ranks[sq])
}

// Name returns the algebraic name of sq ("e4"), or "-" for NoSquare.
func (g *Geometry) Name(sq Square) string {
	if sq < 0 || int(sq) >= len(g.names) {
		return "-"
	}
	return g.names[sq]
}

// Lookup returns the square with the given algebraic name.
func (g *Geometry) Lookup(name string) (Square, bool) {
	sq, ok := g.byName[name]
	return sq, ok
}

// Valid reports whether sq is a square of this board.
func (g *Geometry) Valid(sq Square) bool { return sq >= 0 && int(sq) < len(g.names) }

// Zones returns the board's off-board zones. The slice must not be changed.
func (g *Geometry) Zones() []Zone { return g.zones }

// Zone returns the index of the zone with the given kind and owner, or -1.
func (g *Geometry) Zone(kind ZoneKind, owner Color) int {
	for i, z := range g.zones {
		if z.Kind == kind && z.Owner == owner {
			return i
		}
	}
	return -1
}
