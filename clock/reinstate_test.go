package clock

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestReinstate: a press undone later gives the opponent back the time
// used since the press, takes the increment back, and runs the mover's
// clock again with what it had at the press.
func TestReinstate(t *testing.T) {
	s := time.Second
	tests := []struct {
		name    string
		control string
		pause   bool // the arbiter holds the clock before the take-back
		// remaining times 10 s after the take-back
		first, second time.Duration
		running       Side
		status        Status
	}{
		{name: "sudden death", control: "5m", first: 5*time.Minute - 30*s, second: 5 * time.Minute, running: First, status: Running},
		{name: "increment taken back", control: "5m+3s", first: 5*time.Minute + 3*s - 30*s, second: 5*time.Minute + 3*s, running: First, status: Running},
		{name: "byoyomi", control: "1m:byo=3x10s", first: 30 * s, second: time.Minute, running: First, status: Running},
		{name: "held stays held", control: "5m", pause: true, first: 5*time.Minute - 20*s, second: 5 * time.Minute, running: First, status: Paused},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := mustClock(t, tt.control, Options{NoLink: true})
			require.NoError(t, c.Start(0))
			// First thinks 20 s and presses; second thinks 15 s; the move
			// is taken back at 35 s.
			snap := c.Snapshot()
			_, err := c.Press(First, 20*s)
			require.NoError(t, err)
			if tt.pause {
				require.NoError(t, c.Pause(30*s))
			}
			require.NoError(t, c.Reinstate(snap, 20*s, 35*s))
			side, _ := c.Running()
			assert.Equal(t, tt.running, side)
			assert.Equal(t, tt.status, c.Status())
			assert.Equal(t, tt.first, c.Remaining(First, 45*s))
			assert.Equal(t, tt.second, c.Remaining(Second, 45*s))
		})
	}
}

func TestReinstateRefuses(t *testing.T) {
	c := mustClock(t, "5m", Options{NoLink: true})
	before := c.Snapshot()
	require.NoError(t, c.Start(0))
	snap := c.Snapshot()
	_, err := c.Press(First, 20*time.Second)
	require.NoError(t, err)
	assert.ErrorContains(t, c.Reinstate(snap, 20*time.Second, 10*time.Second), "before the press")
	assert.ErrorContains(t, c.Reinstate(before, 20*time.Second, 30*time.Second), "not running")
	after := c.Snapshot()
	assert.ErrorContains(t, c.Reinstate(after, 10*time.Second, 30*time.Second), "after the press")
}

// A move taken while the clock was held, taken back: the mover's turn goes
// back to the hold. Still held, the clock stays held; resumed meanwhile,
// the mover's clock runs from the take-back and the opponent's time since
// the resume is given back.
func TestReinstateHeldPress(t *testing.T) {
	for _, resumed := range []bool{false, true} {
		c := mustClock(t, "5m", Options{NoLink: true})
		require.NoError(t, c.Start(0))
		_, err := c.Press(First, 10*time.Second)
		require.NoError(t, err)
		require.NoError(t, c.Pause(20*time.Second))
		before := c.Snapshot()
		_, err = c.PressHeld(Second)
		require.NoError(t, err)
		at := 30 * time.Second
		if resumed {
			require.NoError(t, c.Resume(40*time.Second))
			at = 50 * time.Second // First's clock ran 10 s
		}
		require.NoError(t, c.Reinstate(before, 25*time.Second, at), "resumed %t", resumed)
		side, _ := c.Running()
		assert.Equal(t, Second, side, "resumed %t: Black's turn again", resumed)
		assert.Equal(t, 5*time.Minute-10*time.Second, c.Remaining(Second, at), "resumed %t: Black's time at the hold", resumed)
		assert.Equal(t, 5*time.Minute-10*time.Second, c.Remaining(First, at), "resumed %t: White's time given back", resumed)
		if resumed {
			assert.Equal(t, Running, c.Status())
			assert.Equal(t, 5*time.Minute-15*time.Second, c.Remaining(Second, at+5*time.Second), "Black's clock runs from the take-back")
		} else {
			assert.Equal(t, Paused, c.Status(), "still held")
			assert.Equal(t, 5*time.Minute-10*time.Second, c.Remaining(Second, time.Minute), "held: nothing charged")
		}
	}
}
