package clock

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

var fuzzControls = []string{
	"40/90m+30s:30m+30s", "3s+1s", "2/5s:3s", "5s+d2s", "5s+b2s", "*5s", "-",
	"5s:byo=3x2s", "0:byo=2s+2x3s", "5s:can=2/4s", "5s:can=1+1/3s,carry,next", "10s@2s:byo=2s", "10s@ceil3s",
}

// FuzzClockOps runs random operation sequences and checks the invariants
// that must hold whatever happens: no panic, no negative time on any
// display, deadlines in the future, snapshots that restore to the same
// readings, a frozen clock that stays frozen.
func FuzzClockOps(f *testing.F) {
	f.Add([]byte{0, 0, 10, 1, 10, 2, 200, 3, 40})
	f.Add([]byte{7, 0, 3, 1, 3, 0, 3, 1, 3, 5, 9, 6, 9, 7, 0, 2, 250})
	f.Add([]byte{9, 0, 30, 1, 30, 4, 1, 2, 100, 8, 0, 0, 200})
	f.Add([]byte{11, 3, 5, 4, 50, 5, 7, 6, 7, 1, 1, 0, 30, 1, 30, 0, 30})
	f.Fuzz(runOps)
}

func runOps(t *testing.T, ops []byte) {
	if len(ops) == 0 {
		return
	}
	opt := Options{Flags: FlagPolicy(ops[0] >> 7), NoLink: ops[0]&0x40 != 0}
	c := mustClock(t, fuzzControls[int(ops[0]&0x3f)%len(fuzzControls)], opt)
	require.NoError(t, c.Start(0))
	now := time.Duration(0)
	var events []Event
	for i := 1; i+1 < len(ops); i += 2 {
		op, arg := ops[i]%10, ops[i+1]
		step := time.Duration(arg) * 100 * time.Millisecond
		before := c.Status()
		switch op {
		case 0, 1:
			now += step
			_, _ = c.Press(Side(op), now)
		case 2:
			now += step
			c.Delivered(now)
		case 3:
			now += step
			c.Advance(now)
		case 4:
			now += step
			_ = c.Pause(now)
		case 5:
			now += step
			_ = c.Resume(now)
		case 6:
			_ = c.AddTime(Side(arg&1), time.Duration(int(arg)-128)*100*time.Millisecond)
		case 7:
			_ = c.SetTimes(step, 2*step)
		case 8:
			bin, err := c.Snapshot().MarshalBinary()
			require.NoError(t, err)
			var s Snapshot
			require.NoError(t, s.UnmarshalBinary(bin))
			c2, err := FromSnapshot(s, opt)
			require.NoError(t, err, "restore %+v", s)
			for _, side := range []Side{First, Second} {
				require.Equal(t, c.Reading(side, now+step), c2.Reading(side, now+step))
			}
		case 9:
			now += step
			_, _ = c.Claim(Side(arg&1), now)
		}
		if (before == Flagged || before == Stopped) && op != 7 {
			require.Equal(t, before, c.Status(), "a frozen clock stays frozen (op %d)", op)
		}
		for _, side := range []Side{First, Second} {
			for _, at := range []time.Duration{now, now + step, now + time.Hour} {
				if r := c.Reading(side, at); r.Main < 0 || r.Overtime < 0 || r.Delay < 0 || r.Display < 0 || r.Spent < 0 {
					t.Fatalf("negative time in %+v at %v", r, at)
				}
			}
		}
		if dl, ok := c.NextDeadline(now); ok && dl.Kind != DueLinkCheck {
			require.Greater(t, dl.At, now, "deadline %+v", dl)
		}
		if !opt.NoLink {
			// Once Advance has run, nothing is overdue.
			c.Advance(now)
			if dl, ok := c.NextDeadline(now); ok {
				require.Greater(t, dl.At, now, "deadline after Advance %+v", dl)
			}
		}
		events = c.Events(events[:0])
		for _, e := range events {
			require.LessOrEqual(t, e.At, now+time.Hour)
		}
	}
}
