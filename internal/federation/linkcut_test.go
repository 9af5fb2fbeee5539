package federation_test

import (
	"flag"
	"path/filepath"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arbiter/internal/federation"
	"arbiter/store"
)

var cutFor = flag.Duration("fed.cut", 0, "TestLinkCutMidRound: hold the link cut this long (the issue's case: 30s)")

// Three halls play; one hall's leaf link is cut in the middle of its game
// and it plays on alone. When the link returns, the hub catches up within
// seconds: every move once, in order, and the result. The cut lasts as
// long as the hall needs to finish its game, or -fed.cut (30s for the
// issue's case).
func TestLinkCutMidRound(t *testing.T) {
	ctx := t.Context()
	halls := []string{"east", "west", "north"}
	top := startTopology(t, halls...)
	dir := t.TempDir()
	hub := openDB(t, filepath.Join(dir, "hub.db"))
	// What the hub's live pages hear: the moves as they are stored.
	var mu sync.Mutex
	heard := map[uint64][]int{} // the hub's game: its plies
	in := &federation.Inbox{DB: hub, JS: top.hub.js, Stored: func(n federation.News) {
		if n.Kind == federation.KindMove {
			mu.Lock()
			defer mu.Unlock()
			heard[n.Game] = append(heard[n.Game], n.Move.Ply)
		}
	}}
	stop, err := in.Start(ctx)
	require.NoError(t, err)
	t.Cleanup(stop)
	go func() {
		for ctx.Err() == nil {
			_, _ = federation.ReviveSources(ctx, top.hub.js) // as a hub node does
			time.Sleep(federation.ReviveEvery)
		}
	}()
	dbs := map[string]*store.DB{}
	games := map[string]store.Game{}
	outboxes := map[string]*federation.Outbox{}
	for _, h := range halls {
		dbs[h] = openDB(t, filepath.Join(dir, h+".db"))
		g := store.Game{Game: "chess", Started: wall}
		require.NoError(t, dbs[h].CreateGame(&g))
		games[h] = g
		outboxes[h] = &federation.Outbox{DB: dbs[h], JS: top.halls[h].js, Hall: h, Poll: 20 * time.Millisecond}
		go outboxes[h].Run(ctx) //nolint:errcheck // ends with ctx
	}
	hubGame := func(h string) uint64 {
		id, err := hub.ImportedGame(h, games[h].ID)
		if err != nil {
			return 0
		}
		return id
	}
	hubPlies := func(h string) int {
		id := hubGame(h)
		if id == 0 {
			return 0
		}
		ms, err := hub.Moves(id)
		require.NoError(t, err)
		return len(ms)
	}
	for _, h := range halls {
		playMoves(t, dbs[h], games[h], 1, 10)
		outboxes[h].Notify()
	}
	for _, h := range halls {
		require.Eventually(t, func() bool { return hubPlies(h) == 10 }, 10*time.Second, 10*time.Millisecond, "hall %s", h)
	}

	top.links["north"].cut()
	require.Eventually(t, func() bool { return top.hub.srv.NumLeafNodes() == 2 }, 10*time.Second, 10*time.Millisecond)
	cutAt := time.Now()
	for _, h := range halls {
		for ply := 11; ply <= 40; ply += 10 {
			playMoves(t, dbs[h], games[h], ply, ply+9)
			outboxes[h].Notify()
		}
		finish(t, dbs[h], games[h], "1-0")
		outboxes[h].Notify()
	}
	for _, h := range []string{"east", "west"} {
		require.Eventually(t, func() bool { return hubPlies(h) == 40 }, 10*time.Second, 10*time.Millisecond, "hall %s goes on", h)
	}
	assert.Equal(t, 10, hubPlies("north"), "nothing of north while its link is cut")
	if !testing.Short() && *cutFor > 0 {
		time.Sleep(time.Until(cutAt.Add(*cutFor)))
	}
	top.links["north"].restore()
	back := time.Now()
	require.Eventually(t, func() bool {
		g, err := hub.Game(hubGame("north"))
		return err == nil && g.Result == "1-0"
	}, 15*time.Second, 10*time.Millisecond, "north catches up after its link returns")
	t.Logf("link cut %v; the hub caught up %v after it returned", back.Sub(cutAt).Round(time.Millisecond), time.Since(back).Round(time.Millisecond))
	for _, h := range halls {
		ms, err := hub.Moves(hubGame(h))
		require.NoError(t, err)
		require.Len(t, ms, 40, "hall %s: each move once", h)
		for i, m := range ms {
			require.Equal(t, i+1, m.Ply, "hall %s: in order", h)
		}
	}
	gs, err := hub.Games()
	require.NoError(t, err)
	assert.Len(t, gs, 3)

	// The live pages heard every move once, in order, as the hub stored
	// it; a fact that comes again brings no news.
	want := make([]int, 40)
	for i := range want {
		want[i] = i + 1
	}
	heardOf := func(h string) []int {
		mu.Lock()
		defer mu.Unlock()
		return slices.Clone(heard[hubGame(h)])
	}
	for _, h := range halls {
		// Told just after the commit the test may have seen already.
		require.Eventually(t, func() bool { return len(heardOf(h)) >= 40 }, 5*time.Second, 10*time.Millisecond, "hall %s", h)
		assert.Equal(t, want, heardOf(h), "hall %s: the moves heard", h)
	}
	ms, err := dbs["north"].Moves(games["north"].ID)
	require.NoError(t, err)
	again := ms[len(ms)-1]
	require.NoError(t, in.Apply(federation.Fact{Kind: federation.KindMove, Hall: "north", GameID: games["north"].ID, Move: &again}))
	assert.Len(t, heardOf("north"), 40, "a move stored already is not heard again")
}
