package main

import (
	"context"
	"fmt"
	"net"
	"path/filepath"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
	"github.com/stretchr/testify/require"

	"arbiter/internal/config"
	"arbiter/internal/federation"
)

// A hall daemon with federation: its demo boards' moves reach its hall
// stream on the embedded NATS server as they are stored.
func TestServeHallPublishesMoves(t *testing.T) {
	cfg := fastDemo(t, 1, 40)
	l, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	addr := l.Addr().String()
	require.NoError(t, l.Close())
	cfg.Federation = config.Federation{Role: "hall", Hall: "east", Listen: addr, StoreDir: filepath.Join(t.TempDir(), "nats")}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	_, _, errc := startServe(t, ctx, cfg, false)

	nc, err := nats.Connect("nats://" + addr)
	require.NoError(t, err)
	defer nc.Close()
	js, err := jetstream.New(nc)
	require.NoError(t, err)
	cons, err := js.OrderedConsumer(ctx, federation.HallStream("east"), jetstream.OrderedConsumerConfig{})
	require.NoError(t, err)
	moves := 0
	for moves < 5 {
		msg, err := cons.Next(jetstream.FetchMaxWait(30 * time.Second))
		require.NoError(t, err, "no fact from the hall after %d moves", moves)
		f, err := federation.DecodeFact(msg.Subject(), msg.Data())
		require.NoError(t, err)
		if f.Kind == federation.KindMove {
			moves++
			require.Equal(t, fmt.Sprintf("east/%d/%d", f.GameID, f.Move.Ply), msg.Headers().Get(jetstream.MsgIDHeader))
		}
	}
	cancel()
	require.NoError(t, <-errc)
}
