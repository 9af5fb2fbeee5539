package federation_test

import (
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"arbiter/internal/federation"
)

// The daemon's one-call start: an embedded hub and an embedded hall joined
// by a leaf link carry a move to the hub's store.
func TestStartHubAndHall(t *testing.T) {
	ctx := t.Context()
	dir := t.TempDir()
	hubDB := openDB(t, filepath.Join(dir, "hub.db"))
	tid := setupEvent(t, hubDB)
	hallDB := openDB(t, filepath.Join(dir, "hall.db"))
	setupEvent(t, hallDB)
	leaf := freePort(t)

	hub, err := federation.Start(ctx, federation.Options{Config: federation.Config{Role: "hub", Listen: "127.0.0.1:0", StoreDir: filepath.Join(dir, "hub-js"),
		LeafListen: fmt.Sprintf("127.0.0.1:%d", leaf), Halls: []string{"east"}}, DB: hubDB})
	require.NoError(t, err)
	t.Cleanup(hub.Close)
	hall, err := federation.Start(ctx, federation.Options{Config: federation.Config{Role: "hall", Hall: "east", Listen: "127.0.0.1:0",
		StoreDir: filepath.Join(dir, "hall-js"), HubURL: fmt.Sprintf("nats-leaf://127.0.0.1:%d", leaf)}, DB: hallDB})
	require.NoError(t, err)
	t.Cleanup(hall.Close)

	g := startGame(t, hallDB, tid, 1, 1)
	playMoves(t, hallDB, g, 1, 3)
	hall.Notify()
	require.Eventually(t, func() bool { return len(hubMoves(t, hubDB, tid, 1, 1)) == 3 }, 20*time.Second, 20*time.Millisecond)

	_, err = federation.Start(ctx, federation.Options{Config: federation.Config{Role: "referee", URL: "nats://127.0.0.1:1"}})
	require.ErrorContains(t, err, `role "referee": want hall or hub`)
}
