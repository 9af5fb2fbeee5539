package sensorboard_test

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"path/filepath"
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

// waitFor polls cond for up to five seconds.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func (c *collector) count(board string, kind board.EventKind) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	n := 0
	for _, e := range c.events[board] {
		if e.Kind == kind {
			n++
		}
	}
	return n
}

func TestDriverSendAndStatus(t *testing.T) {
	dir := t.TempDir()
	g := rules.NewRect(8, 8)
	b, p := newBoard(t, dir, "S1", g, board.CapHeight, sim.Faults{}, &sim.Virtual{}, chessLike(g))
	r := startDriver(t, dir, sb.Config{})
	waitFor(t, "handshake", func() bool { return r.col.count("S1", board.EventSnapshot) > 0 })

	st := r.driver.Boards()
	require.Len(t, st, 1)
	assert.Equal(t, sb.BoardStatus{ID: "S1", Port: p.Path(), Health: board.Active}, st[0])

	clock := sb.ClockMsg{First: 60_000, Second: 59_000, Running: board.SideSecond}
	require.NoError(t, r.driver.Send("S1", &clock))
	require.NoError(t, r.driver.Send("S1", &sb.AckMoveMsg{Ply: 1, From: 12, To: 28, Text: "e2-e4"}))
	waitFor(t, "clock shown", func() bool {
		c, _, _, acks := b.HostState()
		return c == clock && len(acks) == 1
	})
	require.NoError(t, r.driver.Send("S1", &sb.PingMsg{Token: 1}))
	waitFor(t, "pong", func() bool { return r.col.count("S1", board.EventPong) == 1 })
	require.NoError(t, r.driver.Resync("S1"))
	waitFor(t, "a second snapshot", func() bool { return r.col.count("S1", board.EventSnapshot) == 2 })

	err := r.driver.Send("nobody", &clock)
	assert.True(t, errors.Is(err, sb.ErrUnknownBoard), "%v", err)
	p.Unplug()
	waitFor(t, "disconnect", func() bool { return r.driver.Boards()[0].Health == board.Disconnected })
	assert.ErrorIs(t, r.driver.Send("S1", &clock), sb.ErrNotConnected)
	require.NoError(t, p.Replug())
	waitFor(t, "return", func() bool { return r.col.count("S1", board.EventSnapshot) == 3 })
	events, _ := r.col.snapshot("S1")
	var health []board.Health
	restarted := 0
	for _, e := range events {
		if e.Kind == board.EventHealth {
			health = append(health, e.Health)
		}
		if e.Kind == board.EventHello && e.Restarted {
			restarted++
		}
	}
	assert.Equal(t, []board.Health{board.Active, board.Disconnected, board.Connecting, board.Active}, health)
	assert.Equal(t, 2, restarted, "the replugged board powered up again")
}

func TestDriverRawFrames(t *testing.T) {
	dir := t.TempDir()
	g := rules.NewRect(8, 8)
	start := chessLike(g)
	clock := &sim.Virtual{}
	b, _ := newBoard(t, dir, "R1", g, board.CapHeight, sim.Faults{Corrupt: 0.05}, clock, start)
	var mu sync.Mutex
	good, bad := 0, 0
	r := startDriver(t, dir, sb.Config{Raw: func(f sb.RawFrame) uint64 {
		mu.Lock()
		defer mu.Unlock()
		// The raw log must decode on its own, as a replay will.
		d := sb.NewDecoder()
		_, _, err := d.Decode(f.Wire)
		if (err == nil) != (f.Err == nil) {
			t.Errorf("raw frame %x: decoder says %v, driver said %v", f.Wire, err, f.Err)
		}
		if f.Err == nil {
			good++
		} else {
			bad++
		}
		return 0
	}})
	run := sim.NewRunner(b, clock)
	run.Human = fastHuman
	require.NoError(t, run.Play(context.Background(), towerGame(g, start, 40, newRand(4))))
	r.settle(b, 10*time.Second)
	mu.Lock()
	defer mu.Unlock()
	assert.Positive(t, good)
	assert.Positive(t, bad, "corrupted frames are logged too")
}

