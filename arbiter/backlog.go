package arbiter

import "time"

// Backlog keeps what a board reported while no game ran to take it: its
// last whole-state dump and the changes and presses since, so that a
// session started later is handed the board as it is, a move made
// meanwhile included (issue 18 §4: nothing made on the board after its
// handshake is lost). What a running game took is not kept ([Backlog.Clear]).
type Backlog struct {
	events []Event
}

// maxBacklog bounds a backlog: past it, it waits for the next dump.
const maxBacklog = 4096

// Keep takes one event of the board. A dump starts the backlog afresh; a
// change before the first dump has nothing to apply to and is dropped, and
// so is everything when the link is lost.
func (b *Backlog) Keep(e Event) {
	switch e.Kind {
	case StateDump:
		b.events = append(b.events[:0], e)
	case SquareChanged, ZoneChanged, ClockPressed, AdjustPressed, Answered, Gap:
		if len(b.events) == 0 {
			return
		}
		if len(b.events) >= maxBacklog {
			b.events = b.events[:0]
			return
		}
		b.events = append(b.events, e)
	case LinkLost:
		b.events = b.events[:0]
	}
}

// Clear forgets everything kept: a running game took the board's events.
func (b *Backlog) Clear() { b.events = nil }

// From returns the raw-log number of the dump the backlog starts with, or
// 0 when it is empty (or the board's frames are not logged): a game
// handed the backlog replays from there.
func (b *Backlog) From() uint64 {
	if len(b.events) == 0 {
		return 0
	}
	return b.events[0].RawSeq
}

// Deliver hands the backlog to s, which started at instant at, and empties
// it. Each event comes as if at that instant, as the game did not exist
// before: its clock cannot have run.
func (b *Backlog) Deliver(s *Session, at time.Duration) []Output {
	var out []Output
	for _, e := range b.events {
		e.At = max(e.At, at)
		out = append(out, s.Handle(e)...)
	}
	b.events = nil
	return out
}
