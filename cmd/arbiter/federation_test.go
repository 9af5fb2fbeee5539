package main

import (
	"context"
	"fmt"
	"log/slog"
	"net"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
	"github.com/stretchr/testify/require"

	"arbiter/director"
	"arbiter/internal/config"
	"arbiter/internal/federation"
	"arbiter/internal/freeport"
	"arbiter/store"
)

// A hall daemon with federation: its demo boards' moves reach its hall
// stream on the embedded NATS server as they are stored. (A hall plays the
// rounds its hub pairs: a hub without boards runs beside it.)
func TestServeHallPublishesMoves(t *testing.T) {
	cfg := fastDemo(t, 1, 40)
	addr := freeAddr(t)
	leaf := freeAddr(t)
	cfg.Federation = federation.Config{Role: federation.RoleHall, Hall: "east", Listen: addr, StoreDir: filepath.Join(t.TempDir(), "nats"),
		HubURL: "nats-leaf://" + leaf, FirstBoard: 1}
	hubCfg := fastDemo(t, 1, 40)
	hubCfg.Federation = federation.Config{Role: federation.RoleHub, Listen: freeAddr(t), StoreDir: filepath.Join(t.TempDir(), "nats-hub"),
		LeafListen: leaf, Halls: []string{"east"}}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	_, _, hubErr := startServe(t, ctx, hubCfg, false)
	// The hall links to a hub that is listening: a leaf link refused at
	// first is retried on NATS's own back-off, which a loaded machine can
	// stretch past this test's patience (README: known limits).
	require.Eventually(t, func() bool {
		c, err := net.DialTimeout("tcp", leaf, time.Second)
		if err == nil {
			c.Close()
		}
		return err == nil
	}, time.Minute, 50*time.Millisecond, "the hub does not listen for its halls")
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
	require.NoError(t, <-hubErr)
}

// freeAddr is a loopback address nobody listens on.
func freeAddr(t *testing.T) string {
	t.Helper()
	return freeport.Addr(t)
}

// federatedSwiss is the demo's chess Swiss alone, its 6 players over 3
// rounds, played with short games.
func federatedSwiss(t *testing.T) *config.Config {
	t.Helper()
	cfg := fastDemo(t, 3, 16)
	i := slices.IndexFunc(cfg.Tournaments, func(tc config.Tournament) bool {
		return tc.Game == "chess" && strings.HasPrefix(tc.System, "swiss")
	})
	require.GreaterOrEqual(t, i, 0, "the demo has a chess Swiss")
	cfg.Tournaments = cfg.Tournaments[i : i+1]
	require.Len(t, cfg.Tournaments[0].Players, 6)
	require.True(t, cfg.Tournaments[0].AutoPair)
	return cfg
}

// federationCfgs returns the configurations of a hub and its halls for one
// Swiss (federatedSwiss) in dir: the hub listens for the halls' leaf
// links at leaf, each hall with a password of its own, and hall i plays
// boards boards from board i*boards+1 (boards 0: the demo's boards, from
// board 1).
func federationCfgs(t *testing.T, dir, leaf string, halls []string, boards int) (*config.Config, map[string]*config.Config) {
	t.Helper()
	hub := federatedSwiss(t)
	hub.Federation = federation.Config{Role: federation.RoleHub, Listen: freeAddr(t), StoreDir: filepath.Join(dir, "nats-hub"),
		LeafListen: leaf, Halls: halls, HallPasswords: map[string]string{}}
	hallCfg := map[string]*config.Config{}
	for i, h := range halls {
		hub.Federation.HallPasswords[h] = "secret-of-" + h
		cfg := federatedSwiss(t)
		first := 1
		if boards > 0 {
			cfg.Demo.Boards, first = boards, i*boards+1
		}
		cfg.Federation = federation.Config{Role: federation.RoleHall, Hall: h, Listen: freeAddr(t), StoreDir: filepath.Join(dir, "nats-"+h),
			HubURL: hallURL(h, leaf), FirstBoard: first}
		hallCfg[h] = cfg
	}
	return hub, hallCfg
}

