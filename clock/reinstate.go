package clock

import (
	"errors"
	"fmt"
	"time"
)

// Reinstate undoes a press: s is the snapshot taken just before the press
// at instant pressAt, and the move it completed is taken back at instant
// at. The mover's clock runs again from at with the time it had at the
// press, the opponent's time used since the press is given back, and the
// press's increment and move count are undone. Time between the press and
// at is charged to nobody. A clock that is paused now stays paused (from
// at), so the arbiter's hold is kept. A press taken while the clock was
// held (s is held) goes back to that hold.
func (c *Clock) Reinstate(s Snapshot, pressAt, at time.Duration) error {
	switch {
	case at < pressAt:
		return fmt.Errorf("reinstate at %v: before the press at %v", at, pressAt)
	case s.Status != Running && s.Status != Paused:
		return fmt.Errorf("reinstate: the clock was %v before the press: not running nor held", s.Status)
	case s.Known > pressAt || s.Anchor > pressAt:
		return errors.New("reinstate: the snapshot was taken after the press")
	}
	hold, held := c.m.hold, c.m.status == Paused
	if err := c.Restore(s); err != nil {
		return fmt.Errorf("reinstate: %w", err)
	}
	m := &c.m
	if s.Status == Paused {
		// A press taken while the clock was held ([Clock.PressHeld]): the
		// mover's turn goes back to the hold. Held now, it stays held (by
		// the hold in force); running again, the mover's clock runs from
		// at, the opponent's time since given back.
		if held {
			m.hold = hold
			return nil
		}
		if err := c.Resume(at); err != nil {
			return fmt.Errorf("reinstate: %w", err)
		}
		return nil
	}
	// As if the clock had been held from the press until now.
	m.status, m.hold, m.holdAt = Paused, ArbiterHold, pressAt
	if err := c.Resume(at); err != nil {
		return fmt.Errorf("reinstate: %w", err)
	}
	if held {
		m.status, m.hold, m.holdAt = Paused, hold, at
	}
	return nil
}
