package replay

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"

	"arbiter/store"
)

func TestRestarted(t *testing.T) {
	wall := time.Date(2026, 11, 26, 9, 0, 0, 0, time.UTC)
	frame := func(host time.Duration, wallAfter time.Duration) store.Frame {
		return store.Frame{HostNs: int64(host), Wall: wall.Add(wallAfter)}
	}
	cases := []struct {
		name string
		a, b store.Frame
		want bool
	}{
		{"forward", frame(10*time.Second, 10*time.Second), frame(11*time.Second, 11*time.Second), false},
		{"microseconds back, wall with it", frame(10*time.Second, 10*time.Second), frame(10*time.Second-15*time.Microsecond, 10*time.Second-15*time.Microsecond), false},
		{"milliseconds back, wall on", frame(10*time.Second, 10*time.Second), frame(10*time.Second-40*time.Millisecond, 10*time.Second+time.Millisecond), false},
		{"a new daemon after an hour", frame(time.Hour, time.Hour), frame(200*time.Millisecond, time.Hour+5*time.Second), true},
		{"a new daemon after a short run", frame(900*time.Millisecond, 900*time.Millisecond), frame(100*time.Millisecond, 3*time.Second), true},
		{"wall stepped by NTP, host on", frame(10*time.Second, 10*time.Second), frame(11*time.Second, -time.Minute), false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			assert.Equal(t, c.want, restarted(c.a, c.b))
		})
	}
}
