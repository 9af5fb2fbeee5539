package certabo

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"sync"

	"arbiter/hardware/eboard"
	"arbiter/rules"
)

// Calibration is which piece each known chip is in: a Certabo board reads
// ids, and the host learns what they are from the start position. A
// chip's piece is the chip's, not the board's, so one calibration serves
// every board of an event (sets may change boards). Its methods are safe
// for concurrent use; the zero value is empty and ready.
type Calibration struct {
	mu     sync.Mutex
	pieces map[ID]rules.Piece
	// changed, if set, is told every time the calibration learnt more.
	changed func(*Calibration)
}

// NewCalibration returns a calibration that knows pieces, and tells
// changed (if not nil) every time it learns more.
func NewCalibration(pieces map[ID]rules.Piece, changed func(*Calibration)) *Calibration {
	return &Calibration{pieces: maps.Clone(pieces), changed: changed}
}

// Piece returns the piece of chip id, and false for a chip never learnt.
func (c *Calibration) Piece(id ID) (rules.Piece, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	p, ok := c.pieces[id]
	return p, ok
}

// Len returns how many chips are known.
func (c *Calibration) Len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.pieces)
}

// Learn adds what the chips are (a chip learnt before as another piece is
// that piece now) and reports whether anything was new.
func (c *Calibration) Learn(pieces map[ID]rules.Piece) bool {
	c.mu.Lock()
	learnt := false
	for id, p := range pieces {
		if old, ok := c.pieces[id]; !ok || old != p {
			if c.pieces == nil {
				c.pieces = map[ID]rules.Piece{}
			}
			c.pieces[id] = p
			learnt = true
		}
	}
	changed := c.changed
	c.mu.Unlock()
	if learnt && changed != nil {
		changed(c)
	}
	return learnt
}

// MarshalJSON writes the calibration as chip id (ten hex digits) → FEN
// letter, ids in order.
func (c *Calibration) MarshalJSON() ([]byte, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	m := make(map[string]string, len(c.pieces))
	for id, p := range c.pieces {
		m[id.String()] = p.String()
	}
	return json.Marshal(m)
}

// UnmarshalJSON reads what MarshalJSON wrote.
func (c *Calibration) UnmarshalJSON(b []byte) error {
	var m map[string]string
	if err := json.Unmarshal(b, &m); err != nil {
		return fmt.Errorf("certabo calibration: %w", err)
	}
	pieces := make(map[ID]rules.Piece, len(m))
	for _, k := range slices.Sorted(maps.Keys(m)) {
		id, err := ParseID(k)
		if err != nil {
			return err
		}
		p, ok := pieceOfLetter(m[k])
		if !ok {
			return fmt.Errorf("certabo calibration: chip %s: %q is no chess piece", k, m[k])
		}
		pieces[id] = p
	}
	c.mu.Lock()
	c.pieces = pieces
	c.mu.Unlock()
	return nil
}

func pieceOfLetter(s string) (rules.Piece, bool) {
	if len(s) != 1 {
		return rules.Piece{}, false
	}
	switch l := s[0]; l {
	case 'K', 'Q', 'R', 'B', 'N', 'P':
		return rules.Piece{Color: rules.White, Kind: rules.Kind(l)}, true
	case 'k', 'q', 'r', 'b', 'n', 'p':
		return rules.Piece{Color: rules.Black, Kind: rules.Kind(l - 'a' + 'A')}, true
	}
	return rules.Piece{}, false
}

// Spare queens may stand on d3 (White's) and d6 (Black's) while a board
// is calibrated, as picochess has it: their chips are learnt as queens for
// promotions.
var spareSquares = map[rules.Square]rules.Piece{
	19: {Color: rules.White, Kind: 'Q'}, // d3
	43: {Color: rules.Black, Kind: 'Q'}, // d6
}

// startPieces returns what the chips of a board showing the start
// position are, read in orientation o (or the one the known chips tell,
// when o is Undecided), and false when the board shows no start position
// of distinct chips: every square of the first and last two ranks holds
// a chip, every other square is empty but for the spare queens' squares.
func startPieces(state *Frame, o eboard.Orientation, known func(ID) (rules.Piece, bool)) (map[ID]rules.Piece, bool) {
	seen := map[ID]bool{}
	for f, id := range state {
		home := f < 16 || f >= 48
		if home == (id == ID{}) {
			if home {
				return nil, false
			}
			if !isSpare(f) {
				return nil, false
			}
		}
		if id != (ID{}) {
			if seen[id] {
				return nil, false
			}
			seen[id] = true
		}
	}
	if o == eboard.Undecided {
		o = orientationOf(state, known)
	}
	out := map[ID]rules.Piece{}
	for f, id := range state {
		if id == (ID{}) {
			continue
		}
		sq := o.Square(f)
		p, ok := eboard.StartPiece(sq)
		if !ok {
			if p, ok = spareSquares[sq]; !ok {
				return nil, false // a piece on the other orientation's spare square
			}
		}
		out[id] = p
	}
	return out, true
}

// isSpare reports whether field f is a spare queen's square in either
// orientation.
func isSpare(f int) bool {
	for sq := range spareSquares {
		if eboard.Normal.Field(sq) == f || eboard.Rotated.Field(sq) == f {
			return true
		}
	}
	return false
}

// orientationOf returns the orientation the known chips of a start
// position tell (most of them must agree), or Normal, the board as its
// maker labels it, when too few are known.
func orientationOf(state *Frame, known func(ID) (rules.Piece, bool)) eboard.Orientation {
	var votes [3]int
	for f, id := range state {
		p, ok := known(id)
		if id == (ID{}) || !ok {
			continue
		}
		for _, o := range []eboard.Orientation{eboard.Normal, eboard.Rotated} {
			if want, ok := eboard.StartPiece(o.Square(f)); ok && want == p {
				votes[o]++
			}
		}
	}
	if votes[eboard.Rotated] >= 8 && votes[eboard.Rotated] > votes[eboard.Normal] {
		return eboard.Rotated
	}
	return eboard.Normal
}

// snapshot returns a copy of the chips known.
func (c *Calibration) snapshot() map[ID]rules.Piece {
	c.mu.Lock()
	defer c.mu.Unlock()
	return maps.Clone(c.pieces)
}

// Save writes the calibration to the file at path, whole: to a temporary
// file beside it, renamed over it, so that a crash leaves the old one or
// the new one.
func (c *Calibration) Save(path string) error {
	b, err := json.MarshalIndent(c, "", "  ")
	if err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), filepath.Base(path)+".*")
	if err != nil {
		return fmt.Errorf("certabo calibration: %w", err)
	}
	_, err = tmp.Write(append(b, '\n'))
	if err == nil {
		err = tmp.Sync()
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), path)
	}
	if err != nil {
		os.Remove(tmp.Name())
		return fmt.Errorf("certabo calibration %s: %w", path, err)
	}
	return nil
}

// LoadCalibration reads a calibration Save wrote; a file that does not
// exist is an empty calibration.
func LoadCalibration(path string) (*Calibration, error) {
	b, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return &Calibration{}, nil
	}
	if err != nil {
		return nil, fmt.Errorf("certabo calibration: %w", err)
	}
	var c Calibration
	if err := json.Unmarshal(b, &c); err != nil {
		return nil, fmt.Errorf("certabo calibration %s: %w", path, err)
	}
	return &c, nil
}
