package broadcast_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/testutil"
	"github.com/prometheus/common/expfmt"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arbiter/director"
	"arbiter/internal/broadcast"
	_ "arbiter/rules/chess"
	"arbiter/store"
)

var started = time.Date(2026, 11, 21, 10, 0, 0, 0, time.UTC)

// request is one request the test endpoint got, answered or not.
type request struct {
	at                      time.Time
	path, auth, contentType string
	body                    string
	status                  int // 0: the endpoint was down
	retryAfter              string
}

// answer is how the endpoint answers at an instant: a status (0: it is
// down, the connection is refused) and a Retry-After header.
type answer func(now time.Time) (status int, retryAfter string)

func healthy(time.Time) (int, string) { return http.StatusOK, "" }

// endpoint is a lichess-like push endpoint, reached through the client's
// transport (in memory, so that it runs on synctest's clock).
type endpoint struct {
	mu     sync.Mutex
	got    []request
	answer answer
}

func newEndpoint(a answer) *endpoint { return &endpoint{answer: a} }

func (e *endpoint) RoundTrip(r *http.Request) (*http.Response, error) {
	b, err := io.ReadAll(r.Body)
	if err != nil {
		return nil, err
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	status, ra := http.StatusMethodNotAllowed, ""
	if r.Method == http.MethodPost {
		status, ra = e.answer(time.Now())
	}
	e.got = append(e.got, request{at: time.Now(), path: r.URL.Path, auth: r.Header.Get("Authorization"),
		contentType: r.Header.Get("Content-Type"), body: string(b), status: status, retryAfter: ra})
	if status == 0 {
		return nil, errors.New("dial tcp 192.0.2.1:443: connect: connection refused")
	}
	h := http.Header{}
	if ra != "" {
		h.Set("Retry-After", ra)
	}
	msg := `{"moves":1}`
	if status != http.StatusOK {
		msg = http.StatusText(status)
	}
	return &http.Response{StatusCode: status, Status: fmt.Sprintf("%d %s", status, http.StatusText(status)),
		Header: h, Body: io.NopCloser(strings.NewReader(msg)), Request: r}, nil
}

// requests returns every request so far.
func (e *endpoint) requests() []request {
	e.mu.Lock()
	defer e.mu.Unlock()
	return append([]request(nil), e.got...)
}

// accepted returns the bodies the endpoint accepted, by path.
func (e *endpoint) accepted() map[string][]string {
	out := map[string][]string{}
	for _, r := range e.requests() {
		if r.status == http.StatusOK {
			out[r.path] = append(out[r.path], r.body)
		}
	}
	return out
}

// last returns the last body path accepted, "" if none.
func (e *endpoint) last(path string) string {
	got := e.accepted()[path]
	if len(got) == 0 {
		return ""
	}
	return got[len(got)-1]
}

// event is an event database with a chess round robin, its round 1
// paired on one board and its game started.
type event struct {
	db   *store.DB
	tour uint64
}

func newEvent(t *testing.T, dir string) (event, store.Game) {
	db, err := store.Open(filepath.Join(dir, "event.db"), nil)
	require.NoError(t, err)
	t.Cleanup(func() { db.Close() })
	tour := &store.Tournament{Name: "Open", Game: "chess", System: "round-robin", Rounds: 3, TimeControl: "90m+30s", Created: started}
	require.NoError(t, db.CreateTournament(tour))
	e := event{db, tour.ID}
	return e, e.pair(t, 1)
}

// pair pairs round n on one board, Ann against Bob, and starts its game.
func (e event) pair(t *testing.T, n int) store.Game {
	g := &store.Game{TournamentID: e.tour, Round: n, BoardNo: 1, Game: "chess", TimeControl: "90m+30s",
		First: "Ann", Second: "Bob", FirstID: 1, SecondID: 2, Started: started}
	require.NoError(t, e.db.CreateGame(g))
	require.NoError(t, e.db.PutRound(&store.Round{TournamentID: e.tour, Number: n, PairedAt: started,
		Pairings: []store.Pairing{{Board: 1, First: 1, Second: 2, GameID: g.ID}}}))
	return *g
}

func (e event) move(t *testing.T, g store.Game, ply int, canonical, notation string) {
	left := 90*time.Minute - time.Duration(ply)*time.Minute
	require.NoError(t, e.db.AppendMove(&store.Move{GameID: g.ID, Ply: ply, Canonical: canonical, Notation: notation,
		Wall: started.Add(time.Duration(ply) * time.Minute), ClockFirst: left, ClockSecond: left, Used: time.Minute}))
}

func (e event) result(t *testing.T, g store.Game, result string) {
	require.NoError(t, e.db.SetResult(g.ID, result, "Resignation", started.Add(time.Hour), nil))
}

// pusher pushes every round of "Open" to ep, with the README's interval
// of 2 s and the jitter drawn from half the pause.
func pusher(t *testing.T, db *store.DB, ep *endpoint) *broadcast.Pusher {
	p, err := broadcast.New(db, "Push test", []broadcast.Push{{URL: "https://lichess.test/api/broadcast/round/R{round}/push", Tournament: "Open", Token: "lip_secret"}}, nil)
	require.NoError(t, err)
	p.Client = &http.Client{Transport: ep}
	p.Rand = func() float64 { return 0.5 }
	return p
}

// running is a pusher's Run in the background.
type running struct {
	hub    *director.Hub
	cancel context.CancelFunc
	done   chan error
}

func run(p *broadcast.Pusher) *running {
	r := &running{hub: director.NewHub(), done: make(chan error, 1)}
	ctx, cancel := context.WithCancel(context.Background())
	r.cancel = cancel
	go func() { r.done <- p.Run(ctx, r.hub.Subscribe) }()
	return r
}

// stop ends Run and waits for it.
func (r *running) stop(t *testing.T) {
	r.cancel()
	require.NoError(t, <-r.done)
}

// publish tells the pusher about a change, as the director does.
func (r *running) publish(kind string, g store.Game) {
	r.hub.Publish(director.Update{Kind: kind, Game: g.ID, At: started})
}

const round1, round2 = "/api/broadcast/round/R1/push", "/api/broadcast/round/R2/push"

func TestPushSendsEveryChangeOfTheRound(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		ev, g := newEvent(t, t.TempDir())
		ep := newEndpoint(healthy)
		r := run(pusher(t, ev.db, ep))
		defer r.stop(t)

		// On start: the round as it is.
		synctest.Wait()
		got := ep.requests()
		require.Len(t, got, 1)
		assert.Equal(t, round1, got[0].path)
		assert.Equal(t, "Bearer lip_secret", got[0].auth)
		assert.Equal(t, "text/plain; charset=utf-8", got[0].contentType)
		assert.Contains(t, got[0].body, `[Round "1.1"]`)
		assert.Contains(t, got[0].body, `[Board "1"]`)
		assert.Contains(t, got[0].body, `[White "Ann"]`)

		// A move arrives: the round is pushed again with it and its clock,
		// once the interval since the last push has passed.
		ev.move(t, g, 1, "e2e4", "e4")
		r.publish("move", g)
		time.Sleep(2 * time.Second)
		synctest.Wait()
		require.Len(t, ep.requests(), 2)
		assert.Contains(t, ep.last(round1), "1. e4 {[%clk 1:29:00]} *")

		// Updates that change nothing in the record send nothing.
		r.publish("clock", g)
		time.Sleep(10 * time.Second)
		assert.Len(t, ep.requests(), 2, "an unchanged round is not sent again")

		// A burst of moves goes out as two pushes: the first move at once,
		// the rest together once the interval has passed.
		// The pusher has taken the first move before the next two come in
		// (synctest.Wait): without it the scheduler may let all three be
		// stored first, and one push of all three is right too.
		for i, m := range [][2]string{{"e7e5", "e5"}, {"g1f3", "Nf3"}, {"b8c6", "Nc6"}} {
			ev.move(t, g, i+2, m[0], m[1])
			r.publish("move", g)
			if i == 0 {
				synctest.Wait()
				require.Len(t, ep.requests(), 3, "the first move of the burst goes out at once")
			}
		}
		time.Sleep(2 * time.Second)
		synctest.Wait()
		require.Len(t, ep.requests(), 4, "the burst is two pushes")
		assert.Contains(t, strings.Join(strings.Fields(ep.last(round1)), " "), "2. Nf3 {[%clk 1:27:00]} 2... Nc6 {[%clk 1:26:00]} *")

		// The result.
		ev.result(t, g, "1-0")
		r.publish("result", g)
		time.Sleep(2 * time.Second)
		synctest.Wait()
		assert.True(t, strings.HasSuffix(strings.TrimSpace(ep.last(round1)), "1-0"))
		for _, q := range ep.requests() {
			assert.Equal(t, "Bearer lip_secret", q.auth)
		}
	})
}

