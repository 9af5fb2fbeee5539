package kvaa

import (
	"fmt"
	"strings"

	"arbiter/rules"
)

// Turn is everything one player does between two clock presses: a move (a
// step or a capture), a placement from reserve, or both in the order the
// placement variant requires. It is a small comparable value and implements
// [rules.Move]; its String is the spec's turn notation (6.1).
type Turn struct {
	from, to   Cell // the move; from == NoCell for a bare placement
	over       Cell // the captured counter's cell, NoCell for a step
	place      Cell // the placement, NoCell if none
	placeFirst bool // the placement comes before the move (4.5.1.2)
}

// StepTurn returns the turn made of the step from-to.
func StepTurn(from, to Cell) Turn { return Turn{from, to, NoCell, NoCell, false} }

// CaptureTurn returns the turn made of the capture from-to over the middle
// cell of their jump line; it fails if from and to do not lie on one.
func CaptureTurn(from, to Cell) (Turn, error) {
	over, ok := jumpOver(from, to)
	if !ok {
		return Turn{}, fmt.Errorf("no capture line from %s to %s", from, to)
	}
	return Turn{from, to, over, NoCell, false}, nil
}

// PlaceTurn returns the turn made of the placement on p alone.
func PlaceTurn(p Cell) Turn { return Turn{NoCell, NoCell, NoCell, p, false} }

// WithPlacement returns t with a placement on p, before the move if first
// (4.5.1.2), otherwise after it (4.5.1.1).
func (t Turn) WithPlacement(p Cell, first bool) Turn {
	t.place, t.placeFirst = p, first && t.from != NoCell
	return t
}

// Move returns the turn's move, and false if the turn is a bare placement.
func (t Turn) Move() (from, to Cell, ok bool) { return t.from, t.to, t.from != NoCell }

// Captures returns the cell of the counter the turn captures, and false if
// it captures nothing.
func (t Turn) Captures() (Cell, bool) { return t.over, t.over != NoCell }

// Placement returns the cell the turn places a reserve counter on, and false
// if it places none.
func (t Turn) Placement() (Cell, bool) { return t.place, t.place != NoCell }

// PlacesFirst reports whether the placement comes before the move.
func (t Turn) PlacesFirst() bool { return t.placeFirst }

// step returns the step the turn makes, or no step.
func (t Turn) step() Step {
	if t.from == NoCell || t.over != NoCell {
		return noStep
	}
	return Step{t.from, t.to}
}

// From returns the moving counter's origin, or NoSquare for a bare
// placement.
func (t Turn) From() rules.Square {
	if t.from == NoCell {
		return rules.NoSquare
	}
	return rules.Square(t.from)
}

// To returns the moving counter's destination, or the placement's cell for a
// bare placement.
func (t Turn) To() rules.Square {
	if t.from == NoCell {
		return rules.Square(t.place)
	}
	return rules.Square(t.to)
}

// Legs returns the counters' paths of the turn in its order
// ([rules.Legged]): the placement from reserve, the moving counter's
// path, and the captured counter taken off the board.
func (t Turn) Legs() []rules.Leg {
	legs := make([]rules.Leg, 0, 3)
	place := rules.Leg{From: rules.NoSquare, To: rules.Square(t.place)}
	if t.place != NoCell && (t.placeFirst || t.from == NoCell) {
		legs = append(legs, place)
	}
	if t.from != NoCell {
		legs = append(legs, rules.Leg{From: rules.Square(t.from), To: rules.Square(t.to)})
		if t.over != NoCell {
			legs = append(legs, rules.Leg{From: rules.Square(t.over), To: rules.NoSquare})
		}
		if t.place != NoCell && !t.placeFirst {
			legs = append(legs, place)
		}
	}
	return legs
}

// String writes the turn in the spec's notation: "b2-c3", "d4xb2", "@c3",
// "c1xa3,@b2", "@d4,c1xa3".
func (t Turn) String() string {
	var b strings.Builder
	b.Grow(10)
	if t.place != NoCell && (t.placeFirst || t.from == NoCell) {
		b.WriteByte('@')
		b.WriteString(t.place.String())
		if t.from == NoCell {
			return b.String()
		}
		b.WriteByte(',')
	}
	b.WriteString(t.from.String())
	if t.over != NoCell {
		b.WriteByte('x')
	} else {
		b.WriteByte('-')
	}
	b.WriteString(t.to.String())
	if t.place != NoCell && !t.placeFirst {
		b.WriteString(",@")
		b.WriteString(t.place.String())
	}
	return b.String()
}

// ParseTurn reads a turn in the spec's notation (6.1). It checks the
// notation only: steps must join neighbouring cells and captures lie on a
// jump line of some scheme; whether the turn is legal is the position's
// business.
func ParseTurn(s string) (Turn, error) {
	parts := strings.Split(s, ",")
	if len(parts) > 2 {
		return Turn{}, fmt.Errorf("turn %q: %d actions, at most 2 allowed", s, len(parts))
	}
	var t Turn
	t.from, t.to, t.over, t.place = NoCell, NoCell, NoCell, NoCell
	for i, a := range parts {
		if a == "" {
			return Turn{}, fmt.Errorf("turn %q: action %d is empty", s, i+1)
		}
		if strings.HasPrefix(a, "@") {
			if t.place != NoCell {
				return Turn{}, fmt.Errorf("turn %q: two placements", s)
			}
			p, err := ParseCell(a[1:])
			if err != nil {
				return Turn{}, fmt.Errorf("turn %q action %d: %w", s, i+1, err)
			}
			t.place, t.placeFirst = p, i == 0
			continue
		}
		if t.from != NoCell {
			return Turn{}, fmt.Errorf("turn %q: two moves (one turn has one step or capture)", s)
		}
		m, err := parseMove(a)
		if err != nil {
			return Turn{}, fmt.Errorf("turn %q action %d: %w", s, i+1, err)
		}
		t.from, t.to, t.over = m.from, m.to, m.over
	}
	if t.from == NoCell {
		t.placeFirst = false
	}
	return t, nil
}

// parseMove reads a step "b2-c3" or a capture "d4xb2".
func parseMove(a string) (Turn, error) {
	i := strings.IndexAny(a, "-x")
	if i < 0 {
		return Turn{}, fmt.Errorf("%q is not a step (b2-c3), a capture (d4xb2) or a placement (@c3)", a)
	}
	from, err := ParseCell(a[:i])
	if err != nil {
		return Turn{}, err
	}
	to, err := ParseCell(a[i+1:])
	if err != nil {
		return Turn{}, err
	}
	if a[i] == 'x' {
		return CaptureTurn(from, to)
	}
	if _, ok := linkClass(from, to); !ok {
		return Turn{}, fmt.Errorf("%s and %s are not neighbours in any scheme", from, to)
	}
	return StepTurn(from, to), nil
}
