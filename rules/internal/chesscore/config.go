package chesscore

import (
	"fmt"

	"arbiter/rules"
)

// MaxWidth and MaxHeight bound the boards the engine supports.
const (
	MaxWidth  = 10
	MaxHeight = 8
	// maxCells is the size of the largest padded mailbox: (10+2) x (8+4).
	maxCells = (MaxWidth + 2) * (MaxHeight + 4)
)

// Wing names a side of the board for castling.
type Wing uint8

// The castling wings: Short is toward the last file, Long toward file a.
const (
	Short Wing = 0
	Long  Wing = 1
)

// Config describes one member of the chess family: board size, start
// position, castling variants and promotion choices. A Config is immutable
// after [NewConfig]; share one per game.
type Config struct {
	width, height int
	pad           int // mailbox row length: width + 2
	geo           *rules.Geometry
	start         string // FEN of the initial position

	kingFile    int
	rookFile    [2]int   // per wing
	castleDests [2][]int // king destination files per wing, in preference order
	promos      []Kind   // promotion choices, in canonical order
	monsters    bool     // the monster exists (Tensor)

	// Derived tables.
	toCell     [MaxWidth * MaxHeight]uint8 // square to mailbox cell
	toSquare   [maxCells]int8              // mailbox cell to square, -1 on walls
	dirs       [8]int                      // 4 orthogonal then 4 diagonal offsets
	perp       [8][2]int                   // per direction index, its two perpendiculars
	knight     [8]int
	castleKeep [maxCells]uint8 // castling rights kept when a piece leaves or enters a cell
	cells      []uint8         // all board cells in square order
	dark       [maxCells]bool
	letters    [256]Piece // FEN piece letter to piece, Empty for other bytes
}

// ConfigSpec gives the parameters of [NewConfig].
type ConfigSpec struct {
	Width, Height int
	// Start is the FEN of the initial position.
	Start string
	// KingFile and RookFiles (short wing, long wing) are the files from
	// which castling starts (0 = file a).
	KingFile  int
	RookFiles [2]int
	// CastleDests lists, per wing, the files the king may castle to. The
	// rook ends beside the king, on the centre side.
	CastleDests [2][]int
	// Monsters enables Tensor chess's monster, including promotion to it.
	Monsters bool
}

// NewConfig checks spec and returns the game configuration.
func NewConfig(spec ConfigSpec) (*Config, error) {
	if err := spec.check(); err != nil {
		return nil, err
	}
	w, h := spec.Width, spec.Height
	c := &Config{
		width: w, height: h, pad: w + 2,
		geo:      rules.NewRect(w, h),
		start:    spec.Start,
		kingFile: spec.KingFile, rookFile: spec.RookFiles,
		monsters: spec.Monsters,
		promos:   []Kind{Queen, Rook, Bishop, Knight},
	}
	for wing := range 2 {
		c.castleDests[wing] = append([]int(nil), spec.CastleDests[wing]...)
	}
	if spec.Monsters {
		c.promos = append(c.promos, Monster)
	}
	c.initOffsets()
	c.initCells()
	c.initCastleKeep()
	c.initLetters()
	return c, nil
}

// check reports what is wrong with the board size and the castling
// files of spec.
func (spec *ConfigSpec) check() error {
	w, h := spec.Width, spec.Height
	if w < 5 || w > MaxWidth || h < 5 || h > MaxHeight {
		return fmt.Errorf("board %dx%d: want 5..%d files and 5..%d ranks", w, h, MaxWidth, MaxHeight)
	}
	for i, f := range []int{spec.KingFile, spec.RookFiles[0], spec.RookFiles[1]} {
		if f < 0 || f >= w {
			return fmt.Errorf("castling file %d (#%d) off a %d-file board", f, i, w)
		}
	}
	if spec.RookFiles[Short] <= spec.KingFile || spec.RookFiles[Long] >= spec.KingFile {
		return fmt.Errorf("castling rooks on files %d and %d do not flank the king on file %d",
			spec.RookFiles[Short], spec.RookFiles[Long], spec.KingFile)
	}
	for wing := range 2 {
		for _, f := range spec.CastleDests[wing] {
			if f < 1 || f > w-2 {
				return fmt.Errorf("castling destination file %d: the rook must fit beside the king", f)
			}
		}
	}
	return nil
}

// initOffsets fills the cell offsets of the eight directions, their
// perpendiculars, and the knight's jumps.
func (c *Config) initOffsets() {
	p := c.pad
	c.dirs = [8]int{p, -p, 1, -1, p + 1, p - 1, -p + 1, -p - 1}
	for i, d := range c.dirs {
		for j, e := range c.dirs {
			if (i < 4) != (j < 4) || e == d || e == -d {
				continue
			}
			if c.perp[i][0] == 0 {
				c.perp[i][0] = e
			} else {
				c.perp[i][1] = e
			}
		}
	}
	c.knight = [8]int{2*p + 1, 2*p - 1, -2*p + 1, -2*p - 1, p + 2, p - 2, -p + 2, -p - 2}
}

