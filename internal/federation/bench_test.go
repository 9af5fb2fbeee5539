package federation_test

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"syscall"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
	"github.com/stretchr/testify/require"

	"arbiter/internal/federation"
	"arbiter/store"
)

// BenchmarkCommitToHub measures one move from its commit in a hall's store
// to its commit in the hub's store, across a leaf node link: the hall's
// outbox is notified after the commit, as the daemon does.
func BenchmarkCommitToHub(b *testing.B) {
	ctx := b.Context()
	top := startTopology(b, "east")
	dir := b.TempDir()
	hub := openDB(b, filepath.Join(dir, "hub.db"))
	tid := setupEvent(b, hub)
	hall := openDB(b, filepath.Join(dir, "east.db"))
	setupEvent(b, hall)
	arrived := make(chan int, 16)
	in := &federation.Inbox{DB: hub, JS: top.hub.js, Applied: func(f federation.Fact) {
		if f.Kind == federation.KindMove {
			arrived <- f.Move.Ply
		}
	}}
	stop, err := in.Start(ctx)
	require.NoError(b, err)
	b.Cleanup(stop)
	ob := &federation.Outbox{DB: hall, JS: top.halls["east"].js, Hall: "east", Poll: time.Hour}
	go ob.Run(ctx) //nolint:errcheck // ends with ctx
	g := startGame(b, hall, tid, 1, 1)
	lat := make([]time.Duration, 0, b.N)
	b.ResetTimer()
	for i := range b.N {
		start := time.Now()
		playMoves(b, hall, g, i+1, i+1)
		ob.Notify()
		for ply := range arrived {
			if ply == i+1 {
				break
			}
		}
		lat = append(lat, time.Since(start))
	}
	b.StopTimer()
	slices.Sort(lat)
	b.ReportMetric(float64(lat[len(lat)/2].Microseconds()), "p50-µs")
	b.ReportMetric(float64(lat[len(lat)*99/100].Microseconds()), "p99-µs")
}

// BenchmarkHubCatchUp measures how fast the hub takes in a backlog (a hall
// link back after a cut): facts per second from the hall's store to the
// hub's, 20 games of 50 moves and their results.
func BenchmarkHubCatchUp(b *testing.B) {
	for range b.N {
		b.StopTimer()
		top := startTopology(b, "east")
		dir := b.TempDir()
		hub := openDB(b, filepath.Join(dir, "hub.db"))
		hall := openDB(b, filepath.Join(dir, "east.db"))
		const games, plies = 20, 50
		done := make(chan struct{})
		seen := 0
		in := &federation.Inbox{DB: hub, JS: top.hub.js, Applied: func(federation.Fact) {
			if seen++; seen == games*(plies+2) {
				close(done)
			}
		}}
		for range games {
			g := store.Game{Game: "chess", Started: wall}
			require.NoError(b, hall.CreateGame(&g))
			playMoves(b, hall, g, 1, plies)
			finish(b, hall, g, "1-0")
		}
		b.StartTimer()
		start := time.Now()
		for {
			n, err := (&federation.Outbox{DB: hall, JS: top.halls["east"].js, Hall: "east"}).Flush(b.Context())
			require.NoError(b, err)
			if n == 0 {
				break
			}
		}
		published := time.Since(start)
		stop, err := in.Start(b.Context())
		require.NoError(b, err)
		<-done
		b.StopTimer()
		elapsed := time.Since(start)
		stop()
		b.ReportMetric(float64(games*(plies+2))/elapsed.Seconds(), "facts/s")
		b.ReportMetric(float64(published.Milliseconds()), "publish-ms")
	}
}

