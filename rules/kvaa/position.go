package kvaa

import (
	"fmt"
	"strings"

	"arbiter/rules"
)

// CounterKind is the kind letter of a Kvaa counter in a [rules.View]. All
// counters of a side are alike; the traditional "men" and "women" are the
// two sides' counters.
const CounterKind rules.Kind = 'C'

// Position is an immutable Kvaa position under a game's rules. It
// implements [rules.Position] and [rules.Perfter].
type Position struct {
	g *Game
	s State
}

var (
	_ rules.Position = (*Position)(nil)
	_ rules.Perfter  = (*Position)(nil)
	_ rules.Move     = Turn{}
	_ rules.Legged   = Turn{}
	_ rules.Game     = (*Game)(nil)
)

// Game returns the rules the position is played under.
func (p *Position) Game() *Game { return p.g }

// State returns the position in the engine's fast form.
func (p *Position) State() State { return p.s }

// Turn returns the side to move.
func (p *Position) Turn() rules.Color { return p.s.Turn }

// Turns returns the legal turns.
func (p *Position) Turns() []Turn { return p.g.Turns(&p.s, nil) }

// Legal returns the legal turns as [rules.Move] values.
func (p *Position) Legal() []rules.Move {
	var buf [MaxTurns]Turn
	ts := p.g.Turns(&p.s, buf[:0])
	ms := make([]rules.Move, len(ts))
	for i, t := range ts {
		ms[i] = t
	}
	return ms
}

// Play returns the position after m, which must be a legal [Turn].
func (p *Position) Play(m rules.Move) (rules.Position, error) {
	t, ok := m.(Turn)
	if !ok {
		return nil, fmt.Errorf("move %v (%T) is not a Kvaa turn", m, m)
	}
	return p.PlayTurn(t)
}

// PlayTurn returns the position after t, which must be legal.
func (p *Position) PlayTurn(t Turn) (*Position, error) {
	if !p.g.Legal(&p.s, t) {
		return nil, p.illegal(t)
	}
	next := p.s
	p.g.Apply(&next, t)
	return &Position{g: p.g, s: next}, nil
}

// InCheck is always false: Kvaa has no check.
func (p *Position) InCheck() bool { return false }

// Outcome judges the game (5.1): see [Position.End].
func (p *Position) Outcome(history []rules.Position) rules.Outcome {
	o, _ := p.End(history)
	return o
}

// End judges the game after every committed turn (5.1, D-27): all
// captured, no legal turn, then no progress (quiet plies) and repetition
// (the position's key occurring repetition_limit times in history and now),
// both adjudicated by the configured rule. It returns the outcome with its
// termination code, [Unterminated] while the game goes on.
func (p *Position) End(history []rules.Position) (rules.Outcome, Termination) {
	if o, t := p.g.Judge(&p.s); o.Over() {
		return o, t
	}
	c := p.g.cfg
	if c.NoProgressPlies > 0 && int(p.s.Quiet) >= c.NoProgressPlies {
		return p.g.adjudicate(&p.s, rules.MoveCountRule), NoProgress
	}
	if c.RepetitionLimit > 0 && rules.CountKey(history, p) >= c.RepetitionLimit {
		return p.g.adjudicate(&p.s, rules.Repetition), RepetitionEnd
	}
	return rules.Outcome{}, Unterminated
}

// View returns the physical picture: one counter on each occupied cell,
// then the zones of [Geometry]: each side's reserve tray, then each side's
// captured counters.
func (p *Position) View() rules.View {
	s := &p.s
	n := s.OnBoard(South) + s.OnBoard(North)
	zone := [4]int{int(s.Reserve[South]), int(s.Reserve[North]), s.Captured(South), s.Captured(North)}
	owner := [4]rules.Color{South, North, South, North}
	for _, k := range zone {
		n += max(k, 0)
	}
	pieces := make([]rules.Piece, 0, n)
	v := rules.View{Stacks: make([][]rules.Piece, NumCells), Zones: make([][]rules.Piece, len(zone))}
	for c := range Cell(NumCells) {
		if side, ok := s.At(c); ok {
			pieces = append(pieces, rules.Piece{Color: side, Kind: CounterKind})
			v.Stacks[c] = pieces[len(pieces)-1:]
		}
	}
	for i, k := range zone {
		start := len(pieces)
		for range k {
			pieces = append(pieces, rules.Piece{Color: owner[i], Kind: CounterKind})
		}
		if k > 0 {
			v.Zones[i] = pieces[start:len(pieces):len(pieces)]
		}
	}
	return v
}

// Key returns the position's identity for repetition: board, reserves,
// side to move and both forbidden steps (section 3), written as the first
// six KPS fields.
func (p *Position) Key() rules.Key {
	var b strings.Builder
	b.Grow(40)
	p.s.keyString(&b)
	return rules.Key(b.String())
}

// ParseMove reads a turn in the spec's notation and returns it if legal.
func (p *Position) ParseMove(s string) (rules.Move, error) {
	t, err := ParseTurn(s)
	if err != nil {
		return nil, err
	}
	if p.g.Legal(&p.s, t) {
		return t, nil
	}
	return nil, p.illegal(t)
}

// illegal explains why t is not a legal turn.
func (p *Position) illegal(t Turn) error {
	x := p.s.Turn
	side := p.g.SideName(x)
	ts := p.Turns()
	if len(ts) == 0 {
		return fmt.Errorf("turn %s: %s has no legal turn in %s", t, side, p.s)
	}
	var why string
	_, placed := t.Placement()
	switch {
	case placed && !p.s.MayPlace(x):
		why = fmt.Sprintf("%s may not place (reserve %d, %d on the board)", side, p.s.Reserve[x], p.s.OnBoard(x))
	case !placed && p.s.MayPlace(x) && p.g.cfg.Placement != Deferred:
		why = fmt.Sprintf("%s owes a placement under %s", side, p.g.cfg.Placement)
	case !t.step().None() && t.step() == p.s.Forbidden[x]:
		why = fmt.Sprintf("%s is the mirror of %s's previous step (rule 4.6)", t.step(), side)
	default:
		why = "not among the legal turns"
	}
	list := make([]string, 0, min(len(ts), 13))
	for i, u := range ts {
		if i == 12 {
			list = append(list, fmt.Sprintf("... %d in all", len(ts)))
			break
		}
		list = append(list, u.String())
	}
	return fmt.Errorf("turn %s is illegal in %s: %s (legal: %s)", t, p.s, why, strings.Join(list, " "))
}

// FormatMove writes m in the spec's notation.
func (p *Position) FormatMove(m rules.Move) string { return m.String() }

// String returns the position as a KPS.
func (p *Position) String() string { return p.s.String() }

// Perft counts the leaves of the legal turn tree to depth with the fast
// engine.
func (p *Position) Perft(depth int) uint64 { return p.g.Perft(&p.s, depth) }
