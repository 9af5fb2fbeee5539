package kvaa

import (
	"fmt"
	"strconv"
	"strings"

	"arbiter/rules"
)

// StartKPS is the standard initial position (DECISION D-6), South to move.
const StartKPS = "NN./NN/.../SS/.SS S 6 6 - - 0 1"

// ranks lists the cells of each rank from file a to e, rank 1 first.
var ranks = [5][]Cell{
	{A1, C1, E1},
	{B2, D2},
	{A3, C3, E3},
	{B4, D4},
	{A5, C5, E5},
}

var kpsFields = [8]string{
	"board", "side to move", "South's reserve", "North's reserve",
	"South's forbidden step", "North's forbidden step", "quiet plies", "turn number",
}

// ParseKPS reads a position string (6.3): board, side to move, South's and
// North's reserves, South's and North's forbidden steps, quiet plies, turn
// number. Beyond the grammar it checks that no side has more than four
// counters on the board (D-9) and that a forbidden step is a step between
// neighbouring cells starting on a cell of that side (4.4).
func ParseKPS(s string) (State, error) {
	var st State
	fields := strings.Split(s, " ")
	if len(fields) != len(kpsFields) {
		return State{}, fmt.Errorf("KPS %q: %d fields, want 8 separated by single spaces", s, len(fields))
	}
	if i, err := st.readKPSFields(fields); err != nil {
		return State{}, fmt.Errorf("KPS %q field %d (%s): %v", s, i+1, kpsFields[i], err)
	}
	return st, nil
}

// cellLetters are the letters of a KPS cell, as the board field's errors
// name them.
const cellLetters = "S, N or ."

// readKPSFields reads the eight fields in order (the forbidden steps are
// checked against the board) and returns the index of a field at fault.
func (st *State) readKPSFields(f []string) (int, error) {
	if err := st.readKPSBoard(f[0]); err != nil {
		return 0, err
	}
	if err := st.readKPSSide(f[1]); err != nil {
		return 1, err
	}
	for c := range rules.Color(2) {
		if err := st.readKPSReserve(c, f[2+c]); err != nil {
			return 2 + int(c), err
		}
	}
	for c := range rules.Color(2) {
		if err := st.readKPSForbidden(c, f[4+c]); err != nil {
			return 4 + int(c), err
		}
	}
	q, err := parseCount(f[6], 0, 1e9)
	if err != nil {
		return 6, err
	}
	n, err := parseCount(f[7], 1, 1e9)
	if err != nil {
		return 7, err
	}
	st.Quiet, st.Number = int32(q), int32(n)
	return 0, nil
}

// readKPSBoard reads the board field: five ranks from 5 down to 1, each
// cell S, N or '.', and at most four counters a side (D-9).
func (st *State) readKPSBoard(f string) error {
	rows := strings.Split(f, "/")
	if len(rows) != len(ranks) {
		return fmt.Errorf("%d ranks, want 5 separated by /", len(rows))
	}
	for i, row := range rows {
		r := len(ranks) - 1 - i
		if len(row) != len(ranks[r]) {
			return fmt.Errorf("rank %d %q has %d cells, want %d", r+1, row, len(row), len(ranks[r]))
		}
		for j := range len(row) {
			switch row[j] {
			case 'S':
				st.Occ[South] |= bit(ranks[r][j])
			case 'N':
				st.Occ[North] |= bit(ranks[r][j])
			case '.':
			default:
				return fmt.Errorf("cell %s is %q, want %s", ranks[r][j], row[j], cellLetters)
			}
		}
	}
	for c := range rules.Color(2) {
		if n := st.OnBoard(c); n > MaxOnBoard {
			return fmt.Errorf("%s has %d counters on the board, at most %d allowed", sideLetter(c), n, MaxOnBoard)
		}
	}
	return nil
}

// readKPSSide reads the side to move.
func (st *State) readKPSSide(f string) error {
	switch f {
	case "S":
		st.Turn = South
	case "N":
		st.Turn = North
	default:
		return fmt.Errorf("%q, want S or N", f)
	}
	return nil
}

// readKPSReserve reads c's reserve.
func (st *State) readKPSReserve(c rules.Color, f string) error {
	if len(f) != 1 || f[0] < '0' || f[0] > '0'+MaxReserve {
		return fmt.Errorf("%q, want a digit from 0 to %d", f, MaxReserve)
	}
	st.Reserve[c] = int8(f[0] - '0')
	return nil
}

// readKPSForbidden reads c's forbidden step, "-" for none. The step must
// start on a cell of c.
func (st *State) readKPSForbidden(c rules.Color, f string) error {
	if f == "-" {
		return nil
	}
	step, err := parseStep(f)
	if err != nil {
		return err
	}
	if st.Occ[c]&bit(step.From) == 0 {
		return fmt.Errorf("%s holds no %s counter", step.From, sideLetter(c))
	}
	st.Forbidden[c] = step
	return nil
}

// parseStep reads "b2-c3", a step between neighbouring cells.
func parseStep(s string) (Step, error) {
	a, b, ok := strings.Cut(s, "-")
	if !ok {
		return noStep, fmt.Errorf("%q is not a step from-to", s)
	}
	from, err := ParseCell(a)
	if err != nil {
		return noStep, err
	}
	to, err := ParseCell(b)
	if err != nil {
		return noStep, err
	}
	if _, ok := linkClass(from, to); !ok {
		return noStep, fmt.Errorf("%s and %s are not neighbours in any scheme", from, to)
	}
	return Step{from, to}, nil
}

// boardString writes the board field of a KPS.
func (s *State) boardString(b *strings.Builder) {
	for r := len(ranks) - 1; r >= 0; r-- {
		for _, c := range ranks[r] {
			switch {
			case s.Occ[South]&bit(c) != 0:
				b.WriteByte('S')
			case s.Occ[North]&bit(c) != 0:
				b.WriteByte('N')
			default:
				b.WriteByte('.')
			}
		}
		if r > 0 {
			b.WriteByte('/')
		}
	}
}

// keyString writes the first six KPS fields: the position's identity.
func (s *State) keyString(b *strings.Builder) {
	s.boardString(b)
	b.WriteByte(' ')
	b.WriteString(sideLetter(s.Turn))
	for c := range 2 {
		b.WriteByte(' ')
		b.WriteByte('0' + byte(s.Reserve[c]))
	}
	for c := range 2 {
		b.WriteByte(' ')
		b.WriteString(s.Forbidden[c].String())
	}
}

// String returns the position as a KPS.
func (s State) String() string {
	var b strings.Builder
	s.keyString(&b)
	b.WriteByte(' ')
	b.WriteString(strconv.Itoa(int(s.Quiet)))
	b.WriteByte(' ')
	b.WriteString(strconv.Itoa(int(s.Number)))
	return b.String()
}
