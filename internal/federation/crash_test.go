package federation_test

import (
	"errors"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arbiter/director"
	"arbiter/internal/federation"
	"arbiter/store"
)

// A hall whose outbox dies after publishing but before storing its cursor
// publishes again when it restarts; the hall stream drops the repeats and
// the hub has each move once.
func TestOutboxKilledBetweenCommitAndPublish(t *testing.T) {
	ctx := t.Context()
	top := startTopology(t, "east")
	dir := t.TempDir()
	hub := openDB(t, filepath.Join(dir, "hub.db"))
	tid := setupEvent(t, hub)
	hall := openDB(t, filepath.Join(dir, "east.db"))
	setupEvent(t, hall)
	js := top.halls["east"].js
	startInbox(t, ctx, hub, top.hub.js, "")

	g := startGame(t, hall, tid, 1, 1)
	playMoves(t, hall, g, 1, 5)
	ob := &federation.Outbox{DB: hall, JS: js, Hall: "east"}
	n, err := ob.Flush(ctx)
	require.NoError(t, err)
	assert.Equal(t, 6, n, "the game and five moves")

	// Committed to the store, then the outbox dies: it published, but its
	// cursor never reached the disk.
	playMoves(t, hall, g, 6, 10)
	finish(t, hall, g, "1-0")
	killed := errors.New("killed")
	hall.InjectWriteFault(func() error { return killed })
	_, err = ob.Flush(ctx)
	require.ErrorIs(t, err, killed, "the cursor write must fail")
	hall.InjectWriteFault(nil)
	c, err := hall.OutboxCursorOf(g.ID)
	require.NoError(t, err)
	assert.Equal(t, store.OutboxCursor{Game: true, Ply: 5}, c)

	// Restarted: a new outbox on the same store.
	restarted := &federation.Outbox{DB: hall, JS: js, Hall: "east"}
	n, err = restarted.Flush(ctx)
	require.NoError(t, err)
	assert.Equal(t, 6, n, "five moves and the result again")
	c, err = hall.OutboxCursorOf(g.ID)
	require.NoError(t, err)
	assert.Equal(t, store.OutboxCursor{Game: true, Ply: 10, Result: true}, c)
	n, err = restarted.Flush(ctx)
	require.NoError(t, err)
	assert.Zero(t, n, "nothing left")

	s, err := js.Stream(ctx, federation.HallStream("east"))
	require.NoError(t, err)
	info, err := s.Info(ctx)
	require.NoError(t, err)
	assert.Equal(t, uint64(12), info.State.Msgs, "the game, ten moves and the result, each once in the stream")

	require.Eventually(t, func() bool {
		rs, err := hub.Rounds(tid)
		return err == nil && rs[0].Pairings[0].Result == "1-0"
	}, 10*time.Second, 20*time.Millisecond)
	ms := hubMoves(t, hub, tid, 1, 1)
	require.Len(t, ms, 10)
	for i, m := range ms {
		assert.Equal(t, i+1, m.Ply)
	}
}

// The hub goes down while the halls play on; restarted, it catches up from
// its durable consumer; a hub whose store is lost rebuilds it from the
// stream.
func TestHubRestartedCatchesUpAndRebuilds(t *testing.T) {
	t.Run("daemon", func(t *testing.T) { testHubRestart(t, false) })
	t.Run("daemon and its NATS server", func(t *testing.T) {
		if testing.Short() {
			t.Skip("the hub's sources come back after nats-server's retry backoff, about 40 s")
		}
		testHubRestart(t, true)
	})
}

