package sim

import (
	"context"
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arbiter/board"
	sb "arbiter/hardware/sensorboard"
	"arbiter/rules"
)

// The real-time mode under synctest's fake clock: a person who thinks for
// two seconds and handles pieces at a steady pace produces frames stamped
// exactly when the actions happen, with heartbeats while nothing does.
func TestRealTimeRunner(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		clock := NewReal()
		b, err := NewBoard(Config{ID: "RT", Geometry: geo8, Caps: board.CapHeight, Heartbeat: 500 * time.Millisecond}, clock)
		require.NoError(t, err)
		before := view(geo8, map[string][]rules.Piece{"e2": {wP}})
		after := view(geo8, map[string][]rules.Piece{"e4": {wP}})
		b.Load(before)
		s := &sink{dec: sb.NewDecoder()}
		b.SetOutput(s.write)
		var enc sb.Encoder
		d := sb.NewDecoder()
		_, f, err := d.Decode(enc.Append(nil, &sb.HelloReqMsg{Major: 1}, 0))
		require.NoError(t, err)
		b.HandleHost(f)

		run := NewRunner(b, clock)
		run.Human = Human{
			Think: [2]time.Duration{2 * time.Second, 2 * time.Second},
			Hand:  [2]time.Duration{300 * time.Millisecond, 300 * time.Millisecond},
			Press: [2]time.Duration{700 * time.Millisecond, 700 * time.Millisecond},
		}
		start := time.Now()
		turn := Turn{Move: move{sq(geo8, "e2"), sq(geo8, "e4")}, Mover: rules.First, Before: before, After: after}
		require.NoError(t, run.Play(context.Background(), []Turn{turn}))
		assert.Equal(t, 3300*time.Millisecond, time.Since(start), "think 2 s, lift, place, press 0.7 s later")

		type stamp struct {
			typ sb.Type
			ms  uint32
		}
		var got []stamp
		for _, f := range s.frames {
			got = append(got, stamp{f.Type, f.Time})
		}
		assert.Equal(t, []stamp{
			{sb.TypeHello, 0},
			{sb.TypeHeartbeat, 500}, {sb.TypeHeartbeat, 1000}, {sb.TypeHeartbeat, 1500}, {sb.TypeHeartbeat, 2000},
			{sb.TypeSquare, 2300},    // lift e2
			{sb.TypeSquare, 2600},    // place e4
			{sb.TypeHeartbeat, 3100}, // nothing for 0.5 s
			{sb.TypeButton, 3300}, {sb.TypeButton, 3300},
		}, got)
	})
}
