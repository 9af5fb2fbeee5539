package chesscore

import (
	"fmt"
	"io"
	"time"

	"arbiter/rules"
)

// NewRecord scores moves played from start in the game's record notation.
// When start is not the game's initial position it sets the SetUp and FEN
// tags; variant, when not empty, goes into a Variant tag. Clocks, when not
// nil, gives the mover's remaining time after each move. Callers add the
// Seven Tag Roster values, TimeControl, Termination and the result.
func NewRecord(start *Position, moves []rules.Move, clocks []time.Duration, variant string) (*Record, error) {
	if clocks != nil && len(clocks) != len(moves) {
		return nil, fmt.Errorf("record: %d clock readings for %d moves", len(clocks), len(moves))
	}
	r := &Record{Result: "*"}
	if variant != "" {
		r.SetTag("Variant", variant)
	}
	fen := start.b.FEN()
	init := start.b.cfg.StartBoard()
	if variant != "" || fen != init.FEN() {
		r.SetTag("SetUp", "1")
		r.SetTag("FEN", fen)
	}
	pos := start
	for i, m := range moves {
		rm := RecordMove{Text: pos.FormatMove(m)}
		if clocks != nil {
			rm.Clock, rm.HasClock = clocks[i], true
		}
		next, err := pos.Play(m)
		if err != nil {
			return nil, fmt.Errorf("record: move %d %s: %w", i+1, m, err)
		}
		pos = next.(*Position)
		r.Moves = append(r.Moves, rm)
	}
	return r, nil
}

// Replay plays the moves of r and returns the start position, the moves
// and the positions after each. The start is the FEN tag when present,
// read by parse, else initial. Errors name the move, its line and column.
func Replay(r *Record, initial *Position, parse func(fen string) (*Position, error)) (*Position, []rules.Move, []*Position, error) {
	start := initial
	if fen, ok := r.Tag("FEN"); ok {
		p, err := parse(fen)
		if err != nil {
			return nil, nil, nil, fmt.Errorf("FEN tag: %w", err)
		}
		start = p
	}
	pos := start
	moves := make([]rules.Move, 0, len(r.Moves))
	after := make([]*Position, 0, len(r.Moves))
	for i, rm := range r.Moves {
		m, err := pos.ParseMove(rm.Text)
		if err != nil {
			return nil, nil, nil, fmt.Errorf("PGN line %d column %d: ply %d: %w", rm.Line, rm.Col, i+1, err)
		}
		next, err := pos.Play(m)
		if err != nil {
			return nil, nil, nil, fmt.Errorf("PGN line %d column %d: move %q: %w", rm.Line, rm.Col, rm.Text, err)
		}
		pos = next.(*Position)
		moves = append(moves, m)
		after = append(after, pos)
	}
	return start, moves, after, nil
}

// Imported is one game read from PGN: the record, its start position, the
// moves and the position after each move.
type Imported struct {
	Record *Record
	Start  *Position
	Moves  []rules.Move
	After  []*Position
}

// ImportPGN reads every game of a PGN text and replays it: check vets a
// record's tags first (the variant), initial and parse give the start
// position. Errors name the game, the line and column, and the move text.
func ImportPGN(r io.Reader, check func(*Record) error, initial *Position, parse func(fen string) (*Position, error)) ([]Imported, error) {
	recs, err := ReadPGN(r)
	if err != nil {
		return nil, err
	}
	out := make([]Imported, 0, len(recs))
	for i := range recs {
		rec := &recs[i]
		if err := check(rec); err != nil {
			return nil, fmt.Errorf("game %d: %w", i+1, err)
		}
		start, moves, after, err := Replay(rec, initial, parse)
		if err != nil {
			return nil, fmt.Errorf("game %d: %w", i+1, err)
		}
		out = append(out, Imported{Record: rec, Start: start, Moves: moves, After: after})
	}
	return out, nil
}

// SetOutcome sets the record's result and its Termination tag from o.
func (r *Record) SetOutcome(o rules.Outcome) {
	r.Result = o.Result.String()
	r.SetTag("Termination", Termination(o))
}

// Termination returns the PGN Termination tag value for an outcome.
func Termination(o rules.Outcome) string {
	switch o.Reason {
	case rules.NoReason:
		return "unterminated"
	case rules.Time:
		return "time forfeit"
	case rules.IllegalMove:
		return "rules infraction"
	case rules.ArbiterDecision:
		return "adjudication"
	case rules.Forfeit:
		return "abandoned"
	}
	return "normal"
}
