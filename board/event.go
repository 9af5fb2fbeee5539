package board

import (
	"errors"
	"fmt"
	"time"

	"arbiter/rules"
)

// EventKind says what an [Event] reports.
type EventKind uint8

// Event kinds.
const (
	// EventHello: a board identified itself (after every open and every
	// restart). Info is set; Restarted says whether the board powered up
	// since it was last seen.
	EventHello EventKind = iota + 1
	// EventSquare: a square's height or top piece changed.
	EventSquare
	// EventZone: a zone's contents changed.
	EventZone
	// EventButton: a button was pressed or released.
	EventButton
	// EventHeartbeat: the board is alive and has nothing else to say. Its
	// mapped time proves that nothing happened before it (flag-fall
	// finality, clocks.md §2).
	EventHeartbeat
	// EventSnapshot: a complete full-state dump; Snapshot is set. It is
	// the truth from its instant on and heals every gap before it.
	EventSnapshot
	// EventGap: frames were lost (Lost says how many, 0 when unknown); a
	// snapshot has been requested and will follow.
	EventGap
	// EventHealth: the link's health changed; Health is set.
	EventHealth
	// EventPong: the answer to a ping; RTT is set.
	EventPong
	// EventNak: the board rejected a host message; Err says which and why.
	EventNak
	// EventError: the board broke the protocol (a frame that decodes but
	// makes no sense, an incompatible version); Err is set.
	EventError
	// EventClock: a reading of a clock the board carries (a DGT 3000 on a
	// DGT board); Clock is set. Like a heartbeat, it proves the link
	// alive up to its instant.
	EventClock
	// EventHistory: the board's own log of the game, as the host asked
	// for it ([Recaller]); History is set (empty when the log holds no
	// press), or Err when the log could not be read.
	EventHistory
)

var eventNames = [...]string{
	EventHello: "hello", EventSquare: "square", EventZone: "zone", EventButton: "button",
	EventHeartbeat: "heartbeat", EventSnapshot: "snapshot", EventGap: "gap",
	EventHealth: "health", EventPong: "pong", EventNak: "nak", EventError: "error",
	EventClock: "clock", EventHistory: "history",
}

// String returns the kind's name.
func (k EventKind) String() string {
	if int(k) < len(eventNames) && eventNames[k] != "" {
		return eventNames[k]
	}
	return fmt.Sprintf("event(%d)", uint8(k))
}

// Health is the state of a board's link.
type Health uint8

// Health states.
const (
	// Connecting: the port is open and the handshake is under way.
	Connecting Health = iota + 1
	// Active: frames arrive as expected.
	Active
	// Delayed: the board has been silent for more than 2.5 heartbeats.
	Delayed
	// NotResponding: silent for more than 6 heartbeats; the port is open.
	NotResponding
	// Disconnected: the port failed or vanished; the driver will pick the
	// board up again when it returns.
	Disconnected
)

// String returns the state's name.
func (h Health) String() string {
	switch h {
	case Connecting:
		return "connecting"
	case Active:
		return "active"
	case Delayed:
		return "delayed"
	case NotResponding:
		return "not-responding"
	case Disconnected:
		return "disconnected"
	}
	return fmt.Sprintf("health(%d)", uint8(h))
}

// Event is one fact reported by a board, with both its times. Events are
// plain values; only the rare Hello and Snapshot point to more data. The
// kind decides which fields are meaningful.
type Event struct {
	Kind  EventKind
	Board string // board id from the handshake (Info.ID)
	Port  string // port path the event came through
	Seq   uint16 // the frame's sequence number, where the protocol has one (0 for driver events)
	// RawSeq is the raw log's number for the record the event came from,
	// 0 for events not taken from a logged record.
	RawSeq uint64

	// BoardMs is the board's clock for the frame, unwrapped across the
	// 32-bit rollover (ms since the board's power-up); 0 for boards
	// without a clock of their own.
	BoardMs int64
	// Host is the instant the frame's last byte was read, on the host's
	// monotonic timeline (time since the driver's epoch).
	Host time.Duration
	// At is BoardMs mapped onto the host timeline: the best estimate of
	// when the event happened. It equals Host when Mapped is false.
	At     time.Duration
	Mapped bool

	// EventSquare.
	Square    rules.Square
	Height    int
	Saturated bool // the true height is at least Height
	Top       Ident

	// EventZone (Count, Saturated and Piece; ZoneAction).
	Zone       int
	Count      int
	ZoneAction ZoneAction
	Piece      Ident

	// EventButton.
	Button  ButtonKind
	Side    Side
	Pressed bool
	Presses uint8 // the board's press counter for this button
	Value   uint8 // answer value
	// Missed counts presses of this button that were lost before this
	// one. Recovered marks a press learnt from a snapshot's counters, not
	// from its own frame: its time is the snapshot's.
	Missed    int
	Recovered bool

	// EventGap.
	Lost int

	// EventHealth.
	Health Health

	// EventPong: round trip measured on the host clock.
	RTT time.Duration

	// EventClock.
	Clock *ClockReading

	// EventHistory: the clock presses the board logged, oldest first.
	History []LoggedPress

	// Err is set on EventError, and on EventNak (what the board refused).
	Err error
	// Info is set on EventHello: who the board is and what it can do.
	Info     *Info
	Snapshot *Snapshot
	// Restarted is set on EventHello when the board powered up since the
	// last handshake (its Boot changed): its sequence and clock restarted.
	Restarted bool
}

