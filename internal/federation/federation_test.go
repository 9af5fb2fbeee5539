package federation_test

import (
	"context"
	"fmt"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arbiter/director"
	"arbiter/internal/federation"
	"arbiter/internal/federation/fedtest"
	"arbiter/internal/freeport"
	"arbiter/store"
)

var wall = time.Date(2026, 11, 21, 10, 0, 0, 0, time.UTC)

func freePort(t testing.TB) int {
	t.Helper()
	return freeport.Port(t)
}

// node is one embedded server with a client and its JetStream context.
type node struct {
	srv *server.Server
	nc  *nats.Conn
	js  jetstream.JetStream
	cfg federation.ServerConfig
}

func startNode(t testing.TB, cfg federation.ServerConfig) *node {
	t.Helper()
	s, err := federation.StartServer(cfg)
	require.NoError(t, err)
	var opts []nats.Option
	if cfg.LocalPassword != "" {
		opts = append(opts, nats.UserInfo(federation.LocalUser, cfg.LocalPassword))
	}
	nc, err := nats.Connect(s.ClientURL(), opts...)
	require.NoError(t, err)
	js, err := jetstream.New(nc)
	require.NoError(t, err)
	n := &node{srv: s, nc: nc, js: js, cfg: cfg}
	t.Cleanup(n.stop)
	return n
}

func (n *node) stop() {
	n.nc.Close()
	n.srv.Shutdown()
	n.srv.WaitForShutdown()
}

// topology is a hub server and hall servers joined to it as leaf nodes,
// each with its own JetStream domain; the hub stream sources the halls.
type topology struct {
	hub   *node
	halls map[string]*node
	// links are the halls' leaf node links to the hub, which a test can
	// cut and restore.
	links map[string]*link
}

// link is a hall's leaf node link to the hub, which a test can cut and
// restore (fedtest.Link).
type link struct{ *fedtest.Link }

func newLink(t testing.TB, target string) *link { return &link{fedtest.NewLink(t, target)} }

// cut closes the link.
func (l *link) cut() { l.Cut() }

// restore opens the link again, on the same address.
func (l *link) restore() { l.Restore() }

func startTopology(t testing.TB, halls ...string) *topology {
	t.Helper()
	dir := t.TempDir()
	leaf := freePort(t)
	top := &topology{halls: map[string]*node{}, links: map[string]*link{}}
	top.hub = startNode(t, federation.ServerConfig{Name: "hub", Listen: "127.0.0.1:0", Domain: "hub",
		StoreDir: filepath.Join(dir, "hub"), LeafListen: "127.0.0.1:" + strconv.Itoa(leaf)})
	var sources []federation.Hall
	for _, h := range halls {
		top.links[h] = newLink(t, "127.0.0.1:"+strconv.Itoa(leaf))
		n := startNode(t, federation.ServerConfig{Name: h, Listen: "127.0.0.1:0", Domain: h,
			StoreDir:    filepath.Join(dir, h),
			LeafRemotes: []string{"nats-leaf://" + top.links[h].Addr()}})
		top.halls[h] = n
		sources = append(sources, federation.Hall{Name: h, Domain: h})
	}
	require.Eventually(t, func() bool { return top.hub.srv.NumLeafNodes() == len(halls) }, 10*time.Second, 20*time.Millisecond)
	ctx := context.Background()
	for h, n := range top.halls {
		require.NoError(t, federation.EnsureHallStream(ctx, n.js, h))
	}
	require.NoError(t, federation.EnsureHubStream(ctx, top.hub.js, sources))
	return top
}

// event is a round-robin of four players over three rounds; board 1 is
// played in hall east, board 2 in hall west.
var pairings = [][2][2]int{{{1, 2}, {3, 4}}, {{3, 1}, {4, 2}}, {{1, 4}, {2, 3}}}
var results = [][2]string{{"1-0", "1/2-1/2"}, {"0-1", "1-0"}, {"1/2-1/2", "0-1"}}

func setupEvent(t testing.TB, db *store.DB) uint64 {
	t.Helper()
	tr := store.Tournament{Name: "Federated open", Game: "chess", System: "round-robin", Rounds: 3,
		TieBreaks: []string{"SB"}, Created: wall}
	require.NoError(t, db.CreateTournament(&tr))
	for i, name := range []string{"Ivanov", "Petrov", "Sidorov", "Smirnov"} {
		require.NoError(t, db.PutPlayer(&store.Player{TournamentID: tr.ID, ID: i + 1, Name: name, Rating: 2000 - 10*i}))
	}
	for r, ps := range pairings {
		round := store.Round{TournamentID: tr.ID, Number: r + 1, PairedAt: wall}
		for b, p := range ps {
			round.Pairings = append(round.Pairings, store.Pairing{Board: b + 1, First: p[0], Second: p[1]})
		}
		require.NoError(t, db.PutRound(&round))
	}
	return tr.ID
}

func openDB(t testing.TB, path string) *store.DB {
	t.Helper()
	db, err := store.Open(path, nil)
	require.NoError(t, err)
	t.Cleanup(func() { db.Close() })
	return db
}

