package federation_test

import (
	"context"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arbiter/internal/federation"
	"arbiter/store"
)

// hallRoster is what a hall's roster follower was given: the last players
// and each round's last results. It refuses results of a round it was not
// told it has, as the director does.
type hallRoster struct {
	mu      sync.Mutex
	rounds  int
	players []store.Player
	results map[int][]federation.BoardResult
}

func (h *hallRoster) applyPlayers(_ context.Context, r federation.Roster) error {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.players = r.Players
	return nil
}

func (h *hallRoster) applyResults(_ context.Context, r federation.RoundResults) error {
	h.mu.Lock()
	defer h.mu.Unlock()
	if r.Round > h.rounds {
		return assert.AnError
	}
	if h.results == nil {
		h.results = map[int][]federation.BoardResult{}
	}
	h.results[r.Round] = r.Boards
	return nil
}

func (h *hallRoster) state() (players []store.Player, results map[int][]federation.BoardResult) {
	h.mu.Lock()
	defer h.mu.Unlock()
	results = map[int][]federation.BoardResult{}
	for r, b := range h.results {
		results[r] = b
	}
	return h.players, results
}

func (h *hallRoster) setRounds(n int) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.rounds = n
}

// The hub's players and results reach every hall through the roster
// bucket: a late entry, a withdrawal and a board's result; a hall whose
// link is cut keeps what it has and catches up when the link returns;
// results wait for their round; a value someone else wrote is found out
// and written over.
func TestRosterReachesHallsOffline(t *testing.T) {
	ctx := t.Context()
	top := startTopology(t, "east", "west")
	hub := openDB(t, filepath.Join(t.TempDir(), "hub.db"))
	tid := setupEvent(t, hub)
	kv, err := federation.EnsureRoster(ctx, top.hub.js)
	require.NoError(t, err)
	w := &federation.RosterWriter{DB: hub, KV: kv}
	require.NoError(t, w.Publish(ctx))
	halls := []federation.Hall{{Name: "east", Domain: "east"}, {Name: "west", Domain: "west"}}
	delivered, err := federation.RosterDelivered(ctx, top.hub.js, halls)
	require.NoError(t, err)
	require.False(t, delivered, "no hall has a mirror yet")
	got := map[string]*hallRoster{}
	for h, n := range top.halls {
		mirror, err := federation.MirrorRoster(ctx, n.js, h, federation.HubDomain)
		require.NoError(t, err)
		got[h] = &hallRoster{rounds: 1}
		f := &federation.RosterFollower{KV: mirror, ApplyPlayers: got[h].applyPlayers, ApplyResults: got[h].applyResults}
		go f.Run(ctx) //nolint:errcheck // ends with ctx
	}
	players := func(h string) int {
		ps, _ := got[h].state()
		return len(ps)
	}
	for h := range top.halls {
		require.Eventually(t, func() bool { return players(h) == 4 }, 10*time.Second, 10*time.Millisecond, "hall %s", h)
	}
	require.Eventually(t, func() bool {
		delivered, err := federation.RosterDelivered(ctx, top.hub.js, halls)
		return err == nil && delivered
	}, 10*time.Second, 10*time.Millisecond, "both mirrors have the roster")

	// A late entry and a result of round 1.
	require.NoError(t, hub.PutPlayer(&store.Player{TournamentID: tid, ID: 5, Name: "Kuznetsov", Joined: 2, Byes: map[int]string{1: "H"}}))
	require.NoError(t, hub.SetPairingResult(tid, 1, 2, "1/2-1/2"))
	require.NoError(t, w.Publish(ctx))
	for h := range top.halls {
		require.Eventually(t, func() bool {
			ps, rs := got[h].state()
			return len(ps) == 5 && len(rs[1]) == 1
		}, 10*time.Second, 10*time.Millisecond, "hall %s", h)
	}
	ps, rs := got["east"].state()
	assert.Equal(t, map[int]string{1: "H"}, ps[4].Byes)
	assert.Equal(t, []federation.BoardResult{{Board: 2, Result: "1/2-1/2"}}, rs[1])

	// East cut off: west hears of the withdrawal, east when its link
	// returns.
	top.links["east"].cut()
	require.Eventually(t, func() bool { return top.hub.srv.NumLeafNodes() == 1 }, 10*time.Second, 10*time.Millisecond)
	hubPlayers, err := hub.Players(tid)
	require.NoError(t, err)
	p := hubPlayers[1]
	p.Withdrawn, p.WithdrawnFrom = true, 2
	require.NoError(t, hub.PutPlayer(&p))
	require.NoError(t, w.Publish(ctx))
	withdrawn := func(h string) bool {
		ps, _ := got[h].state()
		return len(ps) == 5 && ps[1].Withdrawn
	}
	require.Eventually(t, func() bool { return withdrawn("west") }, 10*time.Second, 10*time.Millisecond)
	assert.False(t, withdrawn("east"), "east cannot hear of it while cut off")
	delivered, err = federation.RosterDelivered(ctx, top.hub.js, halls)
	require.NoError(t, err)
	assert.True(t, delivered, "west has the withdrawal; east, not linked, is left out")
	top.links["east"].restore()
	require.Eventually(t, func() bool { return withdrawn("east") }, 15*time.Second, 10*time.Millisecond, "east hears of it when its link returns")

	// Round 2's results wait until the hall has round 2.
	require.NoError(t, hub.SetPairingResult(tid, 2, 1, "0-1"))
	require.NoError(t, w.Publish(ctx))
	time.Sleep(300 * time.Millisecond)
	_, rs = got["west"].state()
	require.Empty(t, rs[2], "round 2 is not in the hall yet")
	got["west"].setRounds(2)
	require.Eventually(t, func() bool {
		_, rs := got["west"].state()
		return len(rs[2]) == 1
	}, 10*time.Second, 10*time.Millisecond, "round 2's results follow the round")

	// Someone else writes the players: the hub finds out at its next
	// write, and writes over it after.
	_, err = kv.Put(ctx, federation.PlayersKey(tid), []byte(`{"tournamentId":1,"players":[]}`))
	require.NoError(t, err)
	hubPlayers, err = hub.Players(tid)
	require.NoError(t, err)
	p = hubPlayers[2]
	p.Byes = map[int]string{3: "Z"}
	require.NoError(t, hub.PutPlayer(&p))
	err = w.Publish(ctx)
	require.ErrorIs(t, err, federation.ErrRosterChanged)
	assert.Contains(t, err.Error(), "roster t1.players: not at revision")
	require.NoError(t, w.Publish(ctx))
	e, err := kv.Get(ctx, federation.PlayersKey(tid))
	require.NoError(t, err)
	entry, err := federation.DecodeRosterEntry(e.Key(), e.Value())
	require.NoError(t, err)
	require.Len(t, entry.Players.Players, 5)
	assert.Equal(t, map[int]string{3: "Z"}, entry.Players.Players[2].Byes)
	require.Eventually(t, func() bool {
		ps, _ := got["east"].state()
		return len(ps) == 5 && ps[2].Byes[3] == "Z"
	}, 10*time.Second, 10*time.Millisecond, "the halls follow the hub's")
}