// BenchmarkDecodeFact measures the inbox's check of one received fact: a
// move (the most frequent), an alert and the boards' status.
func BenchmarkDecodeFact(b *testing.B) {
	move, err := os.ReadFile(filepath.Join("testdata", "move.json"))
	require.NoError(b, err)
	for _, bc := range []struct{ name, subject, data string }{
		{"move", "arbiter.east.1.7.42", string(move)},
		{"alert", "arbiter.east.alert.3", `{"kind":"alert","hall":"east","alert":{"id":3,"kind":"illegal-move","message":"x","at":"2026-11-21T10:00:00Z"}}`},
		{"status", "arbiter.east.status", `{"kind":"status","hall":"east","boards":[{"board":"B1","health":"ok"}]}`},
	} {
		b.Run(bc.name, func(b *testing.B) {
			data := []byte(bc.data)
			b.ReportAllocs()
			for b.Loop() {
				if _, err := federation.DecodeFact(bc.subject, data); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkOutboxFlush measures the outbox's own work on a backlog (20
// games of 50 moves and their results, as BenchmarkHubCatchUp's) against a
// JetStream that acknowledges each fact at once: read the store, encode
// and send each fact, take the acknowledgements, store the cursors. One op
// is the whole backlog; cpu-µs/op is the process's CPU time for it,
// steadier than the wall time on a busy machine.
func BenchmarkOutboxFlush(b *testing.B) {
	dir := b.TempDir()
	backlog := filepath.Join(dir, "backlog.db")
	db, err := store.Open(backlog, nil)
	require.NoError(b, err)
	const games, plies = 20, 50
	for range games {
		g := store.Game{Game: "chess", Started: wall}
		require.NoError(b, db.CreateGame(&g))
		playMoves(b, db, g, 1, plies)
		finish(b, db, g, "1-0")
	}
	require.NoError(b, db.Close())
	data, err := os.ReadFile(backlog)
	require.NoError(b, err)
	b.ReportAllocs()
	var cpu time.Duration
	for i := range b.N {
		b.StopTimer()
		path := filepath.Join(dir, fmt.Sprintf("hall-%d.db", i))
		require.NoError(b, os.WriteFile(path, data, 0o600))
		hall, err := store.Open(path, nil)
		require.NoError(b, err)
		js := &ackedJS{}
		ob := &federation.Outbox{DB: hall, JS: js, Hall: "east"}
		before := cpuTime(b)
		b.StartTimer()
		for {
			n, err := ob.Flush(b.Context())
			require.NoError(b, err)
			if n == 0 {
				break
			}
		}
		b.StopTimer()
		cpu += cpuTime(b) - before
		require.Equal(b, games*(plies+2), js.sent, "facts published")
		require.NoError(b, hall.Close())
		require.NoError(b, os.Remove(path))
	}
	b.ReportMetric(float64(cpu.Microseconds())/float64(b.N), "cpu-µs/op")
}

// cpuTime is the CPU time the process used so far.
func cpuTime(tb testing.TB) time.Duration {
	var ru syscall.Rusage
	require.NoError(tb, syscall.Getrusage(syscall.RUSAGE_SELF, &ru))
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// ackedJS is a JetStream that acknowledges every message published
// asynchronously at once, and counts them; its other methods are not for
// use.
type ackedJS struct {
	jetstream.JetStream
	sent int
}

func (j *ackedJS) PublishMsgAsync(msg *nats.Msg, _ ...jetstream.PublishOpt) (jetstream.PubAckFuture, error) {
	j.sent++
	ok := make(chan *jetstream.PubAck, 1)
	ok <- &jetstream.PubAck{Stream: "east", Sequence: uint64(j.sent)}
	return ackedFuture{msg: msg, ok: ok}, nil
}

// ackedFuture is a publication already acknowledged.
type ackedFuture struct {
	msg *nats.Msg
	ok  chan *jetstream.PubAck
}

func (f ackedFuture) Ok() <-chan *jetstream.PubAck { return f.ok }
func (f ackedFuture) Err() <-chan error            { return nil }
func (f ackedFuture) Msg() *nats.Msg               { return f.msg }
