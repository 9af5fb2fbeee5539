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
	fail := func(i int, format string, args ...any) (State, error) {
		return State{}, fmt.Errorf("KPS %q field %d (%s): %s", s, i+1, kpsFields[i], fmt.Sprintf(format, args...))
	}

	rows := strings.Split(fields[0], "/")
	if len(rows) != len(ranks) {
		return fail(0, "%d ranks, want 5 separated by /", len(rows))
	}
	for i, row := range rows {
		r := len(ranks) - 1 - i
		if len(row) != len(ranks[r]) {
			return fail(0, "rank %d %q has %d cells, want %d", r+1, row, len(row), len(ranks[r]))
		}
		for j := range len(row) {
			switch row[j] {
			case 'S':
				st.Occ[South] |= bit(ranks[r][j])
			case 'N':
				st.Occ[North] |= bit(ranks[r][j])
			case '.':
			default:
				return fail(0, "cell %s is %q, want S, N or .", ranks[r][j], row[j])
			}
		}
	}
	for c := range rules.Color(2) {
		if n := st.OnBoard(c); n > MaxOnBoard {
			return fail(0, "%s has %d counters on the board, at most %d allowed", sideLetter(c), n, MaxOnBoard)
		}
	}

	switch fields[1] {
	case "S":
		st.Turn = South
	case "N":
		st.Turn = North
	default:
		return fail(1, "%q, want S or N", fields[1])
	}
	for c := range rules.Color(2) {
		f := fields[2+c]
		if len(f) != 1 || f[0] < '0' || f[0] > '0'+MaxReserve {
			return fail(2+int(c), "%q, want a digit from 0 to %d", f, MaxReserve)
		}
		st.Reserve[c] = int8(f[0] - '0')
	}
	for c := range rules.Color(2) {
		i := 4 + int(c)
		if fields[i] == "-" {
			continue
		}
		step, err := parseStep(fields[i])
		if err != nil {
			return fail(i, "%v", err)
		}
		if st.Occ[c]&bit(step.From) == 0 {
			return fail(i, "%s holds no %s counter", step.From, sideLetter(c))
		}
		st.Forbidden[c] = step
	}
	q, err := parseCount(fields[6], 0, 1e9)
	if err != nil {
		return fail(6, "%v", err)
	}
	n, err := parseCount(fields[7], 1, 1e9)
	if err != nil {
		return fail(7, "%v", err)
	}
	st.Quiet, st.Number = int32(q), int32(n)
	return st, nil
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