func TestDecodeRosterEntry(t *testing.T) {
	tests := []struct{ name, key, data, says string }{
		{"not a key", "t1.pairings", `{}`, "not a key of the roster bucket"},
		{"no tournament", "t0.players", `{}`, "not a key of the roster bucket"},
		{"round 0", "t1.r0.results", `{}`, "not a key of the roster bucket"},
		{"padded", "t01.players", `{}`, "not a key of the roster bucket"},
		{"not json", "t1.players", `{`, "unexpected end"},
		{"other tournament", "t1.players", `{"tournamentId":2}`, "holds the players of tournament 2"},
		{"gap", "t1.players", `{"tournamentId":1,"players":[{"tournament":1,"id":2,"name":"A"}]}`, "entry 1 is player 2"},
		{"unnamed", "t1.players", `{"tournamentId":1,"players":[{"tournament":1,"id":1,"name":" "}]}`, "entry 1 is player 1"},
		{"other round", "t1.r2.results", `{"tournamentId":1,"round":3}`, "holds the results of round 3 of tournament 1"},
		{"board twice", "t1.r1.results", `{"tournamentId":1,"round":1,"boards":[{"board":1,"result":"1-0"},{"board":1,"result":"0-1"}]}`, `board 1 ("0-1")`},
		{"no result", "t1.r1.results", `{"tournamentId":1,"round":1,"boards":[{"board":1}]}`, `board 1 ("")`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := federation.DecodeRosterEntry(tt.key, []byte(tt.data))
			require.Error(t, err)
			assert.Contains(t, err.Error(), tt.says)
			assert.Contains(t, err.Error(), "roster "+tt.key)
		})
	}
	e, err := federation.DecodeRosterEntry("t1.players", []byte(`{"tournamentId":1,"tournament":"Open","players":[{"tournament":1,"id":1,"name":"A","withdrawn":true,"withdrawnFrom":3}]}`))
	require.NoError(t, err)
	require.NotNil(t, e.Players)
	assert.Nil(t, e.Results)
	assert.True(t, e.Players.Players[0].Withdrawn)
	e, err = federation.DecodeRosterEntry("t1.r2.results", []byte(`{"tournamentId":1,"round":2,"boards":[{"board":3,"result":"+/-","gameResult":"1-0","reason":"forfeit"}]}`))
	require.NoError(t, err)
	require.NotNil(t, e.Results)
	assert.Equal(t, federation.BoardResult{Board: 3, Result: "+/-", GameResult: "1-0", Reason: "forfeit"}, e.Results.Boards[0])
}

// FuzzDecodeRosterEntry: a roster value read from the bucket is the
// players or the results its key names, or an error; it never panics.
func FuzzDecodeRosterEntry(f *testing.F) {
	f.Add("t1.players", []byte(`{"tournamentId":1,"players":[{"tournament":1,"id":1,"name":"A"}]}`))
	f.Add("t2.r3.results", []byte(`{"tournamentId":2,"round":3,"boards":[{"board":1,"result":"1-0"}]}`))
	f.Add("t1.r1", []byte(`null`))
	f.Fuzz(func(t *testing.T, key string, data []byte) {
		e, err := federation.DecodeRosterEntry(key, data)
		if err != nil {
			return
		}
		switch {
		case e.Players != nil:
			require.Nil(t, e.Results)
			require.Equal(t, key, federation.PlayersKey(e.Players.TournamentID))
			for i, p := range e.Players.Players {
				require.Equal(t, i+1, p.ID)
			}
		default:
			require.NotNil(t, e.Results)
			require.Equal(t, key, federation.ResultsKey(e.Results.TournamentID, e.Results.Round))
			seen := map[int]bool{}
			for _, b := range e.Results.Boards {
				require.False(t, seen[b.Board])
				require.NotEmpty(t, b.Result)
				seen[b.Board] = true
			}
		}
	})
}