// A consumer that is slow for one board must not delay another board.
func TestSlowConsumerDelaysOnlyItsBoard(t *testing.T) {
	dir := t.TempDir()
	g := rules.NewRect(8, 8)
	a, _ := newBoard(t, dir, "SLOW", g, board.CapHeight, sim.Faults{}, &sim.Virtual{}, rules.NewView(g))
	b, _ := newBoard(t, dir, "FAST", g, board.CapHeight, sim.Faults{}, &sim.Virtual{}, rules.NewView(g))
	handler := func(e board.Event) {
		if e.Kind == board.EventSquare && e.Board == "SLOW" {
			time.Sleep(300 * time.Millisecond)
		}
	}
	r := startDriver(t, dir, sb.Config{Handler: handler})
	waitFor(t, "both boards", func() bool {
		return r.col.count("SLOW", board.EventSnapshot) > 0 && r.col.count("FAST", board.EventSnapshot) > 0
	})
	pc := rules.Piece{Kind: 'P'}
	for i := range 50 {
		for _, x := range []*sim.Board{a, b} {
			x.Place(rules.Square(i), pc)
			_, err := x.Lift(rules.Square(i), 1)
			require.NoError(t, err)
		}
	}
	waitFor(t, "the fast board's events", func() bool { return r.col.count("FAST", board.EventSquare) == 100 })
	assert.Less(t, r.col.count("SLOW", board.EventSquare), 30, "the slow board's consumer is still busy")
}

func newRand(seed uint64) *rand.Rand { return rand.New(rand.NewPCG(seed, seed)) }

func TestProbeAndListPorts(t *testing.T) {
	dir := t.TempDir()
	g := rules.NewRect(9, 9)
	_, p := newBoard(t, dir, "P1", g, board.CapHeight|board.CapIdentity, sim.Faults{}, &sim.Virtual{}, rules.NewView(g))
	ctx := context.Background()
	h, err := sb.Probe(ctx, p.Path(), 0, 2*time.Second)
	require.NoError(t, err)
	assert.Equal(t, "P1", h.ID)
	assert.Equal(t, uint16(81), h.Cells)
	assert.True(t, h.Caps.Has(board.CapIdentity))

	ports, err := sb.ListPorts(ctx, []sb.PortSpec{{Glob: filepath.Join(dir, "board-*")}}, 0, 2*time.Second)
	require.NoError(t, err)
	var found *sb.PortInfo
	for i := range ports {
		if ports[i].Path == p.Path() {
			found = &ports[i]
		}
	}
	require.NotNil(t, found, "the simulated board's port is listed")
	require.NoError(t, found.Err)
	assert.Equal(t, "P1", found.Hello.ID)

	_, err = sb.Probe(ctx, filepath.Join(dir, "nothing"), 0, time.Second)
	assert.Error(t, err)
}

// Two ports that claim one board id: the second is refused.
func TestDuplicateBoardID(t *testing.T) {
	dir := t.TempDir()
	g := rules.NewRect(4, 4)
	b1, err := sim.NewBoard(sim.Config{ID: "SAME", Geometry: g, Caps: board.CapHeight}, &sim.Virtual{})
	require.NoError(t, err)
	b2, err := sim.NewBoard(sim.Config{ID: "SAME", Geometry: g, Caps: board.CapHeight, Seed: 1}, &sim.Virtual{})
	require.NoError(t, err)
	for i, b := range []*sim.Board{b1, b2} {
		p, err := sim.Attach(b, filepath.Join(dir, fmt.Sprintf("board-%d", i)))
		require.NoError(t, err)
		t.Cleanup(func() { p.Close() })
	}
	r := startDriver(t, dir, sb.Config{})
	waitFor(t, "one board", func() bool { return r.col.count("SAME", board.EventSnapshot) > 0 })
	time.Sleep(300 * time.Millisecond)
	st := r.driver.Boards()
	require.Len(t, st, 1)
	assert.Equal(t, 1, r.col.count("SAME", board.EventHello), "the second port never attaches")
}

