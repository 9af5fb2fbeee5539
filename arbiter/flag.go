package arbiter

import (
	"arbiter/clock"
	"arbiter/rules"
)

// CanEverWin answers the clock's question at a flag fall from the game's
// rules: whether side can still win from pos. Games that do not say
// (rules.Winnable) are those where a flag simply loses.
func CanEverWin(pos rules.Position, side clock.Side) clock.Answer {
	if pos == nil {
		return clock.Unknown
	}
	w, ok := pos.(rules.Winnable)
	if !ok {
		return clock.Yes
	}
	can, known := w.CanEverWin(rules.Color(side))
	switch {
	case !known:
		return clock.Unknown
	case can:
		return clock.Yes
	}
	return clock.No
}

// Adjudicator answers a clock's question at a flag fall (CanEverWin) from
// the position of the session it returns; nil, before the game has one,
// is Unknown. A table and a replay make their clock before their session.
type Adjudicator func() *Session

// CanEverWin implements clock.Adjudicator.
func (a Adjudicator) CanEverWin(side clock.Side) clock.Answer {
	s := a()
	if s == nil {
		return clock.Unknown
	}
	return CanEverWin(s.Position(), side)
}