func TestPushRetriesWithoutBlocking(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		ev, g := newEvent(t, t.TempDir())
		begin := time.Now()
		ep := newEndpoint(func(now time.Time) (int, string) {
			if now.Sub(begin) < 10*time.Second {
				return http.StatusServiceUnavailable, ""
			}
			return http.StatusOK, ""
		})
		r := run(pusher(t, ev.db, ep))
		defer r.stop(t)

		// While the endpoint refuses, moves keep coming: publishing never
		// waits.
		synctest.Wait()
		require.Equal(t, 1, r.hub.Subscribers())
		ev.move(t, g, 1, "d2d4", "d4")
		for range 1000 {
			r.publish("clock", g)
		}
		r.publish("move", g)
		time.Sleep(time.Minute)
		synctest.Wait()
		assert.Contains(t, ep.last(round1), "1. d4 ")
		assert.Equal(t, 1, r.hub.Subscribers(), "the pusher kept up")
	})
}

// An outage of the endpoint around the end of a round: round 1 ends and
// round 2 is paired, played and ends while the endpoint answers 429 with
// Retry-After, then 500, then is down, for 40 s in all. Once it is back,
// both rounds reach their final state within the capped backoff; no
// round is sent twice within 2 s, none before the Retry-After it was
// given, and the metrics show it all.
func TestPushOutageAroundTheEndOfARound(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		ev, g1 := newEvent(t, t.TempDir())
		begin := time.Now()
		// The outage: 429 (Retry-After: 7) from 10 s, 500 from 20 s,
		// down from 30 s; healthy again at 50 s.
		ep := newEndpoint(func(now time.Time) (int, string) {
			switch at := now.Sub(begin); {
			case at < 10*time.Second || at >= 50*time.Second:
				return http.StatusOK, ""
			case at < 20*time.Second:
				return http.StatusTooManyRequests, "7"
			case at < 30*time.Second:
				return http.StatusInternalServerError, ""
			default:
				return 0, ""
			}
		})
		p := pusher(t, ev.db, ep)
		p.Rand = func() float64 { return 0.999 } // the longest pauses
		r := run(p)
		at := func(d time.Duration) { time.Sleep(time.Until(begin.Add(d))) }

		at(2 * time.Second)
		ev.move(t, g1, 1, "e2e4", "e4")
		r.publish("move", g1)
		at(11 * time.Second) // the 429s begin
		ev.move(t, g1, 2, "e7e5", "e5")
		r.publish("move", g1)
		at(15 * time.Second)
		ev.result(t, g1, "1-0") // round 1 ends
		r.publish("result", g1)
		at(20 * time.Second)
		g2 := ev.pair(t, 2) // round 2 starts
		r.hub.Publish(director.Update{Kind: "round", At: started})
		at(31 * time.Second) // down
		ev.move(t, g2, 1, "d2d4", "d4")
		r.publish("move", g2)
		at(45 * time.Second)
		ev.result(t, g2, "0-1") // the event ends
		r.publish("result", g2)

		// Healthy from 50 s: within the backoff's cap (30 s) and the
		// interval, both rounds have their final state.
		at(50*time.Second + broadcast.DefaultMaxBackoff + broadcast.DefaultInterval)
		synctest.Wait()
		assert.True(t, strings.HasSuffix(strings.TrimSpace(ep.last(round1)), "1-0"), "round 1's result:\n%s", ep.last(round1))
		assert.True(t, strings.HasSuffix(strings.TrimSpace(ep.last(round2)), "0-1"), "round 2's result:\n%s", ep.last(round2))
		assert.Empty(t, p.Pending())
		r.stop(t)
		for _, q := range ep.requests() {
			if q.status == http.StatusOK {
				assert.LessOrEqual(t, q.at.Sub(begin), 50*time.Second+broadcast.DefaultMaxBackoff,
					"%s accepted %v after the endpoint came back", q.path, q.at.Sub(begin)-50*time.Second)
			}
		}

		// No round was sent twice within the interval, nor before the
		// Retry-After of a 429.
		last := map[string]request{}
		for _, q := range ep.requests() {
			if prev, ok := last[q.path]; ok {
				gap := q.at.Sub(prev.at)
				assert.GreaterOrEqual(t, gap, broadcast.DefaultInterval, "%s sent %v after the last push", q.path, gap)
				if prev.status == http.StatusTooManyRequests {
					assert.GreaterOrEqual(t, gap, 7*time.Second, "%s sent %v after a 429 with Retry-After: 7", q.path, gap)
				}
			}
			last[q.path] = q
		}
		// Every failure was retried, and each kind was seen.
		statuses := map[int]int{}
		for _, q := range ep.requests() {
			statuses[q.status]++
		}
		assert.Positive(t, statuses[http.StatusTooManyRequests])
		assert.Positive(t, statuses[http.StatusInternalServerError])
		assert.Positive(t, statuses[0], "sends while the endpoint was down")

		m := p.Collector()
		const pushes = "arbiter_broadcast_pushes_total"
		assert.Equal(t, float64(statuses[http.StatusTooManyRequests]), metric(t, m, pushes, `status="429"`))
		assert.Equal(t, float64(statuses[http.StatusInternalServerError]), metric(t, m, pushes, `status="500"`))
		assert.Equal(t, float64(statuses[0]), metric(t, m, pushes, `status="error"`))
		assert.Equal(t, float64(len(ep.requests())), metric(t, m, pushes))
		assert.Positive(t, metric(t, m, pushes, `round="2"`, `status="200"`))
		assert.Equal(t, 0.0, metric(t, m, "arbiter_broadcast_rounds_pending", `tournament="Open"`))
		assert.InDelta(t, float64(time.Now().Unix()), metric(t, m, "arbiter_broadcast_last_success_timestamp_seconds", `tournament="Open"`), 35)
	})
}