// String writes the event compactly for logs and tests.
func (e Event) String() string {
	s := fmt.Sprintf("%s #%d %s", e.Board, e.Seq, e.Kind)
	switch e.Kind {
	case EventSquare:
		s += fmt.Sprintf(" sq=%d h=%d top=%s", e.Square, e.Height, e.Top)
		if e.Saturated {
			s += "+"
		}
	case EventZone:
		s += fmt.Sprintf(" zone=%d n=%d action=%d piece=%s", e.Zone, e.Count, e.ZoneAction, e.Piece)
	case EventButton:
		s += fmt.Sprintf(" %s side=%d pressed=%t n=%d value=%d", e.Button, e.Side, e.Pressed, e.Presses, e.Value)
		if e.Missed > 0 {
			s += fmt.Sprintf(" missed=%d", e.Missed)
		}
		if e.Recovered {
			s += " recovered"
		}
	case EventGap:
		s += fmt.Sprintf(" lost=%d", e.Lost)
	case EventHealth:
		s += " " + e.Health.String()
	case EventClock:
		if e.Clock != nil {
			s += fmt.Sprintf(" first=%v second=%v running=%t", e.Clock.First, e.Clock.Second, e.Clock.Running)
		}
	case EventHistory:
		s += fmt.Sprintf(" presses=%d", len(e.History))
		if e.Err != nil {
			s += fmt.Sprintf(" %v", e.Err)
		}
	case EventError:
		s += fmt.Sprintf(" %v", e.Err)
	case EventHello:
		if e.Info != nil {
			s += fmt.Sprintf(" %s fw=%s", e.Info.ID, e.Info.Firmware)
		}
	}
	return s
}

// ClockReading is what a board's own clock shows ([EventClock]).
type ClockReading struct {
	// First and Second are the times left of the first and the second
	// player.
	First, Second time.Duration
	// Running: one of the clocks runs.
	Running bool
	// FirstFlag and SecondFlag: the player's flag has fallen.
	FirstFlag, SecondFlag bool
	// Turn is the side the clock shows to move, when TurnKnown: on a
	// clock with a rocker lever (a DGT clock), the side whose side of the
	// lever is up. A player whose side is down has pressed already and
	// cannot press again.
	Turn      Side
	TurnKnown bool
}

// ZoneAction says what a zone event reports.
type ZoneAction uint8

// Zone actions.
const (
	// ZoneCount: the count changed; no piece is named.
	ZoneCount ZoneAction = 0
	// ZoneAdded: Piece was put into the zone.
	ZoneAdded ZoneAction = 1
	// ZoneRemoved: Piece was taken out of the zone.
	ZoneRemoved ZoneAction = 2
)

// ErrAttention marks the Err of an [EventError] that the arbiter must
// hear of, as an alert, and not only the log: something about the
// board's game that the driver cannot settle by itself (a bus board whose
// moves made while no host polled it cannot be read). errors.Is(e.Err,
// ErrAttention) tells it; the error's text says what and where.
var ErrAttention = errors.New("the arbiter's attention is needed")

// The protocol names drivers register and the raw log stores.
const (
	// ProtocolSensorboard is our own boards' protocol
	// (hardware/sensorboard): the protocol of every raw log record stored
	// before records named theirs.
	ProtocolSensorboard = "sensorboard"
)
