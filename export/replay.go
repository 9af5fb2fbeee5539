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

// record is the sheet as a record format writes it
// (rules.RecordWriter): what the event knows of the game, and its stored
// canonical moves played again from its start position. A move that does
// not parse or is not legal is an error naming its ply: the database and
// the rules disagree.
func record(s *Sheet) (*rules.Record, error) {
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
	r := &rules.Record{Event: s.Event, Tournament: s.Tournament, EventDate: s.EventDate, Round: g.Round, Board: g.BoardNo,
		First: recordPlayer(g.First, s.First), Second: recordPlayer(g.Second, s.Second), Started: g.Started, Ended: g.Ended,
		TimeControl: g.TimeControl, StartPosition: g.StartPosition, Game: game, Start: start}
	for _, t := range g.Tags {
		r.Tags = append(r.Tags, rules.RecordTag{Name: t.Name, Value: t.Value})
	}
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
	r.Clocks = remaining(s, r)
	r.Used = moveTimes(s)
	return r, nil
}

// recordPlayer is a player of a game, by the name the game stored, with
// what the tournament knows of them.
func recordPlayer(name string, p store.Player) rules.RecordPlayer {
	return rules.RecordPlayer{Name: name, Rating: p.Rating, Title: p.Title, FideID: p.FideID}
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

// remaining returns the mover's clock after each move, or nil when the
// game has no clock: no time control, or no clock readings stored (a
// game imported from a record without them has none).
func remaining(s *Sheet, r *rules.Record) []time.Duration {
	if !hasClock(s.Game) || !slices.ContainsFunc(s.Moves, func(m store.Move) bool { return m.ClockFirst != 0 || m.ClockSecond != 0 }) {
		return nil
	}
	out := make([]time.Duration, len(s.Moves))
	for i, m := range s.Moves {
		out[i] = m.ClockFirst
		if r.Sides[i] == rules.Second {
			out[i] = m.ClockSecond
		}
	}
	return out
}

// hasClock reports whether a game was played with a clock.
func hasClock(g store.Game) bool { return g.TimeControl != "" && g.TimeControl != "-" }