// metric sums the samples of c named name whose labels hold every one
// of labels (`status="429"`).
func metric(t *testing.T, c prometheus.Collector, name string, labels ...string) float64 {
	t.Helper()
	out, err := testutil.CollectAndFormat(c, expfmt.TypeTextPlain, name)
	require.NoError(t, err)
	sum := 0.0
	for _, line := range strings.Split(string(out), "\n") {
		if !strings.HasPrefix(line, name) {
			continue
		}
		ok := true
		for _, l := range labels {
			ok = ok && strings.Contains(line, l)
		}
		if !ok {
			continue
		}
		f := strings.Fields(line)
		v, err := strconv.ParseFloat(f[len(f)-1], 64)
		require.NoError(t, err, line)
		sum += v
	}
	return sum
}

// The event's last result comes a moment after the round was last
// pushed, and the daemon stops at once (--exit-when-done, SIGTERM): Flush
// sends it, waiting out the interval.
func TestFlushSendsTheLastResult(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		ev, g := newEvent(t, t.TempDir())
		ep := newEndpoint(healthy)
		p := pusher(t, ev.db, ep)
		r := run(p)
		time.Sleep(time.Second)
		ev.move(t, g, 1, "e2e4", "e4")
		r.publish("move", g)
		time.Sleep(10 * time.Millisecond)
		ev.result(t, g, "1-0")
		r.publish("result", g)
		time.Sleep(3 * time.Millisecond)
		r.stop(t)
		require.NotContains(t, ep.last(round1), "1-0", "the result was not pushed before the stop")
		require.Len(t, p.Pending(), 1)

		ctx, cancel := context.WithTimeout(context.Background(), broadcast.DefaultFlushWait)
		defer cancel()
		start := time.Now()
		require.NoError(t, p.Flush(ctx))
		assert.True(t, strings.HasSuffix(strings.TrimSpace(ep.last(round1)), "1-0"), ep.last(round1))
		assert.LessOrEqual(t, time.Since(start), broadcast.DefaultInterval)
		assert.Empty(t, p.Pending())
	})
}

