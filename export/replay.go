package export

import (
	"fmt"
	"slices"
	"time"

	"arbiter/rules"
	"arbiter/store"
	// The games whose records this package writes.
	_ "arbiter/rules/chess"
	_ "arbiter/rules/kvaa"
	_ "arbiter/rules/shogi"
	_ "arbiter/rules/tavreli"
	_ "arbiter/rules/tensor"
)

// Replayed is a stored game played again with its rules, as a record
// [Writer] gets it.
type Replayed struct {
	Game  rules.Game
	Start rules.Position
	Moves []rules.Move
	// After[i] is the position after Moves[i]; Sides[i] the side that
	// played it.
	After []rules.Position
	Sides []rules.Color
	// Outcome is the stored result, Ongoing while the game runs.
	Outcome rules.Outcome
}

// replay plays the sheet's stored canonical moves from its start position.
// A move that does not parse or is not legal is an error naming its ply:
// the database and the rules disagree.
func replay(s *Sheet) (*Replayed, error) {
	g := s.Game
	game, err := rules.NewFromText(g.Game, g.Options)
	if err != nil {
		return nil, err
	}
	start := game.Start()
	if g.StartPosition != "" {
		if start, err = game.ParsePosition(g.StartPosition); err != nil {
			return nil, fmt.Errorf("start position: %w", err)
		}
	}
	r := &Replayed{Game: game, Start: start}
	pos := start
	for i, m := range s.Moves {
		if m.Ply != i+1 {
			return nil, fmt.Errorf("stored move %d has ply %d", i+1, m.Ply)
		}
		mv, next, err := rules.PlayText(pos, m.Canonical)
		if err != nil {
			return nil, fmt.Errorf("ply %d %q: %w", m.Ply, m.Canonical, err)
		}
		r.Moves = append(r.Moves, mv)
		r.Sides = append(r.Sides, pos.Turn())
		r.After = append(r.After, next)
		pos = next
	}
	r.Outcome = storedOutcome(g)
	return r, nil
}

// storedOutcome reads a stored result and reason.
func storedOutcome(g store.Game) rules.Outcome {
	var o rules.Outcome
	if r, ok := rules.ParseResult(g.Result); ok && r != rules.Ongoing {
		o.Result = r
		o.Reason, _ = rules.ParseReason(g.Reason)
	}
	return o
}

// last returns the position after the last move.
func (r *Replayed) last() rules.Position {
	if len(r.After) == 0 {
		return r.Start
	}
	return r.After[len(r.After)-1]
}

// remaining returns the mover's clock after each move, and whether the
// game has a clock at all: a time control, and clock readings stored (a
// game imported from a record without them has none).
func remaining(s *Sheet, r *Replayed) ([]time.Duration, bool) {
	if !hasClock(s.Game) || !slices.ContainsFunc(s.Moves, func(m store.Move) bool { return m.ClockFirst != 0 || m.ClockSecond != 0 }) {
		return nil, false
	}
	out := make([]time.Duration, len(s.Moves))
	for i, m := range s.Moves {
		out[i] = m.ClockFirst
		if r.Sides[i] == rules.Second {
			out[i] = m.ClockSecond
		}
	}
	return out, true
}

// hasClock reports whether a game was played with a clock.
func hasClock(g store.Game) bool { return g.TimeControl != "" && g.TimeControl != "-" }
