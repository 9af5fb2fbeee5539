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
