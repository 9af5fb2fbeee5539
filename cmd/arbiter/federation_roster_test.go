package main

import (
	"context"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"arbiter/director"
	"arbiter/internal/config"
	"arbiter/rules"
	"arbiter/store"
)

// testDirectors maps a configuration to a function that startServe gives
// the director of the serve it starts with it (serveOptions.started).
var testDirectors sync.Map // *config.Config -> func(*director.Director)

// serveDirectors records the director of each serve started with one of
// cfgs (testDirectors), and returns a function that waits for it.
func serveDirectors(t testing.TB, cfgs ...*config.Config) func(*config.Config) *director.Director {
	t.Helper()
	var mu sync.Mutex
	dirs := map[*config.Config]*director.Director{}
	for _, c := range cfgs {
		testDirectors.Store(c, func(d *director.Director) {
			mu.Lock()
			defer mu.Unlock()
			dirs[c] = d
		})
		t.Cleanup(func() { testDirectors.Delete(c) })
	}
	return func(c *config.Config) *director.Director {
		t.Helper()
		var d *director.Director
		require.Eventually(t, func() bool {
			mu.Lock()
			defer mu.Unlock()
			d = dirs[c]
			return d != nil
		}, 30*time.Second, 10*time.Millisecond, "serve did not start its director")
		return d
	}
}

// inRound reports whether player pid is paired in round r: against an
// opponent, or given the pairing-allocated bye (not a player left out with
// a requested bye or zero).
func inRound(r store.Round, pid int) bool {
	return slices.ContainsFunc(r.Pairings, func(p store.Pairing) bool {
		return (p.First == pid || p.Second == pid) && (p.Second != 0 || p.Result == director.ResultBye)
	})
}