// A flush that cannot reach the endpoint gives up at its deadline and
// names every round not sent, with why.
func TestFlushNamesWhatWasNotSent(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		ev, g1 := newEvent(t, t.TempDir())
		ev.result(t, g1, "1-0")
		ev.pair(t, 2)
		ep := newEndpoint(func(time.Time) (int, string) { return http.StatusBadGateway, "" })
		p := pusher(t, ev.db, ep)
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		start := time.Now()
		err := p.Flush(ctx)
		assert.LessOrEqual(t, time.Since(start), 10*time.Second, "the wait is bounded")
		var unsent *broadcast.UnsentError
		require.ErrorAs(t, err, &unsent)
		require.Len(t, unsent.Rounds, 2)
		assert.Equal(t, 1, unsent.Rounds[0].Round)
		assert.Equal(t, 2, unsent.Rounds[1].Round)
		assert.Contains(t, err.Error(), `round 1 of "Open" to https://lichess.test/api/broadcast/round/R1/push (push to`)
		assert.Contains(t, err.Error(), "502 Bad Gateway")
		assert.Contains(t, err.Error(), `round 2 of "Open"`)
		assert.GreaterOrEqual(t, len(ep.requests()), 4, "each round was retried until the deadline")

		// A Retry-After beyond the deadline ends the flush at once.
		ep.mu.Lock()
		ep.answer = func(time.Time) (int, string) { return http.StatusTooManyRequests, "3600" }
		ep.mu.Unlock()
		ctx2, cancel2 := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel2()
		start = time.Now()
		require.ErrorAs(t, p.Flush(ctx2), &unsent)
		assert.Less(t, time.Since(start), 10*time.Second, "nothing could be sent before the deadline")
	})
}

