package kvaa

import (
	"math/bits"

	"arbiter/rules"
)

// Counters is the number of counters each side owns (§4.1): 4 on the board
// and 6 in reserve at the start.
const Counters = 10

// MaxOnBoard is the most counters a side may have on the board (D-9).
const MaxOnBoard = 4

// MaxReserve is the largest reserve a position may give a side.
const MaxReserve = 6

// South and North name the sides by seat.
const (
	South = rules.First
	North = rules.Second
)

// Step is a one-cell move of a counter, as used by rule 4.6. The zero Step
// (From == To) is no step.
type Step struct {
	From, To Cell
}

// noStep is the absence of a forbidden step.
var noStep = Step{}

// None reports whether s is no step.
func (s Step) None() bool { return s.From == s.To }

// String writes the step as "b2-c3", or "-" for no step.
func (s Step) String() string {
	if s.None() {
		return "-"
	}
	return s.From.String() + "-" + s.To.String()
}

// State is a Kvaa position (section 3) in the engine's fast, mutable form:
// a value of a few bytes, copied to make a move (copying it is cheaper than
// any undo record would be).
type State struct {
	// Occ holds the cells of each side, indexed by colour: bit i is Cell i.
	Occ [2]uint16
	// Reserve holds each side's counters in reserve.
	Reserve [2]int8
	// Turn is the side to move.
	Turn rules.Color
	// Forbidden holds, per side, the step rule 4.6 forbids on its next turn.
	Forbidden [2]Step
	// Quiet counts plies since the last turn with a capture or a placement.
	Quiet int32
	// Number is the turn number, raised after the second mover's turn.
	Number int32
}

// OnBoard returns the number of counters side c has on the board.
func (s *State) OnBoard(c rules.Color) int { return bits.OnesCount16(s.Occ[c]) }

// Captured returns the number of counters of side c out of the game.
func (s *State) Captured(c rules.Color) int {
	return Counters - s.OnBoard(c) - int(s.Reserve[c])
}

// MayPlace reports whether side c may bring a reserve counter in: it has
// fewer than four on the board and a reserve (D-9). Under 4.5.1.1 to
// 4.5.1.3 this is an obligation, under 4.5.1.4 a right.
func (s *State) MayPlace(c rules.Color) bool {
	return s.Reserve[c] > 0 && bits.OnesCount16(s.Occ[c]) < MaxOnBoard
}

// At returns the side whose counter is on cell x, and false if x is empty.
func (s *State) At(x Cell) (rules.Color, bool) {
	switch {
	case s.Occ[South]&bit(x) != 0:
		return South, true
	case s.Occ[North]&bit(x) != 0:
		return North, true
	}
	return 0, false
}

// key packs the position's identity for repetition (section 3: board,
// reserves, side to move, both forbidden steps) into 51 bits.
func (s *State) key() uint64 {
	k := uint64(s.Occ[0]) | uint64(s.Occ[1])<<13 |
		uint64(s.Reserve[0])<<26 | uint64(s.Reserve[1])<<29 | uint64(s.Turn)<<32
	for c := range 2 {
		f := s.Forbidden[c]
		if !f.None() {
			k |= (uint64(f.From)<<4 | uint64(f.To) | 1<<8) << (33 + 9*c)
		}
	}
	return k
}

// stateFromKey is the inverse of [State.key]; Quiet and Number are zero.
func stateFromKey(k uint64) State {
	s := State{
		Occ:     [2]uint16{uint16(k & 0x1fff), uint16(k >> 13 & 0x1fff)},
		Reserve: [2]int8{int8(k >> 26 & 7), int8(k >> 29 & 7)},
		Turn:    rules.Color(k >> 32 & 1),
	}
	for c := range 2 {
		f := k >> (33 + 9*c) & 0x1ff
		if f&(1<<8) != 0 {
			s.Forbidden[c] = Step{Cell(f >> 4 & 15), Cell(f & 15)}
		}
	}
	return s
}

// sideLetter returns "S" or "N".
func sideLetter(c rules.Color) string {
	if c == South {
		return "S"
	}
	return "N"
}
