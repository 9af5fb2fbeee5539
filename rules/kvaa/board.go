package kvaa

import (
	"fmt"

	"arbiter/rules"
)

// Cell is one of the 13 cells of the field, numbered from 0 in the spec's
// index order (2.3): Cell i is [rules.Square] i and sensor number i+1.
type Cell int8

// The 13 cells in index order, rank by rank from South's left.
const (
	A1 Cell = iota
	C1
	E1
	B2
	D2
	A3
	C3
	E3
	B4
	D4
	A5
	C5
	E5
)

// NoCell is the Cell of nothing: the origin of a bare placement.
const NoCell Cell = -1

// NumCells is the number of cells of the field.
const NumCells = 13

// cellCoords holds each cell's (file, rank) on the 5x5 checkerboard: the 13
// dark squares, f+r even (DECISION D-2).
var cellCoords = [NumCells][2]int{
	{0, 0}, {2, 0}, {4, 0},
	{1, 1}, {3, 1},
	{0, 2}, {2, 2}, {4, 2},
	{1, 3}, {3, 3},
	{0, 4}, {2, 4}, {4, 4},
}

// Zone indexes of the board's off-board areas, in [Geometry] order.
const (
	ZoneReserveSouth = iota
	ZoneReserveNorth
	ZoneCapturedSouth
	ZoneCapturedNorth
)

// geometry is the one shared board description.
var geometry = func() *rules.Geometry {
	cells := make([][2]int, NumCells)
	copy(cells, cellCoords[:])
	return rules.NewGrid(5, 5, cells,
		rules.Zone{Name: "reserve-south", Kind: rules.Reserve, Owner: rules.First},
		rules.Zone{Name: "reserve-north", Kind: rules.Reserve, Owner: rules.Second},
		rules.Zone{Name: "captured-south", Kind: rules.Captured, Owner: rules.First},
		rules.Zone{Name: "captured-north", Kind: rules.Captured, Owner: rules.Second},
	)
}()

// Geometry returns the Kvaa field: the 13 cells in index order, and four
// off-board zones: each side's reserve tray, then each side's captured
// counters (the zone's Owner is the side whose counters lie there). A board
// with a single tray for captured counters senses the sum of the last two.
func Geometry() *rules.Geometry { return geometry }

// String returns the cell's name ("c3"), or "-" for NoCell.
func (c Cell) String() string { return geometry.Name(rules.Square(c)) }

// Valid reports whether c is one of the 13 cells.
func (c Cell) Valid() bool { return c >= 0 && c < NumCells }

// Coords returns the cell's file and rank on the 5x5 checkerboard, from 0.
func (c Cell) Coords() (f, r int) { return cellCoords[c][0], cellCoords[c][1] }

// Border reports whether c is one of the 8 rim cells, the "orange" cells of
// schemes R.3 and R.4 (DECISION D-3); the other 5 are the centre.
func (c Cell) Border() bool {
	f, r := c.Coords()
	return f == 0 || f == 4 || r == 0 || r == 4
}

// ParseCell reads a cell name such as "c3".
func ParseCell(s string) (Cell, error) {
	sq, ok := geometry.Lookup(s)
	if !ok {
		return NoCell, fmt.Errorf("%q is not a Kvaa cell (cells: a1 c1 e1 b2 d2 a3 c3 e3 b4 d4 a5 c5 e5)", s)
	}
	return Cell(sq), nil
}

// cellAt returns the cell at file f and rank r, or NoCell.
func cellAt(f, r int) Cell { return Cell(geometry.Square(f, r)) }

// bit returns the occupancy mask of c.
func bit(c Cell) uint16 { return 1 << uint(c) }

// allCells is the mask of every cell.
const allCells uint16 = 1<<NumCells - 1