// The hub keeps the roster and the halls follow (issue 21): a Swiss in two
// halls paired by a boardless hub, whose arbiter registers a late entry
// after round 1, corrects a result played in a hall, grants a requested
// bye and withdraws a player after round 2. The halls refuse to make such
// changes themselves; the hub's next rounds include the late entry and
// leave out the withdrawn player and the bye; each daemon ends by itself
// (--exit-when-done) once the Swiss is over: the hub once the halls have
// its last results, each hall once its games are at the hub; and each
// hall's players, standings and TRF are the hub's.
func TestFederationRosterThroughServe(t *testing.T) {
	if testing.Short() {
		t.Skip("plays a whole Swiss in three daemons")
	}
	t.Parallel()
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	dir := t.TempDir()
	leaf := freeAddr(t)
	halls := []string{"east", "west"}
	hubCfg, hallCfg := federationCfgs(t, dir, leaf, halls, 2)
	hubCfg.Tournaments[0].AutoPair = false // the hub's arbiter pairs each round
	hallCfg["west"].Demo.Boards = 1        // east plays boards 1 and 2, west board 3
	directorOf := serveDirectors(t, hubCfg, hallCfg["east"], hallCfg["west"])
	_, hubOut, hubErr := startServe(t, ctx, hubCfg, true)
	hub := directorOf(hubCfg)
	hallOut := map[string]*syncBuffer{}
	hallErr := map[string]<-chan error{}
	hallD := map[string]*director.Director{}
	for _, h := range halls {
		_, hallOut[h], hallErr[h] = startServe(t, ctx, hallCfg[h], true)
		hallD[h] = directorOf(hallCfg[h])
	}
	ids := hub.TournamentIDs()
	require.Len(t, ids, 1)
	tid := ids[0]
	rounds := func(db *store.DB) []store.Round {
		rs, err := db.Rounds(tid)
		require.NoError(t, err)
		return rs
	}
	played := func(n int) {
		t.Helper()
		require.Eventually(t, func() bool {
			rs := rounds(hub.DB())
			return len(rs) >= n && !slices.ContainsFunc(rs[n-1].Pairings, func(p store.Pairing) bool { return p.Result == "" })
		}, 90*time.Second, 50*time.Millisecond, "round %d is not played to its end at the hub:\n%s", n, hubOut.String())
	}
	hallsHavePlayers := func(n int) {
		t.Helper()
		for _, h := range halls {
			require.Eventually(t, func() bool {
				ps, err := hallD[h].DB().Players(tid)
				require.NoError(t, err)
				return len(ps) == n
			}, 30*time.Second, 20*time.Millisecond, "hall %s has the hub's %d players", h, n)
		}
	}
	var kept *director.KeptElsewhereError

	require.NoError(t, hub.PairNextRound(ctx, tid, "chief", "round 1"))
	played(1)

	// A late entry: refused in a hall, registered at the hub.
	_, err := hallD["east"].AddPlayer(tid, director.NewPlayer{Name: "Late Comer", Rating: 1900}, "east arbiter", "came late")
	require.ErrorAs(t, err, &kept)
	require.ErrorContains(t, err, "refused in this hall: the players and rounds are kept by the hub")
	late, err := hub.AddPlayer(tid, director.NewPlayer{Name: "Late Comer", Rating: 1900, Missed: director.ResultHalfBye}, "chief", "came late")
	require.NoError(t, err)
	require.Equal(t, 7, late.ID)
	hallsHavePlayers(7)
	require.NoError(t, hub.PairNextRound(ctx, tid, "chief", "round 2"))
	require.True(t, inRound(rounds(hub.DB())[1], late.ID), "round 2 pairs the late entry")
	played(2)

	// The hub's arbiter corrects the result of a game played in east: east
	// follows, audited as the hub's.
	b1 := rounds(hub.DB())[1].Pairings[0]
	require.NotZero(t, b1.GameID)
	hg, err := hub.DB().Game(b1.GameID)
	require.NoError(t, err)
	corrected := rules.Draw(rules.ArbiterDecision)
	if hg.Result == corrected.Result.String() {
		corrected = rules.Win(rules.First, rules.ArbiterDecision)
	}
	require.NoError(t, hub.CorrectResult(ctx, b1.GameID, corrected, "chief", "the scoresheets say otherwise"))
	require.Eventually(t, func() bool {
		r2 := rounds(hallD["east"].DB())[1]
		g, err := hallD["east"].DB().Game(r2.Pairings[0].GameID)
		require.NoError(t, err)
		return g.Result == corrected.Result.String() && g.Reason == corrected.Reason.String()
	}, 30*time.Second, 20*time.Millisecond, "east has the hub's correction")

	// A withdrawal and a requested bye: refused in a hall, done at the hub.
	require.ErrorAs(t, hallD["west"].Withdraw(ctx, tid, 2, false, "west arbiter", "left"), &kept)
	require.ErrorAs(t, hallD["west"].RequestBye(tid, 3, 3, director.ResultZeroBye, "west arbiter", "asked"), &kept)
	require.NoError(t, hub.Withdraw(ctx, tid, 2, false, "chief", "left the event"))
	require.NoError(t, hub.RequestBye(tid, 3, 3, director.ResultZeroBye, "chief", "asked for round 3 off"))
	require.NoError(t, hub.PairNextRound(ctx, tid, "chief", "round 3"))
	r3 := rounds(hub.DB())[2]
	require.False(t, inRound(r3, 2), "round 3 leaves out the withdrawn player")
	require.False(t, inRound(r3, 3), "round 3 leaves out the player on a bye")
	require.True(t, inRound(r3, late.ID))

	// Each daemon ends by itself once the Swiss is over: the hub when the
	// halls have its last results (well before its 30 s limit), each hall
	// when the hub has its games.
	played(3)
	over := time.Now()
	select {
	case err := <-hubErr:
		require.NoError(t, err)
	case <-ctx.Done():
		t.Fatalf("the hub did not end by itself:\n%s", hubOut.String())
	}
	require.Contains(t, hubOut.String(), "every tournament is complete")
	require.Less(t, time.Since(over), 20*time.Second, "the hub did not wait for the halls' mirrors")
	for _, h := range halls {
		select {
		case err := <-hallErr[h]:
			require.NoError(t, err, "hall %s", h)
		case <-ctx.Done():
			t.Fatalf("hall %s did not end by itself:\n%s", h, hallOut[h].String())
		}
		require.Contains(t, hallOut[h].String(), "this hall's games are all played and at the hub", "hall %s", h)
	}

	hubDB, err := store.Open(hubCfg.Event.Database, nil)
	require.NoError(t, err)
	defer hubDB.Close()
	require.Len(t, rounds(hubDB), 3)
	wantPlayers, err := hubDB.Players(tid)
	require.NoError(t, err)
	wantStandings, err := director.Reports{DB: hubDB}.Standings(tid)
	require.NoError(t, err)
	wantTRF, err := director.Reports{DB: hubDB}.TRF(tid)
	require.NoError(t, err)
	require.Equal(t, byte('H'), wantTRF.PlayerByID(late.ID).Games[0].Result, "the late entry's missed round")
	for _, h := range halls {
		db, err := store.Open(hallCfg[h].Event.Database, nil)
		require.NoError(t, err)
		players, err := db.Players(tid)
		require.NoError(t, err)
		require.Equal(t, wantPlayers, players, "hall %s has the hub's players", h)
		got, err := director.Reports{DB: db}.Standings(tid)
		require.NoError(t, err)
		require.Equal(t, wantStandings, got, "hall %s's standings are the hub's", h)
		gotTRF, err := director.Reports{DB: db}.TRF(tid)
		require.NoError(t, err)
		require.Equal(t, wantTRF, gotTRF, "hall %s's TRF is the hub's", h)
		acts, err := db.Actions(0)
		require.NoError(t, err)
		require.True(t, slices.ContainsFunc(acts, func(a store.Action) bool { return a.What == "apply-roster" && a.Who == "hub" }),
			"hall %s audits the roster it took from the hub", h)
		if h == "east" {
			require.True(t, slices.ContainsFunc(acts, func(a store.Action) bool { return a.What == "correct-result" && a.Who == "hub" }),
				"east audits the hub's correction")
		}
		require.NoError(t, db.Close())
	}
}