// The raw log replays into the events the consumer saw live, and each
// event of a board frame names that frame's number in the log.
func TestReplayRawLog(t *testing.T) {
	dir := t.TempDir()
	g := rules.NewRect(8, 8)
	start := chessLike(g)
	clock := &sim.Virtual{}
	b, p := newBoard(t, dir, "RP", g, board.CapHeight|board.CapIdentity, sim.Faults{Drop: 0.03, Corrupt: 0.03, Duplicate: 0.03, Disconnect: 0.03}, clock, start)
	var mu sync.Mutex
	var raw []sb.RawFrame
	r := startDriver(t, dir, sb.Config{Raw: func(f sb.RawFrame) uint64 {
		mu.Lock()
		defer mu.Unlock()
		f.Wire = append([]byte(nil), f.Wire...)
		raw = append(raw, f)
		return uint64(len(raw))
	}})
	run := sim.NewRunner(b, clock)
	run.Human = fastHuman
	run.Plug = p
	run.Outage = 200 * time.Millisecond
	require.NoError(t, run.Play(context.Background(), towerGame(g, start, 60, newRand(8))))
	r.settle(b, 10*time.Second)
	// A dump asked for from outside is in the log too, but its request is
	// not: the replay must take it anyway.
	n := r.col.count("RP", board.EventSnapshot)
	require.NoError(t, r.driver.Resync("RP"))
	waitFor(t, "the asked-for snapshot", func() bool { return r.col.count("RP", board.EventSnapshot) > n })
	r.stop()

	render := func(events []board.Event) []string {
		var out []string
		for _, e := range events {
			switch e.Kind {
			case board.EventSquare, board.EventButton, board.EventGap, board.EventHello:
				out = append(out, fmt.Sprintf("%s@%v", e, e.Host))
			case board.EventSnapshot:
				out = append(out, fmt.Sprintf("snapshot %v @%v", e.Snapshot.Heights(), e.Host))
			}
		}
		return out
	}
	live, _ := r.col.snapshot("RP")
	mu.Lock()
	stamped := 0
	for _, e := range live {
		if e.Kind != board.EventSquare && e.Kind != board.EventButton {
			continue
		}
		require.NotZero(t, e.RawSeq, "event %s names no raw frame", e)
		f := raw[e.RawSeq-1]
		require.False(t, f.Sent, "event %s names a frame the host sent", e)
		_, fr, err := sb.NewDecoder().Decode(f.Wire)
		require.NoError(t, err)
		require.Equal(t, e.Seq, fr.Seq, "event %s names another frame", e)
		stamped++
	}
	mu.Unlock()
	require.Positive(t, stamped)
	var replayed []board.Event
	mu.Lock()
	replayRaw(raw, func(e board.Event) { replayed = append(replayed, e) })
	mu.Unlock()
	want, got := render(live), render(replayed)
	require.NotEmpty(t, want)
	require.Equal(t, len(want), len(got), "replayed %d events, live %d", len(got), len(want))
	for i := range want {
		require.Equal(t, want[i], got[i], "event %d", i)
	}
}

// replayRaw turns the driver's raw log of one board back into events
// through the protocol's replayer, as the daemon's replay does from the
// stored log: a change of port is an unplug and a plug.
func replayRaw(log []sb.RawFrame, emit func(board.Event)) {
	if len(log) == 0 {
		return
	}
	port := log[0].Port
	r := sb.NewReplayer(board.ReplayConfig{Port: port, Start: log[0].Host, Emit: emit})
	for i, f := range log {
		if f.Port != port {
			port = f.Port
			r.Disconnect(f.Host)
			r.Connect(port, f.Host)
		}
		if f.Err != nil {
			continue // the driver's decoder refused it
		}
		r.Feed(board.Record{Seq: uint64(i + 1), Host: f.Host, Sent: f.Sent, Data: f.Wire})
	}
}
