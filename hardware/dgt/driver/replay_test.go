package driver

import (
	"bytes"
	"context"
	"log/slog"
	"math/rand/v2"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arbiter/hardware/dgt"
	"arbiter/hardware/dgt/sim"
	"arbiter/hardware/sensorboard"
	"arbiter/rules"
	"arbiter/rules/chess"
)

// live records what a driver delivered and logged.
type live struct {
	mu     sync.Mutex
	events []sensorboard.Event
	chunks map[string][]dgt.Chunk
}

func (l *live) handle(e sensorboard.Event) {
	l.mu.Lock()
	l.events = append(l.events, e)
	l.mu.Unlock()
}

func (l *live) raw(board string, c dgt.Chunk) {
	c.Data = bytes.Clone(c.Data)
	l.mu.Lock()
	l.chunks[board] = append(l.chunks[board], c)
	l.mu.Unlock()
}

func (l *live) count() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return len(l.events)
}

// A game on the emulator through the driver, with a person's slides,
// pushed-off captures, dropped, duplicated and reordered field updates,
// lever presses, the clock set for every move, paused and run again, and
// stopped with the result shown at the end: the clock follows each
// command, and the raw log the driver wrote, replayed, recreates every
// event the driver delivered, instant for instant.
func TestRawLogReplaysTheLiveEvents(t *testing.T) {
	if testing.Short() {
		t.Skip("plays a game on an emulated DGT board in real time")
	}
	board := sim.NewBoard(sim.Config{Serial: "30003", Rotated: true, Seed: 3,
		Faults: sim.Faults{Drop: 0.05, Duplicate: 0.05, Reorder: 0.3}})
	board.ConnectClock(5*time.Minute, 5*time.Minute)
	var pos rules.Position = chess.Start()
	board.SetUp(pos.View())
	link := filepath.Join(t.TempDir(), "dgt0")
	line, err := sim.Attach(link, board)
	require.NoError(t, err)
	t.Cleanup(func() { line.Close() })

	session := dgt.Config{Settle: 25 * time.Millisecond, Poll: 150 * time.Millisecond, Reply: 300 * time.Millisecond, AckTimeout: 200 * time.Millisecond}
	rec := &live{chunks: map[string][]dgt.Chunk{}}
	epoch := time.Now()
	d, err := New(Config{Paths: []string{link}, Scan: 20 * time.Millisecond, Session: session,
		Now: func() time.Duration { return time.Since(epoch) }, Handler: rec.handle, Raw: rec.raw,
		Logger: slog.New(slog.DiscardHandler)})
	require.NoError(t, err)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		_ = d.Run(ctx)
	}()
	defer func() { cancel(); <-done }()
	const id = IDPrefix + "30003"
	require.Eventually(t, func() bool { return d.Owns(id) }, 5*time.Second, 10*time.Millisecond)
	send := func(m sensorboard.Message) { require.NoError(t, d.Send(id, m)) }
	clockShows := func(running bool, what string) {
		t.Helper()
		require.Eventually(t, func() bool { return board.Clock().Running == running }, 3*time.Second, 10*time.Millisecond,
			"%s: the clock shows %+v", what, board.Clock())
	}
	send(&sensorboard.ClockMsg{First: 300_000, Second: 300_000, Running: sensorboard.SideFirst})
	clockShows(true, "set and run for White")

	rng := rand.New(rand.NewPCG(3, 4))
	pl := &sim.Player{Board: board, Rng: rng, Slide: 0.4, PushOff: 0.3}
	var history []rules.Position
	for ply := 0; ply < 24 && !pos.Outcome(history).Over(); ply++ {
		legal := pos.Legal()
		next, err := pos.Play(legal[rng.IntN(len(legal))])
		require.NoError(t, err)
		pl.Move(pos.View(), next.View())
		time.Sleep(40 * time.Millisecond)
		board.Press(pos.Turn() == rules.Black) // rotated: White sits at the clock's left all the same
		history, pos = append(history, pos), next
		running := sensorboard.SideFirst
		if pos.Turn() == rules.Black {
			running = sensorboard.SideSecond
		}
		send(&sensorboard.ClockMsg{First: 290_000, Second: 290_000, Running: running})
		if ply == 10 {
			// The arbiter pauses the game, and resumes it.
			send(&sensorboard.ClockMsg{First: 280_000, Second: 285_000, Running: sensorboard.SideNone})
			clockShows(false, "paused by the arbiter")
			c := board.Clock()
			assert.Equal(t, 4*time.Minute+40*time.Second, c.Left, "White's time at the left")
			assert.Equal(t, 4*time.Minute+45*time.Second, c.Right)
			send(&sensorboard.ClockMsg{First: 280_000, Second: 285_000, Running: running})
			clockShows(true, "resumed")
		}
	}
	// The game ends: the result, and the clock stopped.
	send(&sensorboard.AlertMsg{Level: sensorboard.AlertInfo, Text: "1-0 resign"})
	send(&sensorboard.ClockMsg{First: 200_000, Second: 100_000, Running: sensorboard.SideNone})
	clockShows(false, "the game is over")
	require.Eventually(t, func() bool { return board.Text() == "1-0 resi" }, 3*time.Second, 10*time.Millisecond, "the clock shows %q", board.Text())
	c := board.Clock()
	assert.Equal(t, [2]time.Duration{200 * time.Second, 100 * time.Second}, [2]time.Duration{c.Left, c.Right})
	// Quiet: nothing more to deliver.
	for n := -1; n != rec.count(); {
		n = rec.count()
		time.Sleep(300 * time.Millisecond)
	}
	cancel()
	<-done

	rec.mu.Lock()
	defer rec.mu.Unlock()
	got := append([]sensorboard.Event(nil), rec.events...)
	d.mu.Lock()
	for _, l := range d.ports {
		l.qmu.Lock()
		got = append(got, l.queue...) // queued when the driver stopped
		l.qmu.Unlock()
	}
	d.mu.Unlock()
	chunks := rec.chunks[id]
	require.NotEmpty(t, chunks)
	require.True(t, dgt.IsStart(chunks[0]), "the log begins with the host starting the conversation: % x", chunks[0].Data)
	r := NewReplayer(session, link)
	var replayed []sensorboard.Event
	for _, c := range chunks {
		replayed = append(replayed, r.Chunk(c.Host, c.Sent, c.Data)...)
	}
	st := r.Stats()
	t.Logf("%d chunks, %d events; replay %+v; board %+v", len(chunks), len(got), st, board.Counters())
	assert.Zero(t, st.Unexplained, "every command the host wrote is explained")
	kinds := map[sensorboard.EventKind]int{}
	for _, e := range got {
		kinds[e.Kind]++
	}
	assert.Positive(t, kinds[sensorboard.EventSquare], "squares")
	assert.Positive(t, kinds[sensorboard.EventButton], "presses")
	require.Equal(t, len(got), len(replayed), "as many events")
	for i := range got {
		require.Equal(t, got[i], replayed[i], "event %d of %d", i, len(got))
	}

	// A game that begins asks the driver for the board, which it answers
	// from its settled board: the replay does the same.
	require.NoError(t, d.Resync(id))
	var live sensorboard.Event
	for _, l := range d.ports {
		l.qmu.Lock()
		require.NotEmpty(t, l.queue)
		live = l.queue[len(l.queue)-1]
		l.qmu.Unlock()
	}
	require.Equal(t, sensorboard.EventSnapshot, live.Kind)
	again := r.Resync(live.Host)
	require.Len(t, again, 1)
	assert.Equal(t, live, again[0])
	assert.Empty(t, NewReplayer(session, link).Resync(0), "nothing before a full board")
}
