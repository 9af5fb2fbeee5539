package arbiter

import (
	"fmt"
	"time"

	"arbiter/rules"
)

// EventKind says what a board reported.
type EventKind uint8

// The kinds of board events a session understands.
const (
	// SquareChanged: a square's stack height (and, where sensed, top
	// piece) is now Height (and Top).
	SquareChanged EventKind = iota + 1
	// ZoneChanged: zone Zone now holds Count pieces.
	ZoneChanged
	// ClockPressed: Side pressed its clock button.
	ClockPressed
	// AdjustPressed: Side pressed its adjust (j'adoube) button.
	AdjustPressed
	// ArbiterCalled: a player pressed the arbiter-call button.
	ArbiterCalled
	// Answered: Side answered a prompt with choice Choice (from 0), or
	// AnswerLost when the board knows a press happened but not its value.
	Answered
	// StateDump: the board's full state (resynchronisation): Heights,
	// Tops (where sensed) and ZoneCounts replace what the session knew.
	StateDump
	// LinkLost and LinkRestored: the board stopped or resumed talking.
	LinkLost
	LinkRestored
	// Heartbeat: the board is alive and has reported everything up to At.
	Heartbeat
	// Gap: frames from the board were lost; a StateDump will follow. Until
	// it does, the session's picture may be stale, so a clock press is
	// held and judged on the dump.
	Gap
	// OfferPressed: Side pressed the offer button (a draw, or jishogi in
	// shogi; by the opponent while an offer stands, an acceptance).
	OfferPressed
	// ResignPressed: Side pressed the resign button; a second press within
	// board.ResignConfirm confirms the resignation.
	ResignPressed
	// ClaimPressed: Side pressed the claim button (a draw claim, or in
	// shogi an entering-king declaration).
	ClaimPressed
	// Recalled: the board's own log of the game (Presses, oldest first),
	// read after the host lost the board for a while (a crash, a link
	// down): the moves made meanwhile are read from it one by one.
	Recalled
)

var eventNames = [...]string{
	SquareChanged: "square", ZoneChanged: "zone", ClockPressed: "press", AdjustPressed: "adjust",
	ArbiterCalled: "call", Answered: "answer", StateDump: "dump", LinkLost: "link-lost",
	LinkRestored: "link-restored", Heartbeat: "heartbeat", Gap: "gap",
	OfferPressed: "offer", ResignPressed: "resign", ClaimPressed: "claim",
	Recalled: "recall",
}

// String names the kind as scenario files write it.
func (k EventKind) String() string {
	if int(k) < len(eventNames) && eventNames[k] != "" {
		return eventNames[k]
	}
	return fmt.Sprintf("EventKind(%d)", uint8(k))
}

// Event is one report from a board, already mapped to host time.
type Event struct {
	Kind EventKind
	// At is the host monotonic instant of the event (the board's timestamp
	// mapped to host time); BoardMs is the board's own timestamp.
	At      time.Duration
	BoardMs int64

	// Square is the board's own number of the square (its sensor number,
	// see rules.Geometry.SensorSquare); Heights and Tops of a StateDump
	// are in that order too.
	Square rules.Square
	Height int
	Top    rules.Piece // sensed top piece; zero if not sensed or empty

	Zone  int
	Count int

	Side   rules.Color
	Choice int
	// Recovered marks a press learnt from a state dump's button counters,
	// not from its own frame: its instant is the dump's.
	Recovered bool

	Heights    []int         // StateDump
	Tops       []rules.Piece // StateDump, where sensed
	ZoneCounts []int         // StateDump, where sensed

	// RawSeq is the raw-log sequence number of the frame, for evidence.
	RawSeq uint64

	// A Heartbeat from a reading of the board's own clock (Clock): the
	// side the clock shows to move, when ClockTurnKnown. On a clock with a
	// rocker lever (a DGT clock) a player whose side of the lever is down
	// has pressed already and cannot press again.
	Clock          bool
	ClockTurn      rules.Color
	ClockTurnKnown bool

	Presses []LoggedPress // Recalled
}

// LoggedPress is a clock press a board logged itself, with the board as
// it stood then: Heights and Tops as a StateDump has them.
type LoggedPress struct {
	Heights []int
	Tops    []rules.Piece
	// Side pressed; SideKnown is false when the board could not tell
	// (the side to move is taken).
	Side      rules.Color
	SideKnown bool
}

// Choices of an answer that are not an index.
const (
	// AnswerLost is the Choice of an answer whose value was lost with its
	// frame: the question is asked again.
	AnswerLost = -1
	// AnswerYes and AnswerNo answer a promotion question (PROTOCOL 5.4,
	// values 1 and 2): promote, do not promote. Other questions ignore
	// them.
	AnswerYes = -2
	AnswerNo  = -3
)
