package sensorboard_test

import (
	"context"
	"math/rand/v2"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arbiter/board"
	sb "arbiter/hardware/sensorboard"
	"arbiter/hardware/sensorboard/sim"
	"arbiter/rules"
)

// key of a delivered or sent frame, for comparing the two streams.
type frameKey struct {
	boot uint32
	seq  uint16
	typ  sb.Type
}

// sentKeys lists the event frames (square, zone, button) the board put on
// the wire, in order.
func sentKeys(log []sim.Sent) []frameKey {
	var out []frameKey
	for _, s := range log {
		switch s.Header.Type {
		case sb.TypeSquare, sb.TypeZone, sb.TypeButton:
			if !s.Dropped {
				out = append(out, frameKey{s.Boot, s.Header.Seq, s.Header.Type})
			}
		}
	}
	return out
}

var eventType = map[board.EventKind]sb.Type{board.EventSquare: sb.TypeSquare, board.EventZone: sb.TypeZone, board.EventButton: sb.TypeButton}

// checkOrder asserts that the delivered event frames are exactly the sent
// ones (lossless), or an ordered subsequence without duplicates in which
// every jump in the sequence follows a reported gap or a restart.
func checkOrder(t *testing.T, log []sim.Sent, events []board.Event, lossless bool) {
	t.Helper()
	sent := sentKeys(log)
	var boot uint32
	var got []frameKey
	gap := true
	var last uint16
	for _, e := range events {
		switch e.Kind {
		case board.EventHello:
			boot = e.Info.Boot
			gap = true
		case board.EventGap:
			gap = true
		case board.EventSquare, board.EventZone, board.EventButton:
			if e.Recovered {
				continue
			}
			k := frameKey{boot, e.Seq, eventType[e.Kind]}
			if !gap && e.Seq != last+1 {
				// Heartbeats and dump frames sit between event frames;
				// only a jump over an event frame is a silent loss.
				for _, s := range sent {
					if s.boot == boot && int16(s.seq-last) > 0 && int16(e.Seq-s.seq) > 0 {
						t.Fatalf("event frame #%d skipped without a gap report before #%d", s.seq, e.Seq)
					}
				}
			}
			got = append(got, k)
			last, gap = e.Seq, false
		}
	}
	if lossless {
		require.Equal(t, len(sent), len(got), "delivered %d event frames, sent %d", len(got), len(sent))
		for i := range sent {
			require.Equal(t, sent[i], got[i], "event frame %d", i)
		}
		return
	}
	// An ordered subsequence, each frame at most once.
	i := 0
	for _, k := range got {
		for i < len(sent) && sent[i] != k {
			i++
		}
		require.Less(t, i, len(sent), "delivered frame %+v was never sent, or came twice or out of order", k)
		i++
	}
}

func newBoard(t *testing.T, dir, id string, g *rules.Geometry, caps board.Caps, f sim.Faults, clock sim.Clock, start rules.View) (*sim.Board, *sim.PTY) {
	t.Helper()
	b, err := sim.NewBoard(sim.Config{ID: id, Geometry: g, Caps: caps, Seed: uint64(len(id)) * 7919, Faults: f, Heartbeat: 100 * time.Millisecond}, clock)
	require.NoError(t, err)
	b.KeepLog()
	b.Load(start)
	p, err := sim.Attach(b, filepath.Join(dir, "board-"+id))
	require.NoError(t, err)
	t.Cleanup(func() { p.Close() })
	return b, p
}