// initCells fills the square-to-cell and cell-to-square tables, the list
// of board cells and the dark squares.
func (c *Config) initCells() {
	for i := range c.toSquare {
		c.toSquare[i] = -1
	}
	for r := range c.height {
		for f := range c.width {
			cell := c.cellAt(f, r)
			sq := r*c.width + f
			c.toCell[sq] = uint8(cell)
			c.toSquare[cell] = int8(sq)
			c.cells = append(c.cells, uint8(cell))
			c.dark[cell] = (f+r)%2 == 0
		}
	}
}

// initLetters fills the FEN letters of the game's pieces: upper case for
// White, lower case for Black, T and t only with monsters.
func (c *Config) initLetters() {
	last := King
	if c.monsters {
		last = Monster
	}
	for k := Pawn; k <= last; k++ {
		c.letters[k.Letter()] = MakePiece(rules.White, k)
		c.letters[k.Letter()+'a'-'A'] = MakePiece(rules.Black, k)
	}
}

// initCastleKeep fills the castling rights kept when a piece leaves or
// enters each cell: all but those of a king's or rook's start cell.
func (c *Config) initCastleKeep() {
	for i := range c.castleKeep {
		c.castleKeep[i] = 0xF
	}
	for _, col := range []rules.Color{rules.White, rules.Black} {
		home := c.homeRank(col)
		sh := uint(col) * 2
		c.castleKeep[c.cellAt(c.kingFile, home)] &^= 3 << sh
		c.castleKeep[c.cellAt(c.rookFile[Short], home)] &^= 1 << sh
		c.castleKeep[c.cellAt(c.rookFile[Long], home)] &^= 2 << sh
	}
}

// cellAt returns the mailbox cell of file f, rank r (from 0).
func (c *Config) cellAt(f, r int) int { return (r+2)*c.pad + f + 1 }

// fileOf returns the file (from 0) of a board cell.
func (c *Config) fileOf(cell int) int { return cell%c.pad - 1 }

// rankOf returns the rank (from 0) of a board cell.
func (c *Config) rankOf(cell int) int { return cell/c.pad - 2 }

// Width returns the number of files.
func (c *Config) Width() int { return c.width }

// Height returns the number of ranks.
func (c *Config) Height() int { return c.height }

// Geometry returns the board geometry shared by the game's positions.
func (c *Config) Geometry() *rules.Geometry { return c.geo }

// Monsters reports whether the game has Tensor's monster.
func (c *Config) Monsters() bool { return c.monsters }

// Promotions returns the kinds a pawn may promote to, in canonical order.
func (c *Config) Promotions() []Kind { return c.promos }

// StartFEN returns the FEN of the initial position.
func (c *Config) StartFEN() string { return c.start }

// Cell returns the mailbox cell of a rules square.
func (c *Config) Cell(sq rules.Square) int { return int(c.toCell[sq]) }

// Square returns the rules square of a mailbox cell, or rules.NoSquare.
func (c *Config) Square(cell int) rules.Square {
	if cell < 0 || cell >= maxCells || c.toSquare[cell] < 0 {
		return rules.NoSquare
	}
	return rules.Square(c.toSquare[cell])
}

// CellName returns the algebraic name of a mailbox cell ("e4").
func (c *Config) CellName(cell int) string { return c.geo.Name(c.Square(cell)) }

// LookupCell returns the mailbox cell of an algebraic square name.
func (c *Config) LookupCell(name string) (int, bool) {
	sq, ok := c.geo.Lookup(name)
	if !ok {
		return 0, false
	}
	return c.Cell(sq), true
}

// Index returns the ordering index of a cell used by canonical tie-breaks:
// rank * width + file (a1 = 0), which is the rules square.
func (c *Config) Index(cell int) int { return int(c.toSquare[cell]) }

// homeRank returns the back rank of colour col.
func (c *Config) homeRank(col rules.Color) int {
	if col == rules.White {
		return 0
	}
	return c.height - 1
}

// rookStart returns the cell of col's castling rook on wing w.
func (c *Config) rookStart(col rules.Color, w Wing) int {
	return c.cellAt(c.rookFile[w], c.homeRank(col))
}

// kingStart returns the cell of col's king before castling.
func (c *Config) kingStart(col rules.Color) int { return c.cellAt(c.kingFile, c.homeRank(col)) }

// forward returns the cell offset of one step forward for col.
func (c *Config) forward(col rules.Color) int {
	if col == rules.White {
		return c.pad
	}
	return -c.pad
}

// FileRank returns the file and rank (from 0) of a board cell.
func (c *Config) FileRank(cell int) (f, r int) { return c.fileOf(cell), c.rankOf(cell) }

// CellAt returns the mailbox cell of file f and rank r (from 0).
func (c *Config) CellAt(f, r int) int { return c.cellAt(f, r) }
