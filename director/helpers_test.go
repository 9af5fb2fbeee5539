package director_test

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"arbiter/arbiter"
	"arbiter/director"
	"arbiter/rules"
	"arbiter/store"
)

// run runs d until the test ends, and waits for it to stop (clocks
// stored) before the database is closed.
func run(t *testing.T, d *director.Director) context.Context {
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		d.Run(ctx)
		close(done)
	}()
	t.Cleanup(func() {
		cancel()
		<-done
	})
	return ctx
}

func heartbeat(at time.Duration) arbiter.Event {
	return arbiter.Event{Kind: arbiter.Heartbeat, At: at}
}

func arbiterEvent(at time.Duration, heights []int) arbiter.Event {
	return arbiter.Event{Kind: arbiter.StateDump, At: at, Heights: heights}
}

func square(at time.Duration, sq rules.Square, h int) arbiter.Event {
	return arbiter.Event{Kind: arbiter.SquareChanged, At: at, Square: sq, Height: h}
}

func press(at time.Duration, side rules.Color) arbiter.Event {
	return arbiter.Event{Kind: arbiter.ClockPressed, At: at, Side: side}
}

// pairedEvent runs a new one-round Swiss of chess for players and waits
// until its round is paired.
func pairedEvent(t *testing.T, players int) (*director.Director, *store.DB, context.Context) {
	t.Helper()
	d, db := newEvent(t, "swiss-dutch", players, 1)
	ctx := run(t, d)
	id := d.TournamentIDs()[0]
	require.Eventually(t, func() bool {
		rs, err := db.Rounds(id)
		return err == nil && len(rs) == 1
	}, 5*time.Second, 10*time.Millisecond, "round 1 was not paired")
	return d, db, ctx
}

// setUpChess waits for the game on table t1, reports its board set up at
// chess's start position and waits until the first clock runs.
func setUpChess(t *testing.T, ctx context.Context, d *director.Director, t1 *director.Table) {
	t.Helper()
	require.Eventually(t, func() bool { return t1.Live().GameID != 0 }, 5*time.Second, 10*time.Millisecond)
	heights := make([]int, 64)
	for i := range 16 {
		heights[i], heights[63-i] = 1, 1
	}
	t1.Input(ctx, arbiterEvent(d.Now(), heights))
	time.Sleep(400 * time.Millisecond) // the board stays so: its heartbeat tells
	t1.Input(ctx, heartbeat(d.Now()))
	require.Eventually(t, func() bool { return t1.Live().Clock[0].Running }, 5*time.Second, 10*time.Millisecond, "the clock did not start after the set-up")
}
