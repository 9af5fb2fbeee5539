package director_test

import (
	"context"
	"log/slog"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arbiter/director"
	"arbiter/rules"
	"arbiter/store"
)

// A daemon killed between two moves resumes the game with what happened
// since the last move: an illegal move's two minutes for the opponent, and
// the count of illegal moves, so that White's second illegal move still
// loses (FIDE 7.5.5) rather than being forgiven as a first (issue 18).
// The kill is a copy of the database taken while the game runs: no clean
// stop has stored anything.
func TestRestartKeepsPenaltiesSinceTheLastMove(t *testing.T) {
	cfg := eventConfig(t, "swiss-dutch", 2, 1)
	d, db := newEventFrom(t, cfg)
	t1, err := d.AddTable(d.TournamentIDs()[0], "B1")
	require.NoError(t, err)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { _ = d.Run(ctx); close(done) }()
	defer func() { cancel(); <-done }()

	setUp := func(d *director.Director, tb *director.Table) {
		require.Eventually(t, func() bool { return tb.Live().GameID != 0 }, 5*time.Second, 10*time.Millisecond)
		tb.Input(ctx, arbiterEvent(d.Now(), chessStart()))
		time.Sleep(400 * time.Millisecond)
		tb.Input(ctx, heartbeat(d.Now()))
	}
	setUp(d, t1)
	require.Eventually(t, func() bool { return t1.Live().Clock[0].Running }, 5*time.Second, 10*time.Millisecond)

	geo := rules.NewRect(8, 8)
	e2, _ := geo.Lookup("e2")
	e5, _ := geo.Lookup("e5")
	illegal := func(d *director.Director, tb *director.Table) {
		now := d.Now()
		tb.Input(ctx, square(now+time.Millisecond, e2, 0))
		tb.Input(ctx, square(now+2*time.Millisecond, e5, 1))
		tb.Input(ctx, press(now+3*time.Millisecond, rules.White))
	}
	illegal(d, t1)
	require.Eventually(t, func() bool { return t1.Live().Recovery }, 5*time.Second, 10*time.Millisecond, "no recovery after the illegal move")
	penalised := (5*time.Minute + 3*time.Second + 2*time.Minute).Milliseconds()
	require.Eventually(t, func() bool { return t1.Live().Clock[1].Millis == penalised }, 5*time.Second, 10*time.Millisecond)

	// Killed: the database as it is now, nothing stored at a stop.
	copyPath := filepath.Join(t.TempDir(), "killed.db")
	require.Eventually(t, func() bool {
		g, err := db.Game(t1.Live().GameID)
		return err == nil && g.Illegal[rules.White] == 1
	}, 5*time.Second, 10*time.Millisecond, "the illegal move is not stored with the game")
	require.NoError(t, db.Backup(copyPath))

	db2, err := store.Open(copyPath, nil)
	require.NoError(t, err)
	t.Cleanup(func() { db2.Close() })
	d2, err := director.New(cfg, db2, slog.Default())
	require.NoError(t, err)
	t2, err := d2.AddTable(d2.TournamentIDs()[0], "B1")
	require.NoError(t, err)
	ctx2, cancel2 := context.WithCancel(context.Background())
	done2 := make(chan struct{})
	go func() { _ = d2.Run(ctx2); close(done2) }()
	defer func() { cancel2(); <-done2 }()
	setUp(d2, t2)
	require.Eventually(t, func() bool { return !t2.Live().Recovery && t2.Live().Clock[1].Millis != 0 }, 5*time.Second, 10*time.Millisecond)
	assert.Equal(t, penalised, t2.Live().Clock[1].Millis, "Black's two minutes were lost in the restart")

	require.NoError(t, d2.Resume(ctx2, t2.Live().GameID, "chief", "resume after the restart"))
	illegal(d2, t2)
	require.Eventually(t, func() bool { return t2.Live().Result != "" }, 5*time.Second, 10*time.Millisecond, "White's second illegal move did not end the game")
	assert.Equal(t, "0-1", t2.Live().Result)
}
