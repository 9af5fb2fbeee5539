package dgt

import (
	"fmt"
	"time"

	"arbiter/rules"
)

// EventKind says what an [Event] reports.
type EventKind uint8

// Event kinds. The package doc maps each onto the daemon's board events.
const (
	// EventIdentified: the board answered with its serial number (Serial,
	// the board's identity) and version (Version).
	EventIdentified EventKind = iota + 1
	// EventBoard: the whole board (Pieces, Orientation): the first full
	// read, a read after the link came back, or the first read that
	// decided the orientation. It replaces everything known before.
	EventBoard
	// EventSquare: a settled change of one square (Square now holds Piece,
	// or is empty when Occupied is false; Code is the DGT code).
	EventSquare
	// EventClock: a clock reading (Clock; White and Black mapped from the
	// physical sides).
	EventClock
	// EventLever: the clock lever changed position: a press. Side is the
	// side that pressed when the clock's turn bits tell (SideKnown). A
	// press read while the board has not settled comes after the settled
	// squares, with its own At.
	EventLever
	// EventClockButton: a key on the clock was pressed (Key).
	EventClockButton
	// EventLinkLost: the board stopped answering or its port failed.
	EventLinkLost
	// EventLinkBack: the board answers again; an EventBoard follows.
	EventLinkBack
	// EventError: the board broke the protocol, or a clock command was
	// refused or never acknowledged (Err).
	EventError
	// EventLog: the board's EEPROM log, as asked for (Log); see [Recover].
	// Orientation is the one the session uses, for a log whose game did
	// not begin from a start position it could tell. Err (and no Log):
	// the board did not send it.
	EventLog
)

var eventNames = [...]string{
	EventIdentified: "identified", EventBoard: "board", EventSquare: "square", EventClock: "clock",
	EventLever: "lever", EventClockButton: "clock-button", EventLinkLost: "link-lost",
	EventLinkBack: "link-back", EventError: "error", EventLog: "log",
}

// String names the kind.
func (k EventKind) String() string {
	if int(k) < len(eventNames) && eventNames[k] != "" {
		return eventNames[k]
	}
	return fmt.Sprintf("event(%d)", uint8(k))
}

// Event is one fact about a board, stamped with the host instant At at
// which the session learnt it.
type Event struct {
	Kind   EventKind
	Serial string // the board's serial number once known; its identity
	Addr   uint16 // bus address (bus mode)
	At     time.Duration

	// EventSquare.
	Square   rules.Square
	Piece    rules.Piece
	Occupied bool
	Code     Piece

	// EventBoard: Pieces[sq] for every chess square (zero Piece where
	// empty), Codes the DGT codes in the same order.
	Pieces      []rules.Piece
	Codes       []Piece
	Orientation Orientation

	// EventClock.
	Clock        ClockTimes
	White, Black time.Duration

	// EventLever.
	Side      rules.Color
	SideKnown bool

	// EventClockButton.
	Key byte

	// EventIdentified.
	Version Version

	// EventLog.
	Log *Log

	Err error
}

// String writes the event compactly for logs and tests.
func (e Event) String() string {
	s := fmt.Sprintf("%s %s", e.Serial, e.Kind)
	switch e.Kind {
	case EventSquare:
		if e.Occupied {
			s += fmt.Sprintf(" %s=%s", chessName(e.Square), e.Piece)
		} else {
			s += fmt.Sprintf(" %s empty", chessName(e.Square))
		}
	case EventClock:
		c := e.Clock
		s += fmt.Sprintf(" white=%v black=%v running=%t lever=%t left-turn=%t right-turn=%t", e.White, e.Black, c.Running, c.Lever, c.LeftTurn, c.RightTurn)
	case EventLever:
		if e.SideKnown {
			s += " by " + e.Side.String()
		}
	case EventError:
		s += fmt.Sprintf(" %v", e.Err)
	case EventBoard:
		s += " " + e.Orientation.String()
	}
	return s
}

func chessName(sq rules.Square) string {
	if sq < 0 || sq > 63 {
		return "-"
	}
	return string(rune('a'+sq%8)) + string(rune('1'+sq/8))
}
