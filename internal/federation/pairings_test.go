package federation_test

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arbiter/internal/federation"
	"arbiter/store"
)

// hallRounds is what a hall's follower was given, in order; it refuses a
// round that does not follow the last, as the director does.
type hallRounds struct {
	mu     sync.Mutex
	rounds []store.Round
}

func (h *hallRounds) apply(_ context.Context, r store.Round) (bool, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if r.Number <= len(h.rounds) {
		return false, nil
	}
	if r.Number != len(h.rounds)+1 {
		return false, fmt.Errorf("round %d before round %d", r.Number, len(h.rounds)+1)
	}
	h.rounds = append(h.rounds, r)
	return true, nil
}

func (h *hallRounds) count() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return len(h.rounds)
}

func paired(tid uint64, round int) store.Round {
	r := store.Round{TournamentID: tid, Number: round, PairedAt: wall}
	for b, p := range pairings[round-1] {
		r.Pairings = append(r.Pairings, store.Pairing{Board: b + 1, First: p[0], Second: p[1], GameID: uint64(10*round + b)})
	}
	return r
}

// The hub's rounds reach every hall through the pairings bucket: a hall
// whose link is cut keeps the rounds it has and gets the next one when the
// link returns; the hub writes each round once and never overwrites one.
func TestPairingsReachHallsOffline(t *testing.T) {
	ctx := t.Context()
	top := startTopology(t, "east", "west")
	kv, err := federation.EnsurePairings(ctx, top.hub.js)
	require.NoError(t, err)
	got := map[string]*hallRounds{}
	for h, n := range top.halls {
		mirror, err := federation.MirrorPairings(ctx, n.js, h, federation.HubDomain)
		require.NoError(t, err)
		got[h] = &hallRounds{}
		f := &federation.Follower{KV: mirror, Apply: got[h].apply}
		go f.Run(ctx) //nolint:errcheck // ends with ctx
	}
	rev1, err := federation.PublishRound(ctx, kv, "Federated open", paired(1, 1))
	require.NoError(t, err)
	for h := range top.halls {
		require.Eventually(t, func() bool { return got[h].count() == 1 }, 10*time.Second, 10*time.Millisecond, "hall %s", h)
	}
	r1 := got["east"].rounds[0]
	assert.Equal(t, 1, r1.Number)
	for _, p := range r1.Pairings {
		assert.Zero(t, p.GameID, "the hub's game IDs stay on the hub")
	}

	// East is cut off: west gets round 2, east plays on with round 1.
	top.links["east"].cut()
	require.Eventually(t, func() bool { return top.hub.srv.NumLeafNodes() == 1 }, 10*time.Second, 10*time.Millisecond)
	_, err = federation.PublishRound(ctx, kv, "Federated open", paired(1, 2))
	require.NoError(t, err)
	require.Eventually(t, func() bool { return got["west"].count() == 2 }, 10*time.Second, 10*time.Millisecond)
	assert.Equal(t, 1, got["east"].count(), "east cannot hear of round 2 while cut off")
	mirror, err := top.halls["east"].js.KeyValue(ctx, federation.PairingsBucket)
	require.NoError(t, err)
	e, err := mirror.Get(ctx, federation.RoundKey(1, 1))
	require.NoError(t, err, "round 1 is in the hall while it is cut off")
	assert.Equal(t, rev1, e.Revision())

	top.links["east"].restore()
	require.Eventually(t, func() bool { return got["east"].count() == 2 }, 15*time.Second, 10*time.Millisecond,
		"east gets round 2 when its link returns")

	// Publishing again is harmless; other pairings for a published round
	// are refused.
	_, err = federation.PublishRound(ctx, kv, "Federated open", paired(1, 2))
	require.NoError(t, err)
	other := paired(1, 2)
	other.Pairings[0].First, other.Pairings[0].Second = other.Pairings[0].Second, other.Pairings[0].First
	_, err = federation.PublishRound(ctx, kv, "Federated open", other)
	require.ErrorIs(t, err, federation.ErrRoundChanged)
	assert.Contains(t, err.Error(), "t1.r2 (round 2 of Federated open) at revision")
}

func TestDecodeRound(t *testing.T) {
	tests := []struct{ name, key, data, says string }{
		{"not json", "t1.r1", `{`, "unexpected end"},
		{"other key", "t1.r2", `{"round":{"tournament":1,"number":1,"pairings":[]}}`, "holds round 1 of tournament 1"},
		{"no tournament", "t0.r1", `{"round":{"number":1}}`, "holds round 1 of tournament 0"},
		{"board twice", "t1.r1", `{"round":{"tournament":1,"number":1,"pairings":[{"board":1,"first":1,"second":2},{"board":1,"first":3,"second":4}]}}`, "board 1 (3-4)"},
		{"no player", "t1.r1", `{"round":{"tournament":1,"number":1,"pairings":[{"board":1,"first":0,"second":2}]}}`, "board 1 (0-2)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := federation.DecodeRound(tt.key, []byte(tt.data))
			require.Error(t, err)
			assert.Contains(t, err.Error(), tt.says)
			assert.Contains(t, err.Error(), "pairings "+tt.key)
		})
	}
	pr, err := federation.DecodeRound("t1.r1", []byte(`{"tournament":"Open","round":{"tournament":1,"number":1,"pairings":[{"board":1,"first":1,"second":2},{"board":2,"first":3,"second":0,"result":"bye"}]}}`))
	require.NoError(t, err)
	assert.Equal(t, "Open", pr.Tournament)
	assert.Len(t, pr.Round.Pairings, 2)
}

// FuzzDecodeRound: a round read from the bucket is the round of its key
// with boards of their own, or an error; it never panics.
func FuzzDecodeRound(f *testing.F) {
	f.Add("t1.r1", []byte(`{"tournament":"Open","round":{"tournament":1,"number":1,"pairings":[{"board":1,"first":1,"second":2}]}}`))
	f.Add("t2.r3", []byte(`{"round":{"tournament":2,"number":3}}`))
	f.Add("x", []byte(`null`))
	f.Fuzz(func(t *testing.T, key string, data []byte) {
		pr, err := federation.DecodeRound(key, data)
		if err != nil {
			return
		}
		require.Equal(t, key, federation.RoundKey(pr.Round.TournamentID, pr.Round.Number))
		seen := map[int]bool{}
		for _, p := range pr.Round.Pairings {
			require.False(t, seen[p.Board])
			seen[p.Board] = true
		}
	})
}