// A daemon stopped while the endpoint was down goes on after a restart
// with every round not accepted, not only the latest; a round accepted
// before the restart is not sent again.
func TestRestartGoesOnWithEveryPendingRound(t *testing.T) {
	dir := t.TempDir()
	synctest.Test(t, func(t *testing.T) {
		ev, g1 := newEvent(t, dir)
		ep := newEndpoint(healthy)
		p := pusher(t, ev.db, ep)
		r := run(p)
		time.Sleep(time.Second)
		r.stop(t)
		require.Len(t, ep.requests(), 1, "round 1 as it began")

		// The endpoint goes down; round 1 ends, round 2 is played.
		ep.mu.Lock()
		ep.answer = func(time.Time) (int, string) { return 0, "" }
		ep.mu.Unlock()
		r = run(p)
		ev.move(t, g1, 1, "e2e4", "e4")
		ev.result(t, g1, "1-0")
		r.publish("result", g1)
		g2 := ev.pair(t, 2)
		ev.move(t, g2, 1, "d2d4", "d4")
		r.hub.Publish(director.Update{Kind: "round", At: started})
		time.Sleep(time.Minute)
		r.stop(t)
		require.Len(t, p.Pending(), 2)
		require.NoError(t, ev.db.Close())
	})
	synctest.Test(t, func(t *testing.T) {
		// The restart: a new pusher on the same database.
		db, err := store.Open(filepath.Join(dir, "event.db"), nil)
		require.NoError(t, err)
		defer db.Close()
		ep := newEndpoint(healthy)
		p := pusher(t, db, ep)
		r := run(p)
		time.Sleep(time.Second)
		r.stop(t)
		assert.True(t, strings.HasSuffix(strings.TrimSpace(ep.last(round1)), "1-0"), "round 1's result after the restart")
		assert.Contains(t, ep.last(round2), "1. d4")
		assert.Empty(t, p.Pending())

		// Another restart: both rounds are accepted, nothing is sent.
		ep2 := newEndpoint(healthy)
		p = pusher(t, db, ep2)
		r = run(p)
		time.Sleep(time.Minute)
		r.stop(t)
		assert.Empty(t, ep2.requests(), "what the endpoint accepted is not sent again")
		assert.Empty(t, p.Pending())
	})
}

func TestNewRefusesWhatItCannotPush(t *testing.T) {
	ev, _ := newEvent(t, t.TempDir())
	_, err := broadcast.New(ev.db, "x", []broadcast.Push{{URL: "http://127.0.0.1/{round}", Tournament: "Closed"}}, nil)
	require.ErrorIs(t, err, store.ErrNotFound)
	assert.Contains(t, err.Error(), `"Closed"`)
	_, err = broadcast.New(ev.db, "x", []broadcast.Push{{URL: "http://127.0.0.1/{round}", Tournament: "Open", Format: "kif"}}, nil)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "broadcast.push[0].format")
	p, err := broadcast.New(ev.db, "x", []broadcast.Push{{URL: "http://127.0.0.1/{round}", Tournament: "Open"}}, nil)
	require.NoError(t, err)
	assert.Equal(t, "pgn", p.Targets()[0].Format, "the game's usual format")
}
