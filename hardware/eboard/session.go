package eboard

import (
	"path/filepath"
	"strings"
	"time"

	"arbiter/board"
)

// Session is the host side of one board's link as a pure state machine:
// bytes read and instants go in, bytes for the board and board events
// come out through its [Wire]. Every method takes its instant, and what a
// session emits depends only on its inputs and their instants (its timers
// fall due at their own instants however late Tick is called), so that
// the raw log of what went in replays to the very same events ([Replayer]).
// What a session sends never changes what it emits: a replay drops it.
//
// A [Driver] runs one session per port on a live line; a [Replayer] runs
// one on a raw log. Neither calls a session concurrently.
type Session interface {
	// Start says that the port was opened at now (again, after a
	// failure): the session greets the board.
	Start(now time.Duration)
	// Feed takes the bytes of one read from the board at now. What fell
	// due before now is done first.
	Feed(p []byte, now time.Duration)
	// Tick lets time pass to now: what falls due up to now is done, each
	// at its own instant.
	Tick(now time.Duration)
	// Deadline returns the next instant at which Tick has something to do.
	Deadline() time.Duration
	// Disconnected says that the port failed at now. The session keeps
	// what it knows of the board for the port's return.
	Disconnected(now time.Duration)
	// Show shows a message on the board, as far as it can
	// ([board.Display]).
	Show(m board.Message, now time.Duration) error
	// Resync delivers the settled board whole as a snapshot at now, from
	// what the host holds; an error when it holds no board yet.
	Resync(now time.Duration) error
	// Assume takes info as the board's handshake at now, for a raw log
	// that begins after it (a replay cut after the handshake).
	Assume(info board.Info, now time.Duration) error
}

// Wire is how a session talks: Send writes bytes to the board, Emit
// delivers a board event. Both are called synchronously from the session's
// methods; Send must not keep p.
type Wire struct {
	Send func(p []byte)
	Emit func(e board.Event)
}

// NewSession returns a session of one board read through port that talks
// through w: how a protocol plugs into [Driver] and [Replayer].
type NewSession func(port string, w Wire) Session

// PortName makes a board id's part of a port's path: its base name, with
// anything but letters, digits, '-' and '_' made '_'
// (/dev/serial/by-id/usb-Silicon_Labs_CP2102_..._0001-if00-port0 keeps
// its USB serial number).
func PortName(port string) string {
	return strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_' {
			return r
		}
		return '_'
	}, filepath.Base(port))
}
