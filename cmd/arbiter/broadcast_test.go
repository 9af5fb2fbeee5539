package main

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arbiter/export"
	"arbiter/internal/config"
	"arbiter/store"
)

// Stopped (SIGTERM, Ctrl-C) while the broadcast endpoint refuses every
// push, the daemon sends the rounds once it comes back, before it exits:
// the endpoint answers only after the stop, and gets every round as the
// database has it at the end.
func TestServeFlushesBroadcastOnStop(t *testing.T) {
	if testing.Short() {
		t.Skip("runs a demo event")
	}
	t.Parallel()
	cfg := fastDemo(t, 2, 24)
	var chess string
	for _, tc := range cfg.Tournaments {
		if tc.Game == "chess" {
			chess = tc.Name
		}
	}
	ctx, stop := context.WithTimeout(context.Background(), 2*time.Minute)
	defer stop()
	var (
		mu       sync.Mutex
		accepted = map[string]string{} // path: the last body
		refused  int
	)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		mu.Lock()
		defer mu.Unlock()
		if ctx.Err() == nil { // down until the daemon is told to stop
			refused++
			http.Error(w, "down for maintenance", http.StatusServiceUnavailable)
			return
		}
		accepted[r.URL.Path] = string(b)
	}))
	defer srv.Close()
	cfg.Broadcast.Push = []config.Push{{URL: srv.URL + "/round/{round}/push", Tournament: chess, Token: "lip_x"}}

	url, out, errc := startServe(t, ctx, cfg, false)
	require.Eventually(t, func() bool { return movesSoFar(t, url) }, time.Minute, 50*time.Millisecond)
	require.Eventually(t, func() bool { mu.Lock(); defer mu.Unlock(); return refused > 0 }, time.Minute, 50*time.Millisecond)
	stop()
	require.NoError(t, <-errc)
	assert.NotContains(t, out.String(), "not sent")

	db, err := store.Open(cfg.Event.Database, nil)
	require.NoError(t, err)
	defer db.Close()
	tours, err := db.Tournaments()
	require.NoError(t, err)
	for _, tr := range tours {
		if tr.Name != chess {
			continue
		}
		rounds, err := db.Rounds(tr.ID)
		require.NoError(t, err)
		require.NotEmpty(t, rounds)
		for _, r := range rounds {
			var want bytes.Buffer
			require.NoError(t, export.WriteRound(&want, db, cfg.Event.Name, tr.ID, r.Number, "pgn"))
			mu.Lock()
			got := accepted["/round/"+strconv.Itoa(r.Number)+"/push"]
			mu.Unlock()
			assert.Equal(t, want.String(), got, "round %d as stored at the stop", r.Number)
		}
	}
}
