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

	"arbiter/board"
	"arbiter/hardware/dgt"
	"arbiter/hardware/dgt/sim"
	"arbiter/rules"
	"arbiter/rules/chess"
)

// live records what a driver delivered and logged.
type live struct {
	mu     sync.Mutex
	events []board.Event
	chunks map[string][]board.Record
}

func (l *live) handle(e board.Event) {
	l.mu.Lock()
	l.events = append(l.events, e)
	l.mu.Unlock()
}

func (l *live) raw(id string, r board.Record) {
	r.Data = bytes.Clone(r.Data)
	l.mu.Lock()
	l.chunks[id] = append(l.chunks[id], r)
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
	t.Parallel() // on its own pseudo-terminal; it mostly waits
	emu := sim.NewBoard(sim.Config{Serial: "30003", Rotated: true, Seed: 3,
		Faults: sim.Faults{Drop: 0.05, Duplicate: 0.05, Reorder: 0.3}})
	emu.ConnectClock(5*time.Minute, 5*time.Minute)
	var pos rules.Position = chess.Start()
	emu.SetUp(pos.View())
	link := filepath.Join(t.TempDir(), "dgt0")
	line, err := sim.Attach(link, emu)
	require.NoError(t, err)
	t.Cleanup(func() { line.Close() })

	// The emulator acknowledges every clock command: AckTimeout bounds
	// an acknowledgement that will come, and is generous, so that a loaded
	// host sends no command twice (the clock would show its text twice).
	session := dgt.Config{Settle: 25 * time.Millisecond, Poll: 150 * time.Millisecond, Reply: 300 * time.Millisecond, AckTimeout: 5 * time.Second,
		TextStep: 100 * time.Millisecond}
	rec := &live{chunks: map[string][]board.Record{}}
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
	send := func(m board.Message) { require.NoError(t, d.Show(id, m)) }
	clockShows := func(running bool, what string) {
		t.Helper()
		require.Eventually(t, func() bool { return emu.Clock().Running == running }, 3*time.Second, 10*time.Millisecond,
			"%s: the clock shows %+v", what, emu.Clock())
	}
	send(&board.Clock{First: 300_000, Second: 300_000, Running: board.SideFirst})
	clockShows(true, "set and run for White")

	rng := rand.New(rand.NewPCG(3, 4))
	pl := &sim.Player{Board: emu, Rng: rng, Slide: 0.4, PushOff: 0.3}
	var history []rules.Position
	for ply := 0; ply < 24 && !pos.Outcome(history).Over(); ply++ {
		legal := pos.Legal()
		next, err := pos.Play(legal[rng.IntN(len(legal))])
		require.NoError(t, err)
		pl.Move(pos.View(), next.View())
		time.Sleep(40 * time.Millisecond)
		emu.Press(pos.Turn() == rules.Black) // rotated: White sits at the clock's left all the same
		history, pos = append(history, pos), next
		running := board.SideFirst
		if pos.Turn() == rules.Black {
			running = board.SideSecond
		}
		send(&board.Clock{First: 290_000, Second: 290_000, Running: running})
		if ply == 10 {
			// The arbiter pauses the game, and resumes it.
			send(&board.Clock{First: 280_000, Second: 285_000, Running: board.SideNone})
			clockShows(false, "paused by the arbiter")
			c := emu.Clock()
			assert.Equal(t, 4*time.Minute+40*time.Second, c.Left, "White's time at the left")
			assert.Equal(t, 4*time.Minute+45*time.Second, c.Right)
			send(&board.Clock{First: 280_000, Second: 285_000, Running: running})
			clockShows(true, "resumed")
		}
	}
	// The game ends: the result, and the clock stopped.
	send(&board.Alert{Level: board.AlertInfo, Kind: "result", Text: "1-0 resignation"})
	send(&board.Clock{First: 200_000, Second: 100_000, Running: board.SideNone})
	clockShows(false, "the game is over")
	// The result scrolls, and keeps its headline.
	require.EventuallyWithT(t, func(c *assert.CollectT) {
		assert.Equal(c, []string{"1-0     ", "resign  ", "1-0     ", "resign  ", "1-0     ", "resign  ", "1-0     "}, emu.Texts(), "the clock's texts")
	}, 5*time.Second, 10*time.Millisecond)
	c := emu.Clock()
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
	got := append([]board.Event(nil), rec.events...) // Run handed over every event before it returned
	chunks := rec.chunks[id]
	require.NotEmpty(t, chunks)
	require.True(t, dgt.IsStart(dgt.Chunk{Sent: chunks[0].Sent, Data: chunks[0].Data}), "the log begins with the host starting the conversation: % x", chunks[0].Data)
	r := NewReplayer(session, link)
	var replayed []board.Event
	for _, c := range chunks {
		replayed = append(replayed, r.Chunk(c.Host, c.Sent, c.Data)...)
	}
	st := r.Stats()
	t.Logf("%d chunks, %d events; replay %+v; board %+v", len(chunks), len(got), st, emu.Counters())
	assert.Zero(t, st.Unexplained, "every command the host wrote is explained")
	kinds := map[board.EventKind]int{}
	for _, e := range got {
		kinds[e.Kind]++
	}
	assert.Positive(t, kinds[board.EventSquare], "squares")
	assert.Positive(t, kinds[board.EventButton], "presses")
	require.Equal(t, len(got), len(replayed), "as many events")
	for i := range got {
		require.Equal(t, got[i], replayed[i], "event %d of %d", i, len(got))
	}

	// A game that begins asks the driver for the board, which it answers
	// from its settled board: the replay does the same.
	require.NoError(t, d.Resync(id))
	var live board.Event
	for _, l := range d.ports {
		l.qmu.Lock()
		require.NotEmpty(t, l.queue)
		live = l.queue[len(l.queue)-1]
		l.qmu.Unlock()
	}
	require.Equal(t, board.EventSnapshot, live.Kind)
	again := r.Resync(live.Host)
	require.Len(t, again, 1)
	assert.Equal(t, live, again[0])
	assert.Empty(t, NewReplayer(session, link).Resync(0), "nothing before a full board")

	// The same through the board registry, as arbiter replay reads it.
	var viaRegistry []board.Event
	br, err := board.NewReplayer(Protocol, board.ReplayConfig{Port: link, Setting: Config{Session: session}.ReplaySetting(),
		Emit: func(e board.Event) { viaRegistry = append(viaRegistry, e) }})
	require.NoError(t, err)
	require.True(t, br.Handshake(chunks[0]))
	for _, c := range chunks {
		br.Feed(c)
	}
	assert.Equal(t, got, viaRegistry)
	require.NotNil(t, br.Info())
	assert.Equal(t, id, br.Info().ID)
}
