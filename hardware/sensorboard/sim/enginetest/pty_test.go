package enginetest

import (
	"context"
	"log/slog"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arbiter/board"
	sb "arbiter/hardware/sensorboard"
	"arbiter/hardware/sensorboard/sim"
	"arbiter/rules"
)

// Real games of real engines through a pseudo-terminal into the driver,
// with every fault: what the consumer pieces together from the events
// (squares and zones, healed by snapshots) must end equal to the board.
func TestGamesThroughPTY(t *testing.T) {
	cases := []struct {
		game string
		caps board.Caps
	}{
		{"shogi", board.CapHeight | board.CapIdentity | board.CapFace | board.CapZoneIdentity | board.CapZoneCount},
		{"tavreli", board.CapHeight},
		{"kvaa", board.CapZoneCount},
	}
	for _, tc := range cases {
		t.Run(tc.game, func(t *testing.T) {
			t.Parallel()
			g, err := rules.New(tc.game, nil)
			require.NoError(t, err)
			dir := t.TempDir()
			clock := &sim.Virtual{}
			b, err := sim.NewBoard(sim.Config{ID: tc.game, Geometry: g.Geometry(), Graph: graphName(g), Caps: tc.caps, Seed: 5, Heartbeat: 100 * time.Millisecond,
				Faults: sim.Faults{Drop: 0.02, Corrupt: 0.02, Duplicate: 0.02, Bounce: 0.05, KnockOver: 0.05, Disconnect: 0.02}}, clock)
			require.NoError(t, err)
			b.Load(g.Start().View())
			p, err := sim.Attach(b, filepath.Join(dir, "board"))
			require.NoError(t, err)
			defer p.Close()

			var mu sync.Mutex
			var squares []board.SquareState
			var zones []int
			kinds := map[board.EventKind]int{}
			handler := func(e board.Event) {
				mu.Lock()
				defer mu.Unlock()
				kinds[e.Kind]++
				switch e.Kind {
				case board.EventHello:
					if squares == nil {
						squares = make([]board.SquareState, e.Info.Cells)
						zones = make([]int, len(e.Info.Zones))
					}
				case board.EventSquare:
					squares[e.Square] = board.SquareState{Height: uint8(e.Height), Saturated: e.Saturated, Top: e.Top}
				case board.EventZone:
					zones[e.Zone] = e.Count
				case board.EventSnapshot:
					squares = slices.Clone(e.Snapshot.Squares)
					for i, z := range e.Snapshot.Zones {
						zones[i] = z.Count
					}
				}
			}
			d, err := sb.New(sb.Config{Ports: []sb.PortSpec{{Path: p.Path()}}, Handler: handler, Logger: slog.New(slog.DiscardHandler), Scan: 50 * time.Millisecond, ReadTimeout: 20 * time.Millisecond})
			require.NoError(t, err)
			ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
			defer cancel()
			done := make(chan error, 1)
			go func() { done <- d.Run(ctx) }()

			turns, err := sim.RandomGame(g.Start(), 120, rand.New(rand.NewPCG(7, 7)))
			require.NoError(t, err)
			run := sim.NewRunner(b, clock)
			run.Plug = p
			run.Outage = 200 * time.Millisecond
			require.NoError(t, run.Play(ctx, turns))

			deadline := time.Now().Add(20 * time.Second)
			for {
				_ = clock.SleepUntil(ctx, clock.Now()+100*time.Millisecond)
				b.Idle() // heartbeats reveal a lost last frame
				want := b.Sensed()
				wantZones := make([]int, len(g.Geometry().Zones()))
				if tc.caps.Has(board.CapZoneCount) {
					for i, z := range b.View().Zones {
						wantZones[i] = len(z)
					}
				}
				mu.Lock()
				ok := slices.Equal(squares, want) && slices.Equal(zones, wantZones)
				mu.Unlock()
				if ok {
					break
				}
				if time.Now().After(deadline) {
					mu.Lock()
					assert.Equal(t, want, squares)
					assert.Equal(t, wantZones, zones)
					mu.Unlock()
					t.FailNow()
				}
				time.Sleep(10 * time.Millisecond)
			}
			cancel()
			<-done
			mu.Lock()
			t.Logf("%d turns; events %v", len(turns), kinds)
			mu.Unlock()
		})
	}
}
