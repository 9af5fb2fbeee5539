package director_test

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arbiter/rules"
)

// The events a table was given before the stop are taken before it
// stops: their frames are in the raw log, and a replay would make the
// move they make. Here the table is busy (an arbiter's command) while
// the board's last events queue, e2-e4 and its press, and the event
// stops then.
func TestTableTakesItsQueuedEventsAtTheStop(t *testing.T) {
	d, db := newEvent(t, "swiss-dutch", 2, 1)
	t1, err := d.AddTable(d.TournamentIDs()[0], "B1")
	require.NoError(t, err)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { d.Run(ctx); close(done) }()
	t.Cleanup(func() { cancel(); <-done })
	setUpChess(t, ctx, d, t1)
	gameID := t1.Live().GameID

	busy, release := make(chan struct{}), make(chan struct{})
	go func() {
		_ = t1.Do(context.Background(), func() error { close(busy); <-release; return nil })
	}()
	<-busy
	geo := rules.NewRect(8, 8)
	sq := func(name string) rules.Square { s, _ := geo.Lookup(name); return s }
	now := d.Now()
	queued := context.Background() // the drivers hand their last events over after the stop
	for i := range 6 {
		t1.Input(queued, heartbeat(now+time.Duration(i)*time.Microsecond))
	}
	t1.Input(queued, square(now+time.Millisecond, sq("e2"), 0))
	t1.Input(queued, square(now+2*time.Millisecond, sq("e4"), 1))
	t1.Input(queued, press(now+3*time.Millisecond, rules.White))
	cancel()
	close(release)
	<-done

	moves, err := db.Moves(gameID)
	require.NoError(t, err)
	require.Len(t, moves, 1, "the move queued before the stop is stored")
	assert.Equal(t, "e4", moves[0].Notation)
	g, err := db.Game(gameID)
	require.NoError(t, err)
	assert.Equal(t, 1, g.ClockPly, "the clock stored at the stop is the one after the move")
}