// hallURL is where hall h reaches the hub's leaf node at addr, with its
// password.
func hallURL(h, addr string) string {
	return fmt.Sprintf("nats-leaf://%s:secret-of-%s@%s", h, h, addr)
}

// A Swiss played through arbiter serve in three halls, one board each,
// paired by a hub that has no boards: every round reaches every hall, each
// hall plays its board, and the hub's standings and TRF are those one
// daemon computes from the same games.
func TestFederationSwissThroughServe(t *testing.T) {
	if testing.Short() {
		t.Skip("plays a whole Swiss in four daemons")
	}
	t.Parallel()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	dir := t.TempDir()
	leaf := freeAddr(t)
	halls := []string{"east", "west", "north"}

	hubCfg, hallCfg := federationCfgs(t, dir, leaf, halls, 1)
	hallErr := map[string]<-chan error{}
	hallCtx, stopHalls := context.WithCancel(ctx)
	defer stopHalls()
	_, hubOut, hubErr := startServe(t, ctx, hubCfg, true)
	for _, h := range halls {
		_, _, hallErr[h] = startServe(t, hallCtx, hallCfg[h], false)
	}
	select {
	case err := <-hubErr:
		require.NoError(t, err)
	case <-ctx.Done():
		t.Fatalf("the hub did not see the Swiss to its end:\n%s", hubOut.String())
	}
	require.Contains(t, hubOut.String(), "every tournament is complete")
	require.NotContains(t, hubOut.String(), "demo:", "the hub runs no boards")
	stopHalls()
	for _, h := range halls {
		require.NoError(t, <-hallErr[h], "hall %s", h)
	}

	requireHubIsOneDaemon(t, hubCfg, hallCfg, halls, dir)
}