func testHubRestart(t *testing.T, withServer bool) {
	ctx := t.Context()
	top := startTopology(t, "east", "west")
	dir := t.TempDir()
	hubPath := filepath.Join(dir, "hub.db")
	hub, err := store.Open(hubPath, nil)
	require.NoError(t, err)
	tid := setupEvent(t, hub)
	halls := map[string]*store.DB{}
	games := map[string]store.Game{}
	for b, h := range []string{"east", "west"} {
		halls[h] = openDB(t, filepath.Join(dir, h+".db"))
		setupEvent(t, halls[h])
		ob := &federation.Outbox{DB: halls[h], JS: top.halls[h].js, Hall: h, Poll: 20 * time.Millisecond}
		go ob.Run(ctx) //nolint:errcheck // ends with ctx
		games[h] = startGame(t, halls[h], tid, 1, b+1)
		playMoves(t, halls[h], games[h], 1, 8)
	}
	stop := startInbox(t, ctx, hub, top.hub.js, "")
	require.Eventually(t, func() bool { return len(hubMoves(t, hub, tid, 1, 2)) == 8 && len(hubMoves(t, hub, tid, 1, 1)) == 8 },
		10*time.Second, 20*time.Millisecond)

	// The hub stops: its server, its inbox and its store.
	stop()
	require.NoError(t, hub.Close())
	if withServer {
		top.hub.stop()
	}
	for b, h := range []string{"east", "west"} {
		playMoves(t, halls[h], games[h], 9, 20)
		finish(t, halls[h], games[h], results[0][b])
	}
	// The halls went on alone: their streams hold every fact.
	for h, n := range top.halls {
		require.Eventually(t, func() bool {
			s, err := n.js.Stream(ctx, federation.HallStream(h))
			if err != nil {
				return false
			}
			info, err := s.Info(ctx)
			return err == nil && info.State.Msgs == 22
		}, 10*time.Second, 20*time.Millisecond, "hall %s", h)
	}

	if withServer {
		top.hub = startNode(t, top.hub.cfg)
		require.Eventually(t, func() bool { return top.hub.srv.NumLeafNodes() == 2 }, 10*time.Second, 20*time.Millisecond)
	}
	hub = openDB(t, hubPath)
	startInbox(t, ctx, hub, top.hub.js, "")
	restarted := time.Now()
	if withServer {
		go func() {
			for ctx.Err() == nil {
				halls, err := federation.ReviveSources(ctx, top.hub.js)
				if len(halls) > 0 || err != nil {
					t.Logf("revived %v after %v: %v", halls, time.Since(restarted), err)
				}
				time.Sleep(federation.ReviveEvery)
			}
		}()
	}
	require.Eventually(t, func() bool {
		rs, err := hub.Rounds(tid)
		return err == nil && rs[0].Pairings[0].Result == results[0][0] && rs[0].Pairings[1].Result == results[0][1]
	}, 10*time.Second, 20*time.Millisecond, "the hub catches up within seconds (the server alone takes ~40 s)")
	t.Logf("hub caught up %v after its restart", time.Since(restarted))
	for b := 1; b <= 2; b++ {
		ms := hubMoves(t, hub, tid, 1, b)
		require.Len(t, ms, 20)
		for i, m := range ms {
			assert.Equal(t, i+1, m.Ply)
		}
	}
	want, err := director.Reports{DB: hub}.Standings(tid)
	require.NoError(t, err)

	// A new hub store, rebuilt from the stream alone.
	rebuilt := openDB(t, filepath.Join(dir, "rebuilt.db"))
	require.Equal(t, tid, setupEvent(t, rebuilt))
	startInbox(t, ctx, rebuilt, top.hub.js, "rebuild")
	require.Eventually(t, func() bool {
		got, err := director.Reports{DB: rebuilt}.Standings(tid)
		return err == nil && assert.ObjectsAreEqual(want, got)
	}, 15*time.Second, 20*time.Millisecond)
	gs, err := rebuilt.Games()
	require.NoError(t, err)
	assert.Len(t, gs, 2)
	for b := 1; b <= 2; b++ {
		assert.Len(t, hubMoves(t, rebuilt, tid, 1, b), 20)
	}
}

// A hall that plays a board otherwise than the hub paired it is refused
// with an alert for the hub's arbiter; the hub stores nothing of it.
func TestHubRefusesAGameItDidNotPair(t *testing.T) {
	ctx := t.Context()
	top := startTopology(t, "east")
	dir := t.TempDir()
	hub := openDB(t, filepath.Join(dir, "hub.db"))
	tid := setupEvent(t, hub)
	hall := openDB(t, filepath.Join(dir, "east.db"))
	setupEvent(t, hall)
	startInbox(t, ctx, hub, top.hub.js, "")

	g := store.Game{TournamentID: tid, Round: 1, BoardNo: 1, Game: "chess", FirstID: 2, SecondID: 1, Started: wall}
	require.NoError(t, hall.CreateGame(&g))
	playMoves(t, hall, g, 1, 2)
	_, err := (&federation.Outbox{DB: hall, JS: top.halls["east"].js, Hall: "east"}).Flush(ctx)
	require.NoError(t, err)

	require.Eventually(t, func() bool {
		as, err := hub.Alerts(true)
		return err == nil && len(as) == 1
	}, 10*time.Second, 20*time.Millisecond)
	as, err := hub.Alerts(true)
	require.NoError(t, err)
	assert.Equal(t, "federation", as[0].Kind)
	assert.Contains(t, as[0].Message, "board 1 is paired 1-2, but hall east game 1 plays 2-1")
	assert.Equal(t, "arbiter.east.1.1.1", as[0].Where)
	gs, err := hub.Games()
	require.NoError(t, err)
	assert.Empty(t, gs)
}
