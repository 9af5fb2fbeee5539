package kvaa

import (
	"arbiter/rules"
)

// Termination is the record's code for how a game ended (6.2).
type Termination string

// The termination codes of the record format.
const (
	Unterminated  Termination = "unterminated"
	CapturedAll   Termination = "captured-all"   // §4.7.1
	Blocked       Termination = "blocked"        // §4.7.2
	MirrorBlocked Termination = "mirror-blocked" // §4.7.3: only mirror steps were left
	MutualBlock   Termination = "mutual-block"   // §4.7.4
	NoProgress    Termination = "no-progress"    // §4.7.5, D-18
	RepetitionEnd Termination = "repetition"     // §4.7.5, D-18
	TimeForfeit   Termination = "time"
	Resigned      Termination = "resignation"
	Agreed        Termination = "agreement"
	Forfeited     Termination = "forfeit"
)

// Reason returns the shared reason code for t.
func (t Termination) Reason() rules.Reason {
	switch t {
	case CapturedAll:
		return rules.NoPieces
	case Blocked, MirrorBlocked, MutualBlock:
		return rules.NoMoves
	case NoProgress:
		return rules.MoveCountRule
	case RepetitionEnd:
		return rules.Repetition
	case TimeForfeit:
		return rules.Time
	case Resigned:
		return rules.Resignation
	case Agreed:
		return rules.Agreement
	case Forfeited:
		return rules.Forfeit
	}
	return rules.NoReason
}

// Judge applies the end checks of 5.1 that depend on the position alone, in
// the spec's order (D-27): all counters captured, then no legal turn for the
// side to move (blocked, mirror-blocked, or a mutual blockade adjudicated by
// counters on the board). The checks that look at the past (no progress,
// repetition) are made by [Position.Outcome].
func (g *Game) Judge(s *State) (rules.Outcome, Termination) {
	y := s.Turn
	x := y.Other()
	if s.OnBoard(y) == 0 && s.Reserve[y] == 0 {
		return rules.Win(x, rules.NoPieces), CapturedAll
	}
	if g.hasTurn(s) {
		return rules.Outcome{}, Unterminated
	}
	other := *s
	other.Turn = x
	if g.hasTurn(&other) {
		free := *s
		free.Forbidden[y] = noStep
		if g.hasTurn(&free) {
			return rules.Win(x, rules.NoMoves), MirrorBlocked
		}
		return rules.Win(x, rules.NoMoves), Blocked
	}
	return g.adjudicate(s, rules.NoMoves), MutualBlock
}

// adjudicate decides a game by the configured rule (§4.7.4/§4.7.5, D-18).
func (g *Game) adjudicate(s *State, why rules.Reason) rules.Outcome {
	var a, b int
	switch g.cfg.Adjudication {
	case AdjudicateDraw:
		return rules.Draw(why)
	case MaterialTotal:
		a, b = s.OnBoard(South)+int(s.Reserve[South]), s.OnBoard(North)+int(s.Reserve[North])
	default:
		a, b = s.OnBoard(South), s.OnBoard(North)
	}
	switch {
	case a > b:
		return rules.Win(South, why)
	case b > a:
		return rules.Win(North, why)
	}
	return rules.Draw(why)
}
