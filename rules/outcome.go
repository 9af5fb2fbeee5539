package rules

import "strconv"

// Result says how a game stands: still going, won by one side, or drawn.
type Result uint8

const (
	Ongoing Result = iota
	FirstWins
	SecondWins
	Drawn
)

// String returns "*", "1-0", "0-1" or "1/2-1/2", the PGN forms, which read
// as first mover versus second mover.
func (r Result) String() string {
	switch r {
	case Ongoing:
		return "*"
	case FirstWins:
		return "1-0"
	case SecondWins:
		return "0-1"
	case Drawn:
		return "1/2-1/2"
	}
	return "result(" + strconv.Itoa(int(r)) + ")"
}

// ParseResult is the inverse of [Result.String]: it reads "*", "1-0",
// "0-1" or "1/2-1/2".
func ParseResult(s string) (Result, bool) {
	for r := Ongoing; r <= Drawn; r++ {
		if r.String() == s {
			return r, true
		}
	}
	return Ongoing, false
}

// Reason says why a game ended.
type Reason uint8

const (
	NoReason Reason = iota
	Checkmate
	Stalemate
	Repetition        // n-fold repetition (sennichite, threefold, fivefold)
	PerpetualCheck    // repetition caused by continuous checks: the checker loses (shogi)
	MoveCountRule     // 50-move, 75-move, or a game's "no progress" count
	DeadPosition      // neither side can ever win (insufficient material)
	Impasse           // shogi jishogi by points or declaration
	NoMoves           // the side to move is blocked (Kvaa)
	NoPieces          // the side to move has nothing left (Kvaa: all captured)
	Time              // flag fall
	Resignation       // a player resigned
	Agreement         // the players agreed a draw
	IllegalMove       // loss on an illegal move under the event's penalty
	ArbiterDecision   // set by the arbiter for any other reason
	Forfeit           // not played, or a player did not appear
	DeclarationFailed // a failed entering-king declaration loses (shogi)
)

var reasonNames = [...]string{
	NoReason:          "none",
	Checkmate:         "checkmate",
	Stalemate:         "stalemate",
	Repetition:        "repetition",
	PerpetualCheck:    "perpetual-check",
	MoveCountRule:     "move-count",
	DeadPosition:      "dead-position",
	Impasse:           "impasse",
	NoMoves:           "no-moves",
	NoPieces:          "no-pieces",
	Time:              "time",
	Resignation:       "resignation",
	Agreement:         "agreement",
	IllegalMove:       "illegal-move",
	ArbiterDecision:   "arbiter",
	Forfeit:           "forfeit",
	DeclarationFailed: "declaration",
}

// String returns the reason's stable name, as stored and exported.
func (r Reason) String() string {
	if int(r) < len(reasonNames) {
		return reasonNames[r]
	}
	return "reason(" + strconv.Itoa(int(r)) + ")"
}

// ParseReason is the inverse of [Reason.String].
func ParseReason(s string) (Reason, bool) {
	for i, n := range reasonNames {
		if n == s {
			return Reason(i), true
		}
	}
	return NoReason, false
}

// Outcome is the end of a game, with its reason. The zero Outcome is a game
// still in progress.
type Outcome struct {
	Result Result
	Reason Reason
}

// Win returns the outcome of a win by c for reason r.
func Win(c Color, r Reason) Outcome {
	if c == First {
		return Outcome{FirstWins, r}
	}
	return Outcome{SecondWins, r}
}

// Loss returns the outcome of a loss by c for reason r.
func Loss(c Color, r Reason) Outcome { return Win(c.Other(), r) }

// Draw returns the outcome of a draw for reason r.
func Draw(r Reason) Outcome { return Outcome{Drawn, r} }

// Over reports whether the game has ended.
func (o Outcome) Over() bool { return o.Result != Ongoing }

// Winner returns the winning side, and false for a draw or a game in
// progress.
func (o Outcome) Winner() (Color, bool) {
	switch o.Result {
	case FirstWins:
		return First, true
	case SecondWins:
		return Second, true
	}
	return 0, false
}

// String returns e.g. "1-0 checkmate", or "*" for a game in progress.
func (o Outcome) String() string {
	if !o.Over() {
		return "*"
	}
	return o.Result.String() + " " + o.Reason.String()
}