// startGame creates the game of a board in a hall's store, linked to its
// pairing as the director does.
func startGame(t testing.TB, db *store.DB, tid uint64, round, board int) store.Game {
	t.Helper()
	p := pairings[round-1][board-1]
	g := store.Game{TournamentID: tid, Round: round, BoardNo: board, Game: "chess", First: strconv.Itoa(p[0]),
		Second: strconv.Itoa(p[1]), FirstID: p[0], SecondID: p[1], Started: wall.Add(time.Duration(round) * time.Hour)}
	require.NoError(t, db.CreateGame(&g))
	rs, err := db.Rounds(tid)
	require.NoError(t, err)
	r := rs[round-1]
	r.Pairings[board-1].GameID = g.ID
	require.NoError(t, db.PutRound(&r))
	return g
}

func playMoves(t testing.TB, db *store.DB, g store.Game, from, to int) {
	t.Helper()
	for ply := from; ply <= to; ply++ {
		m := store.Move{GameID: g.ID, Ply: ply, Notation: fmt.Sprintf("m%d", ply), Canonical: fmt.Sprintf("c%d", ply),
			Position: fmt.Sprintf("g%d-p%d", g.ID, ply), BoardMs: int64(ply) * 1500, HostNs: int64(ply) * 15e8,
			Wall: g.Started.Add(time.Duration(ply) * time.Second), ClockFirst: 90*time.Minute - time.Duration(ply)*time.Second,
			ClockSecond: 90*time.Minute - time.Duration(ply)*time.Second, Used: time.Second}
		require.NoError(t, db.AppendMove(&m))
	}
}

func finish(t testing.TB, db *store.DB, g store.Game, result string) {
	t.Helper()
	require.NoError(t, db.SetResult(g.ID, result, "agreement", g.Started.Add(time.Hour), nil))
}

// hubMoves returns the moves of the hub's game of a board.
func hubMoves(t testing.TB, hub *store.DB, tid uint64, round, board int) []store.Move {
	t.Helper()
	rs, err := hub.Rounds(tid)
	require.NoError(t, err)
	id := rs[round-1].Pairings[board-1].GameID
	if id == 0 {
		return nil
	}
	ms, err := hub.Moves(id)
	require.NoError(t, err)
	return ms
}

func startInbox(t testing.TB, ctx context.Context, hub *store.DB, js jetstream.JetStream, durable string) func() {
	t.Helper()
	in := &federation.Inbox{DB: hub, JS: js, Durable: durable}
	stop, err := in.Start(ctx)
	require.NoError(t, err)
	t.Cleanup(stop)
	return stop
}

func TestFederatedEventReachesHubOnceInOrder(t *testing.T) {
	ctx := t.Context()
	top := startTopology(t, "east", "west")
	dir := t.TempDir()
	hub := openDB(t, filepath.Join(dir, "hub.db"))
	ref := openDB(t, filepath.Join(dir, "one-daemon.db"))
	tid := setupEvent(t, hub)
	require.Equal(t, tid, setupEvent(t, ref))
	hallName := []string{"east", "west"}
	halls := map[string]*store.DB{}
	outboxes := map[string]*federation.Outbox{}
	for _, h := range hallName {
		halls[h] = openDB(t, filepath.Join(dir, h+".db"))
		require.Equal(t, tid, setupEvent(t, halls[h]))
		outboxes[h] = &federation.Outbox{DB: halls[h], JS: top.halls[h].js, Hall: h, Poll: 20 * time.Millisecond}
		go outboxes[h].Run(ctx) //nolint:errcheck // ends with ctx
	}
	startInbox(t, ctx, hub, top.hub.js, "")

	for r := 1; r <= 3; r++ {
		for b, h := range hallName {
			plies := 10 + 7*r + b
			g := startGame(t, halls[h], tid, r, b+1)
			playMoves(t, halls[h], g, 1, plies)
			outboxes[h].Notify()
			finish(t, halls[h], g, results[r-1][b])
			outboxes[h].Notify()
			rg := startGame(t, ref, tid, r, b+1)
			playMoves(t, ref, rg, 1, plies)
			finish(t, ref, rg, results[r-1][b])
		}
	}
	want, err := director.Reports{DB: ref}.Standings(tid)
	require.NoError(t, err)
	require.Eventually(t, func() bool {
		got, err := director.Reports{DB: hub}.Standings(tid)
		return err == nil && assert.ObjectsAreEqual(want, got)
	}, 15*time.Second, 20*time.Millisecond, "the hub's standings equal one daemon's")

	for r := 1; r <= 3; r++ {
		for b := range hallName {
			ms := hubMoves(t, hub, tid, r, b+1)
			require.Len(t, ms, 10+7*r+b, "round %d board %d", r, b+1)
			for i, m := range ms {
				require.Equal(t, i+1, m.Ply)
				require.Equal(t, fmt.Sprintf("m%d", i+1), m.Notation)
			}
		}
	}
	gs, err := hub.Games()
	require.NoError(t, err)
	assert.Len(t, gs, 6, "each game once")
	alerts, err := hub.Alerts(false)
	require.NoError(t, err)
	assert.Empty(t, alerts)
}
