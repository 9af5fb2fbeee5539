package arbiter

import (
	"slices"
	"strconv"
	"strings"

	"arbiter/board"
	"arbiter/rules"
)

// Caps says what a board senses beyond stack heights.
type Caps struct {
	// TopKind: the kind and mark of each stack's top piece.
	TopKind bool
	// TopFace: which face of the top piece is up; it counts with TopKind
	// only, as a board reports it (board.Sensor.Identify).
	TopFace bool
	// TopColor: the colour of the top piece (not shogi, where owners are
	// shown only by facing); with TopKind only, as TopFace.
	TopColor bool
	// Zones: the number of pieces in off-board zones (trays): every zone
	// of the game, or those of Trays. Zones are a cross-check, never a
	// condition of a move (Session).
	Zones bool
	// NoPress: the board has no clock to press (board.CapNoPress): a
	// move is complete once the board settles on it, whatever the game's
	// completion ([OnRelease]).
	NoPress bool
	// Trays are the zones the board counts, in its own numbering (its
	// handshake's list), when it counts only some of the game's (a Kvaa
	// board with reserve trays only, PROTOCOL hello-kvaa); nil: every
	// zone of the game, in the game's order.
	Trays []board.ZoneInfo

	// counted marks the game's zones the board counts (Session's
	// geometry mapped by Trays); nil: all of them.
	counted []bool
}

// Equal reports whether c and d say the same of a board (what the session
// derives from them aside).
func (c Caps) Equal(d Caps) bool {
	return c.TopKind == d.TopKind && c.TopFace == d.TopFace && c.TopColor == d.TopColor &&
		c.Zones == d.Zones && c.NoPress == d.NoPress && slices.Equal(c.Trays, d.Trays)
}

// counts reports whether the board counts the game's zone i.
func (c Caps) counts(i int) bool {
	return c.Zones && (c.counted == nil || i < len(c.counted) && c.counted[i])
}

// String lists the capabilities, "heights" first.
func (c Caps) String() string {
	parts := []string{"heights"}
	for _, p := range []struct {
		on   bool
		name string
	}{{c.TopKind, "kind"}, {c.TopFace, "face"}, {c.TopColor, "color"}, {c.Zones, "zones"}, {c.NoPress, "no-press"}} {
		if p.on {
			parts = append(parts, p.name)
		}
	}
	return strings.Join(parts, "+")
}

// cell is what a board can sense of one square: the height and, masked by
// the board's capabilities, the top piece.
type cell struct {
	height int
	top    rules.Piece // zero where not sensed, unknown or empty
}

// unknown reports whether the board reported the cell's top piece as
// unknown (PROTOCOL 5.2 allows a zero top with a height): a board that
// senses identities but could not read this piece.
func (c cell) unknown() bool { return c.height > 0 && c.top == (rules.Piece{}) }

// fits reports whether a sensed cell shows what want expects: the same
// height and top piece, where a top the board could not read fits any
// (the square is judged by its height alone). On a board that senses no
// identities every top is zero, and fits is equality.
func (c cell) fits(want cell) bool {
	return c == want || c.height == want.height && c.unknown()
}

// project reduces a piece to what caps can sense: what a board with the
// matching handshake reports of it (board.Sensor.Identify).
func (c Caps) project(p rules.Piece) rules.Piece {
	return board.Sensor{Caps: c.board()}.Identify(p).Piece
}

// board returns the handshake capabilities of top-piece sensing that
// CapsOf maps onto c.
func (c Caps) board() board.Caps {
	// Straight tests: cells asks for every square of every candidate.
	var b board.Caps
	if c.TopKind {
		b |= board.CapIdentity
	}
	if c.TopFace {
		b |= board.CapFace
	}
	if c.TopColor {
		b |= board.CapColor
	}
	return b
}

// cells projects a view onto what caps can sense: one cell per square, and
// after them one pseudo-cell per zone holding its count.
func (c Caps) cells(v rules.View) []cell {
	out := make([]cell, len(v.Stacks)+len(v.Zones))
	for i, s := range v.Stacks {
		out[i].height = len(s)
		// Without identity a board reports nothing of the top piece
		// (project): no need to ask, for every square of every candidate.
		if len(s) > 0 && c.TopKind {
			out[i].top = c.project(s[len(s)-1])
		}
	}
	for i, z := range v.Zones {
		if c.counts(i) {
			out[len(v.Stacks)+i].height = len(z)
		}
	}
	return out
}

// signature is the canonical text of the cells that differ from a
// baseline (that do not fit it, cell.fits): "sq:h:top;..." in square
// order, taking only the cells whose mark in hand (the hand stands: a
// cross-check, not part of a move; unmarked past its end) equals hands.
// Equal signatures mean equal sensed states; a state with unknown tops
// is compared cell by cell (turn.fitsAll).
func signature(base, cur []cell, hand []bool, hands bool) string {
	var b strings.Builder
	for i := range cur {
		if !cur[i].fits(base[i]) && (i < len(hand) && hand[i]) == hands {
			b.WriteString(strconv.Itoa(i))
			b.WriteByte(':')
			b.WriteString(strconv.Itoa(cur[i].height))
			if cur[i].top != (rules.Piece{}) {
				b.WriteByte(':')
				b.WriteString(cur[i].top.String())
			}
			b.WriteByte(';')
		}
	}
	return b.String()
}