// requireHubIsOneDaemon checks a federated Swiss that ended (its daemons
// stopped), played in halls whose hall i plays board i+1: every hall has
// every round the hub paired, the hub has each hall's moves once and in
// order and its results, and the hub's standings and TRF are those one
// daemon computes from the same games (in a store it makes in dir).
func requireHubIsOneDaemon(t *testing.T, hubCfg *config.Config, hallCfg map[string]*config.Config, halls []string, dir string) {
	t.Helper()
	hub, err := store.Open(hubCfg.Event.Database, nil)
	require.NoError(t, err)
	defer hub.Close()
	ts, err := hub.Tournaments()
	require.NoError(t, err)
	require.Len(t, ts, 1)
	tid := ts[0].ID
	hubRounds, err := hub.Rounds(tid)
	require.NoError(t, err)
	require.Len(t, hubRounds, hubCfg.Tournaments[0].Rounds)

	// One daemon's store of the same event: the hub's pairings and every
	// hall's games of them, as a single hall would have stored them.
	ref, err := store.Open(filepath.Join(dir, "one-daemon.db"), nil)
	require.NoError(t, err)
	defer ref.Close()
	_, err = director.New(directorConfig(hubCfg), ref, slog.New(slog.DiscardHandler))
	require.NoError(t, err)
	for _, r := range hubRounds {
		rr := r
		rr.Pairings = nil
		for _, p := range r.Pairings {
			if p.Second == 0 {
				rr.Pairings = append(rr.Pairings, p)
				continue
			}
			p.GameID, p.Result = 0, ""
			rr.Pairings = append(rr.Pairings, p)
		}
		require.NoError(t, ref.PutRound(&rr))
	}
	for i, h := range halls {
		db, err := store.Open(hallCfg[h].Event.Database, nil)
		require.NoError(t, err)
		rounds, err := db.Rounds(tid)
		require.NoError(t, err)
		require.Len(t, rounds, len(hubRounds), "hall %s has every round", h)
		for r, round := range rounds {
			hubRound := hubRounds[r]
			require.Len(t, round.Pairings, len(hubRound.Pairings), "hall %s round %d", h, r+1)
			for b, p := range round.Pairings {
				hp := hubRound.Pairings[b]
				require.Equal(t, [3]int{hp.Board, hp.First, hp.Second}, [3]int{p.Board, p.First, p.Second}, "hall %s round %d", h, r+1)
				if p.Board != i+1 {
					require.Zero(t, p.GameID, "hall %s plays only board %d", h, i+1)
					continue
				}
				require.NotZero(t, p.GameID, "hall %s round %d board %d", h, r+1, p.Board)
				g, err := db.Game(p.GameID)
				require.NoError(t, err)
				moves, err := db.Moves(g.ID)
				require.NoError(t, err)
				hg, err := hub.Game(hp.GameID)
				require.NoError(t, err)
				hubMoves, err := hub.Moves(hg.ID)
				require.NoError(t, err)
				require.Equal(t, notations(moves), notations(hubMoves), "hall %s round %d: the hub has each move once, in order", h, r+1)
				require.Equal(t, g.Result, hg.Result)
				require.NotEmpty(t, g.Result)
				t.Logf("hall %s round %d board %d: %d moves, %s", h, r+1, p.Board, len(moves), g.Result)

				rg := g
				rg.ID, rg.RawFrom = 0, 0
				rg.Result, rg.Reason, rg.Ended = "", "", time.Time{}
				require.NoError(t, ref.CreateGame(&rg))
				refRounds, err := ref.Rounds(tid)
				require.NoError(t, err)
				rr := refRounds[r]
				rr.Pairings[b].GameID = rg.ID
				require.NoError(t, ref.PutRound(&rr))
				for _, m := range moves {
					m.GameID = rg.ID
					require.NoError(t, ref.AppendMove(&m))
				}
				require.NoError(t, ref.SetResult(rg.ID, g.Result, g.Reason, g.Ended, nil))
			}
		}
		require.NoError(t, db.Close())
	}
	want, err := director.Reports{DB: ref}.Standings(tid)
	require.NoError(t, err)
	got, err := director.Reports{DB: hub}.Standings(tid)
	require.NoError(t, err)
	require.Equal(t, want, got, "the hub's standings are one daemon's")
	wantTRF, err := director.Reports{DB: ref}.TRF(tid)
	require.NoError(t, err)
	gotTRF, err := director.Reports{DB: hub}.TRF(tid)
	require.NoError(t, err)
	require.Equal(t, wantTRF, gotTRF, "the hub's TRF is one daemon's")
}

func notations(ms []store.Move) []string {
	out := make([]string, len(ms))
	for i, m := range ms {
		out[i] = m.Notation
	}
	return out
}

// The hub's arbiter resolving a hall's alert resolves it in the hall,
// audited there as the hub arbiter's action; again, it is harmless; an
// alert the hall does not have is an error.
func TestFederationHubCommandInHall(t *testing.T) {
	cfg := fastDemo(t, 1, 10)
	db, err := store.Open(cfg.Event.Database, nil)
	require.NoError(t, err)
	defer db.Close()
	d, err := director.New(directorConfig(cfg), db, slog.New(slog.DiscardHandler))
	require.NoError(t, err)
	a := &store.Alert{Kind: "illegal-move", Message: "not legal", At: time.Now(), BoardID: "B1"}
	require.NoError(t, db.AddAlert(a))
	cmd := federation.Command{What: federation.CmdResolveAlert, Alert: a.ID, Who: "chief", Why: "the player was warned"}
	require.NoError(t, hubCommand(d, cmd))
	open, err := db.Alerts(true)
	require.NoError(t, err)
	require.Empty(t, open)
	acts, err := db.Actions(0)
	require.NoError(t, err)
	require.Len(t, acts, 1)
	require.Equal(t, [3]string{"chief (hub)", "resolve-alert", "the player was warned"}, [3]string{acts[0].Who, acts[0].What, acts[0].Why})
	require.NoError(t, hubCommand(d, cmd), "a resolved alert stays resolved")
	cmd.Alert = 99
	require.ErrorContains(t, hubCommand(d, cmd), "alert 99, which this hall does not have")
}
