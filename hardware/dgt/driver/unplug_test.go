package driver

import (
	"math/rand/v2"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arbiter/board"
	"arbiter/hardware/dgt"
	"arbiter/hardware/dgt/sim"
	"arbiter/replay"
	"arbiter/rules"
	"arbiter/rules/chess"
)

// Six plies on the emulator through the driver, the cable pulled after
// the fourth and plugged in again after the sixth (issue 32, F3): the
// raw log, read by arbiter replay's reader with its timers, replays to
// its end (a replayed session whose port failed has nothing due until
// it starts again), and to the very events the driver delivered.
func TestRawLogWithAnUnplugReplaysToItsEnd(t *testing.T) {
	t.Parallel() // on its own pseudo-terminal; it mostly waits
	emu := sim.NewBoard(sim.Config{Serial: "30004", Seed: 4})
	emu.ConnectClock(5*time.Minute, 5*time.Minute)
	var pos rules.Position = chess.Start()
	emu.SetUp(pos.View())
	session := dgt.Config{Settle: 25 * time.Millisecond, Poll: 150 * time.Millisecond, Reply: 300 * time.Millisecond, AckTimeout: 200 * time.Millisecond}
	e := runEmulated(t, emu, "30004", Config{Session: session})
	rec, line, link := e.rec, e.line, e.link
	health := func(h board.Health) int {
		rec.mu.Lock()
		defer rec.mu.Unlock()
		n := 0
		for _, e := range rec.events {
			if e.Kind == board.EventHealth && e.Health == h {
				n++
			}
		}
		return n
	}
	pl := &sim.Player{Board: emu, Rng: rand.New(rand.NewPCG(4, 5))}
	for ply := range 6 {
		if ply == 4 {
			line.Unplug()
			require.Eventually(t, func() bool { return health(board.Disconnected) == 1 }, 10*time.Second, 10*time.Millisecond, "the unplug is seen")
		}
		legal := pos.Legal()
		next, err := pos.Play(legal[0])
		require.NoError(t, err)
		pl.Move(pos.View(), next.View())
		emu.Press(pos.Turn() == rules.White)
		pos = next
		if ply < 4 {
			require.Eventually(t, func() bool { return rec.count() > 0 && emu.Fields() == settled(t, rec) }, 10*time.Second, 10*time.Millisecond, "ply %d", ply+1)
		}
	}
	// Out for longer than a session's watchdog poll (the replay's is
	// the default, 1 s) before it is back.
	time.Sleep(2 * time.Second)
	require.NoError(t, line.Replug())
	require.Eventually(t, func() bool { return health(board.Active) == 1 }, 10*time.Second, 10*time.Millisecond, "the board is back")
	require.Eventually(t, func() bool { return emu.Fields() == settled(t, rec) }, 10*time.Second, 10*time.Millisecond, "the board after the replug")
	e.stop()

	rec.mu.Lock()
	chunks := rec.chunks[e.id]
	live := append([]board.Event(nil), rec.events...)
	rec.mu.Unlock()
	require.NotEmpty(t, chunks)
	end := chunks[len(chunks)-1].Host + 5*time.Second

	// arbiter replay's reader, with its timers.
	var replayed []board.Event
	finished := make(chan struct{})
	go func() {
		defer close(finished)
		rd, err := replay.NewReaderWithSetting(Protocol, link, chunks[0].Host, Config{Session: session}.ReplaySetting())
		if !assert.NoError(t, err) {
			return
		}
		rd.Event = func(e board.Event) { replayed = append(replayed, e) }
		rd.Bad = func(_ uint64, at time.Duration, err error) { t.Errorf("at %v: %v", at, err) }
		for _, c := range chunks {
			rd.FeedRecord(c)
		}
		rd.Advance(end)
	}()
	select {
	case <-finished:
	case <-time.After(30 * time.Second):
		t.Fatal("the replay of a log with an unplug does not finish")
	}
	// The replay runs on past the log's end, where the live driver had
	// stopped: compare what both saw up to the last live event.
	last := live[len(live)-1].Host
	n := 0
	for n < len(replayed) && replayed[n].Host <= last {
		n++
	}
	require.Len(t, replayed[:n], len(live))
	for i := range live {
		require.Equal(t, live[i], replayed[i], "event %d of %d", i, len(live))
	}
}

// settled returns the board the driver's events show, in DGT fields.
func settled(t *testing.T, rec *live) dgt.Position {
	t.Helper()
	rec.mu.Lock()
	defer rec.mu.Unlock()
	var sq [64]rules.Piece
	for _, e := range rec.events {
		switch e.Kind {
		case board.EventSnapshot:
			for i, s := range e.Snapshot.Squares {
				sq[i] = s.Top.Piece
			}
		case board.EventSquare:
			sq[e.Square] = e.Top.Piece
		}
	}
	var p dgt.Position
	for s, q := range sq {
		if q.Kind != 0 {
			code, _ := dgt.PieceOf(q)
			p[dgt.Normal.Field(rules.Square(s))] = code
		}
	}
	return p
}
