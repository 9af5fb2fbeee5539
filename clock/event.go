package clock

import (
	"errors"
	"fmt"
	"time"
)

// Answer is a game's reply to "can this side ever win?".
type Answer uint8

// The answers an Adjudicator may give.
const (
	Unknown Answer = iota
	Yes
	No
)

// Adjudicator asks the game's rules what a flag means. CanEverWin reports
// whether side could still win by any legal continuation (FIDE 6.9: can
// the opponent of the flagged player checkmate by any series of legal
// moves). Yes makes the flag a loss, No a draw, Unknown goes to the arbiter.
type Adjudicator interface {
	CanEverWin(side Side) Answer
}

// Verdict is what a flag fall means for the game.
type Verdict uint8

// The verdicts on a flag.
const (
	// NoVerdict: the event is not a final flag.
	NoVerdict Verdict = iota
	// FlagLoses: the flagged side loses.
	FlagLoses
	// FlagDraws: the opponent cannot win, so the game is drawn; also both
	// flags down in claim-only mode.
	FlagDraws
	// AskArbiter: the rules could not tell; the arbiter decides.
	AskArbiter
)

// String names the verdict.
func (v Verdict) String() string {
	switch v {
	case NoVerdict:
		return "none"
	case FlagLoses:
		return "loss"
	case FlagDraws:
		return "draw"
	case AskArbiter:
		return "arbiter"
	}
	return fmt.Sprintf("Verdict(%d)", uint8(v))
}

// EventKind says what happened.
type EventKind uint8

// The kinds of clock events.
const (
	// StageReached: the side completed a stage's move quota and the next
	// stage's base time was added.
	StageReached EventKind = iota + 1
	// OvertimeEntered: main time ran out and overtime began (byoyomi period
	// or first Canadian block).
	OvertimeEntered
	// PeriodLost: a byoyomi period was overstepped and the next began.
	PeriodLost
	// UnitEntered: a thinking unit (NHK style) was entered.
	UnitEntered
	// BlockStarted: a new Canadian block began.
	BlockStarted
	// FlagPending: host time passed a flag instant that the board has not
	// yet confirmed; the display shows zero.
	FlagPending
	// LinkSilent: the board said nothing past a flag instant plus the
	// grace; the clock is held and the arbiter must look.
	LinkSilent
	// Flag: a flag fell (confirmed by the board). Final is false in
	// claim-only mode until a claim.
	Flag
)

var eventNames = [...]string{
	StageReached: "stage", OvertimeEntered: "overtime", PeriodLost: "period-lost",
	UnitEntered: "unit", BlockStarted: "block", FlagPending: "flag-pending",
	LinkSilent: "link-silent", Flag: "flag",
}

// String names the kind as the scenario files do.
func (k EventKind) String() string {
	if int(k) < len(eventNames) && eventNames[k] != "" {
		return eventNames[k]
	}
	return fmt.Sprintf("EventKind(%d)", uint8(k))
}

// Event is something the clock did on its own or as a consequence of an
// input: rollovers, flags, alerts.
type Event struct {
	Kind EventKind
	Side Side
	// At is the instant it happened (for LinkSilent: when the hold began).
	At time.Duration
	// FlagAt is the flag instant for FlagPending and LinkSilent.
	FlagAt time.Duration
	// Final and Verdict describe a Flag.
	Final   bool
	Verdict Verdict
}

// String formats the event for logs and test failures.
func (e Event) String() string {
	s := fmt.Sprintf("%s %s @%v", e.Kind, e.Side, e.At)
	switch e.Kind {
	case FlagPending, LinkSilent:
		s += fmt.Sprintf(" flag@%v", e.FlagAt)
	case Flag:
		s += fmt.Sprintf(" final=%t verdict=%s", e.Final, e.Verdict)
	}
	return s
}

// Errors returned by clock operations; callers test them with errors.Is.
var (
	ErrNotStarted = errors.New("clock not started")
	ErrStarted    = errors.New("clock already started")
	ErrNotRunning = errors.New("press by the side whose clock is not running")
	ErrFlagged    = errors.New("flag has fallen")
	ErrPaused     = errors.New("clock is paused")
	ErrNotPaused  = errors.New("clock is not paused")
	ErrFinished   = errors.New("clock is stopped")
	ErrNoFlag     = errors.New("opponent's flag has not fallen")
	ErrBadSide    = errors.New("no such side")
	ErrUpcount    = errors.New("upcount clock has no time to set")
)