func TestEndToEndLossless(t *testing.T) {
	for _, caps := range []board.Caps{board.CapHeight, board.CapHeight | board.CapIdentity | board.CapColor | board.CapFace} {
		t.Run(caps2s(caps), func(t *testing.T) {
			dir := t.TempDir()
			g := rules.NewRect(8, 8)
			start := chessLike(g)
			clock := &sim.Virtual{}
			b, _ := newBoard(t, dir, "A1", g, caps, sim.Faults{}, clock, start)
			r := startDriver(t, dir, sb.Config{})
			run := sim.NewRunner(b, clock)
			run.Human = fastHuman
			turns := towerGame(g, start, 60, rand.New(rand.NewPCG(1, 2)))
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			require.NoError(t, run.Play(ctx, turns))
			r.settle(b, 5*time.Second)
			// The last frames (a clock button's release) change no square:
			// wait for them too.
			want := len(sentKeys(b.Log()))
			var events []board.Event
			for deadline := time.Now().Add(5 * time.Second); ; {
				events, _ = r.col.snapshot("A1")
				n := 0
				for _, e := range events {
					if _, ok := eventType[e.Kind]; ok {
						n++
					}
				}
				if n >= want || time.Now().After(deadline) {
					break
				}
				time.Sleep(10 * time.Millisecond)
			}
			checkOrder(t, b.Log(), events, true)
			t.Logf("%d events, %d frames sent, %d turns", len(events), len(b.Log()), len(turns))
			kinds := map[string]int{}
			for _, e := range events {
				kinds[e.Kind.String()]++
			}
			t.Logf("%v", kinds)
			for _, e := range events {
				assert.NotEqual(t, board.EventGap, e.Kind, "gap on a clean link: %v", e)
				assert.NotEqual(t, board.EventError, e.Kind, "%v", e)
			}
			assert.True(t, b.View().Equal(turns[len(turns)-1].After))
		})
	}
}

func caps2s(c board.Caps) string {
	if c.Has(board.CapIdentity) {
		return "identity"
	}
	return "height"
}

func TestEndToEndFaults(t *testing.T) {
	cases := []struct {
		name   string
		faults sim.Faults
	}{
		{"drop", sim.Faults{Drop: 0.05}},
		{"corrupt", sim.Faults{Corrupt: 0.05}},
		{"duplicate", sim.Faults{Duplicate: 0.1}},
		{"bounce", sim.Faults{Bounce: 0.2}},
		{"knock-over", sim.Faults{KnockOver: 0.2}},
		{"disconnect", sim.Faults{Disconnect: 0.05}},
		{"all", sim.Faults{Drop: 0.03, Corrupt: 0.03, Duplicate: 0.03, Bounce: 0.1, KnockOver: 0.1, Disconnect: 0.03}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			g := rules.NewRect(8, 8)
			start := chessLike(g)
			clock := &sim.Virtual{}
			b, p := newBoard(t, dir, "F-"+tc.name, g, board.CapHeight|board.CapIdentity|board.CapColor, tc.faults, clock, start)
			r := startDriver(t, dir, sb.Config{})
			run := sim.NewRunner(b, clock)
			run.Human = fastHuman
			run.Plug = p
			run.Outage = 300 * time.Millisecond
			turns := towerGame(g, start, 80, rand.New(rand.NewPCG(3, uint64(len(tc.name)))))
			ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
			defer cancel()
			require.NoError(t, run.Play(ctx, turns))
			// Keep the board alive: heartbeats reveal a lost last frame.
			stop := make(chan struct{})
			go func() {
				for {
					select {
					case <-stop:
						return
					case <-time.After(10 * time.Millisecond):
						_ = clock.SleepUntil(ctx, clock.Now()+100*time.Millisecond)
						b.Idle()
					}
				}
			}()
			r.settle(b, 15*time.Second)
			close(stop)
			events, _ := r.col.snapshot(b.ID())
			checkOrder(t, b.Log(), events, false)
			kinds := map[string]int{}
			for _, e := range events {
				kinds[e.Kind.String()]++
			}
			t.Logf("%v", kinds)
			if testing.Verbose() {
				for _, e := range events {
					if e.Kind != board.EventSquare && e.Kind != board.EventButton && e.Kind != board.EventHeartbeat {
						t.Logf("%v", e)
					}
				}
			}
			assert.True(t, b.View().Equal(turns[len(turns)-1].After))
		})
	}
}
