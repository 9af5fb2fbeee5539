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

// A move made as the daemon stopped is in the raw log before the restart
// and stored after it, when the next daemon read the board: the replay's
// extra moves that the stored game has at the same plies after the
// restart are no difference; anything else still is.
func TestReadAfterRestart(t *testing.T) {
	ply := func(n int, mv string) Ply { return Ply{Ply: n, Replayed: mv} }
	stored := func(n int, mv string) store.Move { return store.Move{Ply: n, Canonical: mv, RawSeq: 100} }
	before := []Ply{{Ply: 1, Stored: "e2e4"}}
	cases := []struct {
		name     string
		before   []Ply
		after    []store.Move
		replayed []Ply
		want     int
		ok       bool
	}{
		{"the last move stored after", nil, []store.Move{stored(1, "e2e4"), stored(2, "e7e5")}, []Ply{ply(1, "e2e4")}, 1, true},
		{"two moves stored after", before, []store.Move{stored(2, "e7e5"), stored(3, "g1f3"), stored(4, "b8c6")}, []Ply{ply(1, "e2e4"), ply(2, "e7e5"), ply(3, "g1f3")}, 2, true},
		{"nothing beyond the stored", before, []store.Move{stored(2, "e7e5")}, []Ply{ply(1, "e2e4")}, 0, true},
		{"another move stored after", before, []store.Move{stored(2, "c7c5")}, []Ply{ply(1, "e2e4"), ply(2, "e7e5")}, 0, false},
		{"stored at another ply", before, []store.Move{stored(3, "e7e5")}, []Ply{ply(1, "e2e4"), ply(2, "e7e5")}, 0, false},
		{"no restart", before, nil, []Ply{ply(1, "e2e4"), ply(2, "e7e5")}, 0, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			sp, n := readAfterRestart(append([]Ply(nil), c.before...), c.after, c.replayed)
			assert.Equal(t, c.want, n)
			assert.Len(t, sp, len(c.before)+n)
			r := &Report{}
			r.pair(sp, c.replayed)
			assert.Equal(t, c.ok, r.OK())
		})
	}
}
