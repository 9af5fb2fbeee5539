package broadcast_test

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arbiter/director"
	"arbiter/internal/broadcast"
	"arbiter/internal/config"
	_ "arbiter/rules/chess"
	"arbiter/store"
)

var started = time.Date(2026, 11, 21, 10, 0, 0, 0, time.UTC)

// received is what the test endpoint got.
type received struct {
	path, auth, contentType, body string
}

// endpoint is a lichess-like push endpoint that refuses the first fail
// requests with 503.
type endpoint struct {
	mu   sync.Mutex
	got  []received
	fail int
	srv  *httptest.Server
}

func newEndpoint(t *testing.T, fail int) *endpoint {
	e := &endpoint{fail: fail}
	e.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		e.mu.Lock()
		defer e.mu.Unlock()
		if r.Method != http.MethodPost {
			http.Error(w, "POST only", http.StatusMethodNotAllowed)
			return
		}
		if e.fail > 0 {
			e.fail--
			http.Error(w, "busy", http.StatusServiceUnavailable)
			return
		}
		e.got = append(e.got, received{r.URL.Path, r.Header.Get("Authorization"), r.Header.Get("Content-Type"), string(b)})
		_, _ = io.WriteString(w, `{"moves":1}`)
	}))
	t.Cleanup(e.srv.Close)
	return e
}

func (e *endpoint) received() []received {
	e.mu.Lock()
	defer e.mu.Unlock()
	return append([]received(nil), e.got...)
}

// waitFor polls until ok or fails the test after a few seconds.
func waitFor(t *testing.T, what string, ok func() bool) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for !ok() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// round is an event database with a chess tournament and round 1 paired
// on one board, its game started.
func round(t *testing.T) (*store.DB, store.Game) {
	db, err := store.Open(filepath.Join(t.TempDir(), "event.db"), nil)
	require.NoError(t, err)
	t.Cleanup(func() { db.Close() })
	tour := &store.Tournament{Name: "Open", Game: "chess", System: "round-robin", Rounds: 3, TimeControl: "90m+30s", Created: started}
	require.NoError(t, db.CreateTournament(tour))
	g := &store.Game{TournamentID: tour.ID, Round: 1, BoardNo: 1, Game: "chess", TimeControl: tour.TimeControl,
		First: "Ann", Second: "Bob", FirstID: 1, SecondID: 2, Started: started}
	require.NoError(t, db.CreateGame(g))
	require.NoError(t, db.PutRound(&store.Round{TournamentID: tour.ID, Number: 1, PairedAt: started,
		Pairings: []store.Pairing{{Board: 1, First: 1, Second: 2, GameID: g.ID}}}))
	return db, *g
}

func appendMove(t *testing.T, db *store.DB, g store.Game, ply int, canonical, notation string) {
	left := 90*time.Minute - time.Duration(ply)*time.Minute
	require.NoError(t, db.AppendMove(&store.Move{GameID: g.ID, Ply: ply, Canonical: canonical, Notation: notation,
		Wall: started.Add(time.Duration(ply) * time.Minute), ClockFirst: left, ClockSecond: left, Used: time.Minute}))
}

func pusher(t *testing.T, db *store.DB, url string) *broadcast.Pusher {
	p, err := broadcast.New(db, "Push test", []config.Push{{URL: url, Tournament: "Open", Token: "lip_secret"}}, nil)
	require.NoError(t, err)
	p.Interval = 50 * time.Millisecond
	p.Backoff = 10 * time.Millisecond
	return p
}

