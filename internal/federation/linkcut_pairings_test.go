package federation_test

import (
	"flag"
	"testing"
	"time"

	"github.com/nats-io/nats.go/jetstream"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arbiter/internal/federation"
)

var pairingsCut = flag.Duration("fed.pairings-cut", 15*time.Second,
	"TestPairingsResumeAfterLinkCut: how long the link is cut (3s with -short)")

// pairingsResumeWithin bounds the time from a link's return to the hall's
// having the round paired during the cut: about a second on an idle
// machine, with room for a loaded CI. The NATS server alone takes 20-35 s
// after a cut of 15-20 s, and up to minutes after longer ones (measured
// with this test and no Follower.Hub).
const pairingsResumeWithin = 5 * time.Second

// A round paired while a hall's link is cut reaches the hall promptly when
// the link returns: the follower reads it from the hub while the hall's
// mirror waits out the NATS server's back-off.
func TestPairingsResumeAfterLinkCut(t *testing.T) {
	ctx := t.Context()
	top := startTopology(t, "east")
	kv, err := federation.EnsurePairings(ctx, top.hub.js)
	require.NoError(t, err)
	hall := top.halls["east"]
	mirror, err := federation.MirrorPairings(ctx, hall.js, "east", federation.HubDomain)
	require.NoError(t, err)
	hubJS, err := jetstream.NewWithDomain(hall.nc, federation.HubDomain)
	require.NoError(t, err)
	got := &hallRounds{}
	f := &federation.Follower{KV: mirror, Hub: hubJS, Apply: got.apply}
	go f.Run(ctx) //nolint:errcheck // ends with ctx
	_, err = federation.PublishRound(ctx, kv, "Federated open", paired(1, 1))
	require.NoError(t, err)
	require.Eventually(t, func() bool { return got.count() == 1 }, 10*time.Second, 10*time.Millisecond)

	top.links["east"].cut()
	require.Eventually(t, func() bool { return top.hub.srv.NumLeafNodes() == 0 }, 10*time.Second, 10*time.Millisecond)
	cutAt := time.Now()
	_, err = federation.PublishRound(ctx, kv, "Federated open", paired(1, 2))
	require.NoError(t, err)
	cut := *pairingsCut
	if testing.Short() {
		cut = min(cut, 3*time.Second)
	}
	time.Sleep(time.Until(cutAt.Add(cut)))
	assert.Equal(t, 1, got.count(), "east cannot hear of round 2 while cut off")
	top.links["east"].restore()
	back := time.Now()
	require.Eventually(t, func() bool { return got.count() == 2 }, pairingsResumeWithin, 10*time.Millisecond,
		"round 2 reaches east within %v of its link's return", pairingsResumeWithin)
	t.Logf("link cut %v: round 2 reached the hall %v after the link returned",
		back.Sub(cutAt).Round(time.Millisecond), time.Since(back).Round(time.Millisecond))

	// Once the mirror is back, a new round comes through it as before,
	// in order.
	_, err = federation.PublishRound(ctx, kv, "Federated open", paired(1, 3))
	require.NoError(t, err)
	require.Eventually(t, func() bool { return got.count() == 3 }, 10*time.Second, 10*time.Millisecond)
	require.Equal(t, []int{1, 2, 3}, got.numbers())
}

// numbers are the rounds given, in order.
func (h *hallRounds) numbers() []int {
	h.mu.Lock()
	defer h.mu.Unlock()
	out := make([]int, len(h.rounds))
	for i, r := range h.rounds {
		out[i] = r.Number
	}
	return out
}

// A hall whose mirror is stalled reads the rounds from the hub's bucket
// with its own credentials and permissions (HallPermissions), over TLS.
func TestPairingsFromHubWithHallCredentials(t *testing.T) {
	ctx := t.Context()
	top := startSecureTopology(t, "east")
	kv, err := federation.EnsurePairings(ctx, top.hub.js)
	require.NoError(t, err)
	_, err = federation.PublishRound(ctx, kv, "Federated open", paired(1, 1))
	require.NoError(t, err)
	hall := top.halls["east"]
	// A mirror of a domain nobody serves never comes up: only the hub's
	// bucket can give the round.
	stalled, err := federation.MirrorPairings(ctx, hall.js, "east", "nowhere")
	require.NoError(t, err)
	hubJS, err := jetstream.NewWithDomain(hall.nc, federation.HubDomain)
	require.NoError(t, err)
	got := &hallRounds{}
	f := &federation.Follower{KV: stalled, Hub: hubJS, Apply: got.apply}
	go f.Run(ctx) //nolint:errcheck // ends with ctx
	require.Eventually(t, func() bool { return got.count() == 1 }, 10*time.Second, 10*time.Millisecond)
	_, err = federation.PublishRound(ctx, kv, "Federated open", paired(1, 2))
	require.NoError(t, err)
	require.Eventually(t, func() bool { return got.count() == 2 }, 10*time.Second, 10*time.Millisecond)
	require.Equal(t, []int{1, 2}, got.numbers())
}