func TestPushSendsEveryChangeOfTheRound(t *testing.T) {
	db, g := round(t)
	ep := newEndpoint(t, 0)
	p := pusher(t, db, ep.srv.URL+"/api/broadcast/round/R{round}/push")
	hub := director.NewHub()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error)
	go func() { done <- p.Run(ctx, hub.Subscribe) }()
	defer func() { cancel(); require.NoError(t, <-done) }()

	// On start: the round as it is.
	waitFor(t, "the first push", func() bool { return len(ep.received()) == 1 })
	first := ep.received()[0]
	assert.Equal(t, "/api/broadcast/round/R1/push", first.path)
	assert.Equal(t, "Bearer lip_secret", first.auth)
	assert.Equal(t, "text/plain; charset=utf-8", first.contentType)
	assert.Contains(t, first.body, `[Round "1.1"]`)
	assert.Contains(t, first.body, `[Board "1"]`)
	assert.Contains(t, first.body, "[White \"Ann\"]")

	// A move arrives: the round is pushed again with it and its clock.
	appendMove(t, db, g, 1, "e2e4", "e4")
	hub.Publish(director.Update{Kind: "move", Game: g.ID, At: started})
	waitFor(t, "the push of e4", func() bool { return len(ep.received()) == 2 })
	assert.Contains(t, ep.received()[1].body, "1. e4 {[%clk 1:29:00]} *")

	// Updates that change nothing in the record send nothing.
	hub.Publish(director.Update{Kind: "clock", Game: g.ID, At: started})
	time.Sleep(4 * p.Interval)
	assert.Len(t, ep.received(), 2, "an unchanged round is not sent again")
	// A burst of moves goes out as at most a few pushes, the last with all.
	for i, m := range [][2]string{{"e7e5", "e5"}, {"g1f3", "Nf3"}, {"b8c6", "Nc6"}} {
		appendMove(t, db, g, i+2, m[0], m[1])
		hub.Publish(director.Update{Kind: "move", Game: g.ID, At: started})
	}
	waitFor(t, "the push of Nc6", func() bool {
		got := ep.received()
		return strings.Contains(strings.Join(strings.Fields(got[len(got)-1].body), " "), "2. Nf3 {[%clk 1:27:00]} 2... Nc6 {[%clk 1:26:00]} *")
	})
	assert.LessOrEqual(t, len(ep.received()), 4, "the burst is debounced")

	// The result.
	require.NoError(t, db.SetResult(g.ID, "1-0", "Resignation", started.Add(time.Hour), nil))
	hub.Publish(director.Update{Kind: "result", Game: g.ID, At: started})
	waitFor(t, "the push of the result", func() bool {
		got := ep.received()
		return strings.HasSuffix(strings.TrimSpace(got[len(got)-1].body), "1-0")
	})
	for _, r := range ep.received() {
		assert.Equal(t, "Bearer lip_secret", r.auth)
	}
}

func TestPushRetriesWithoutBlocking(t *testing.T) {
	db, g := round(t)
	ep := newEndpoint(t, 3)
	p := pusher(t, db, ep.srv.URL+"/r/{round}")
	hub := director.NewHub()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error)
	go func() { done <- p.Run(ctx, hub.Subscribe) }()
	defer func() { cancel(); require.NoError(t, <-done) }()

	// While the endpoint refuses, moves keep coming: publishing never waits.
	waitFor(t, "the subscription", func() bool { return hub.Subscribers() == 1 })
	appendMove(t, db, g, 1, "d2d4", "d4")
	for range 1000 {
		hub.Publish(director.Update{Kind: "clock", Game: g.ID, At: started})
	}
	hub.Publish(director.Update{Kind: "move", Game: g.ID, At: started})
	waitFor(t, "a push after the refusals", func() bool { return len(ep.received()) > 0 })
	waitFor(t, "the push of d4", func() bool {
		got := ep.received()
		return strings.Contains(got[len(got)-1].body, "1. d4 ")
	})
	assert.Equal(t, "/r/1", ep.received()[0].path)
}

func TestNewRefusesWhatItCannotPush(t *testing.T) {
	db, _ := round(t)
	_, err := broadcast.New(db, "x", []config.Push{{URL: "http://127.0.0.1/{round}", Tournament: "Closed"}}, nil)
	require.ErrorIs(t, err, store.ErrNotFound)
	assert.Contains(t, err.Error(), `"Closed"`)
	_, err = broadcast.New(db, "x", []config.Push{{URL: "http://127.0.0.1/{round}", Tournament: "Open", Format: "kif"}}, nil)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "broadcast.push[0].format")
	p, err := broadcast.New(db, "x", []config.Push{{URL: "http://127.0.0.1/{round}", Tournament: "Open"}}, nil)
	require.NoError(t, err)
	assert.Equal(t, "pgn", p.Targets()[0].Format, "the game's usual format")
}
