package main

import (
	"archive/zip"
	"bytes"
	"context"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arbiter/director"
	"arbiter/internal/config"
	"arbiter/store"
)

// TestDemoEventRunsToTheEnd runs the built-in demo as shipped, only sped
// up as a user would (ARBITER_DEMO_SPEED=40, --exit-when-done), through
// simulated boards on pseudo-terminals until every tournament of every
// game is complete, then checks that every round was paired, every game
// was read right and has a result, and that the standings add up to the
// results.
func TestDemoEventRunsToTheEnd(t *testing.T) {
	if testing.Short() {
		t.Skip("runs a whole demo event")
	}
	t.Parallel()
	// The built-in configuration, as ARBITER_DEMO_SPEED=40 and the
	// listen, database and log-level flags would change it (their
	// mapping is internal/config's TestEnvironmentAndFlagsOverride).
	cfg, err := config.Load("", nil)
	require.NoError(t, err)
	cfg.Demo.Speed = 40
	cfg.Event.Database = filepath.Join(t.TempDir(), "event.db")
	cfg.HTTP.Listen = "127.0.0.1:0"
	cfg.Log.Level = "warn"
	// The DGT board's games are paced by its 250 ms settle, which the
	// demo's speed does not shorten: TestDemoWithDGTBoard plays them.
	cfg.Demo.DGT = false
	// Every game the project knows is played in the demo.
	var games []string
	for _, tc := range cfg.Tournaments {
		games = append(games, tc.Game)
	}
	assert.ElementsMatch(t, []string{"tavreli", "shogi", "kvaa", "tensor", "chess"}, games)
	// The chess rounds are pushed to a broadcast endpoint as they go.
	var (
		pushMu sync.Mutex
		pushed = map[string][]string{} // path: bodies
	)
	pushSrv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		pushMu.Lock()
		defer pushMu.Unlock()
		if r.Header.Get("Authorization") != "Bearer lip_demo" {
			http.Error(w, "bad token", http.StatusUnauthorized)
			return
		}
		pushed[r.URL.Path] = append(pushed[r.URL.Path], string(b))
	}))
	defer pushSrv.Close()
	cfg.Broadcast.Push = []config.Push{{URL: pushSrv.URL + "/round/{round}/push", Tournament: cfg.Tournaments[len(cfg.Tournaments)-1].Name, Token: "lip_demo"}}
	require.Equal(t, "chess", cfg.Tournaments[len(cfg.Tournaments)-1].Game)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	start := time.Now()
	url, out, errc := startServe(t, ctx, cfg, true)

	// While it runs: the health check and the metrics answer.
	body := get(t, url+"healthz")
	assert.Equal(t, "ok\n", body)
	for _, path := range []string{"healthz", "metrics"} {
		resp, err := http.Get(url + path)
		require.NoError(t, err)
		resp.Body.Close()
		assert.Equal(t, "nosniff", resp.Header.Get("X-Content-Type-Options"), path)
		assert.Contains(t, resp.Header.Get("Content-Security-Policy"), "frame-ancestors 'none'", path)
	}
	require.Eventually(t, func() bool {
		return regexp.MustCompile(`(?m)^arbiter_moves_total [1-9]`).MatchString(get(t, url+"metrics"))
	}, 60*time.Second, 100*time.Millisecond, "no moves in the metrics")
	require.Eventually(t, func() bool {
		return regexp.MustCompile(`(?m)^arbiter_broadcast_pushes_total\{round="1",status="200",tournament="[^"]+"\} [1-9]`).MatchString(get(t, url+"metrics"))
	}, 60*time.Second, 100*time.Millisecond, "no broadcast pushes in the metrics")

	require.NoError(t, <-errc)
	require.NoError(t, ctx.Err(), "the event did not finish in time:\n%s", out.String())
	t.Logf("event finished in %v\n%s", time.Since(start).Round(time.Second), out.String())
	assert.Contains(t, out.String(), "every tournament is complete")
	assert.Contains(t, out.String(), "(a demo: simulated boards play random games, demo.enabled in configs/arbiter.yaml, built in)",
		"the live line says where the demo's boards come from")

	pushMu.Lock()
	for r := 1; r <= 3; r++ {
		bodies := pushed[fmt.Sprintf("/round/%d/push", r)]
		if assert.NotEmpty(t, bodies, "round %d of the chess tournament was pushed", r) {
			last := bodies[len(bodies)-1]
			assert.Contains(t, last, fmt.Sprintf(`[Round "%d.1"]`, r))
			assert.Contains(t, last, "{[%clk ")
			// Every game's result reached the endpoint, the last round's
			// too, though the daemon stopped as soon as it ended.
			assert.NotContains(t, last, `[Result "*"]`, "round %d's last push", r)
		}
	}
	pushMu.Unlock()

	m := demoSummary(t, out.String())
	moved, _ := strconv.Atoi(m[1])
	assert.Positive(t, moved)
	assert.Equal(t, "0", m[3], "moves misread")
	assert.Equal(t, "0", m[5], "games abandoned")

	db, err := store.Open(cfg.Event.Database, nil)
	require.NoError(t, err)
	defer db.Close()
	require.NoError(t, db.Check())
	d, err := director.New(directorConfig(cfg), db, slog.Default())
	require.NoError(t, err)
	played := 0
	first := map[string]uint64{} // the first game of each kind
	var handicapped []uint64     // shogi games given a handicap (駒落ち)
	for i, id := range d.TournamentIDs() {
		tc := cfg.Tournaments[i]
		rounds, err := db.Rounds(id)
		require.NoError(t, err)
		players, err := db.Players(id)
		require.NoError(t, err)
		want := tc.Rounds
		if strings.Contains(tc.System, "round-robin") {
			want = len(players) - 1 + len(players)%2
		}
		require.Len(t, rounds, want, "%s: every round paired", tc.Name)
		wantPoints := 0.0
		for _, r := range rounds {
			for _, p := range r.Pairings {
				require.NotEmpty(t, p.Result, "%s: round %d board %d has no result", tc.Name, r.Number, p.Board)
				wantPoints++ // a decided game, a draw and a bye are all worth one point in all
				if p.GameID == 0 {
					continue
				}
				played++
				g, err := db.Game(p.GameID)
				require.NoError(t, err)
				assert.Equal(t, p.Result, g.Result)
				assert.Equal(t, tc.Game, g.Game)
				if first[g.Game] == 0 {
					first[g.Game] = g.ID
				}
				if strings.Contains(g.Options, "handicap=") && !strings.Contains(g.Options, "handicap=none") {
					handicapped = append(handicapped, g.ID)
				}
				moves, err := db.Moves(p.GameID)
				require.NoError(t, err)
				assert.NotEmpty(t, moves, "game %d has no moves", g.ID)
			}
		}
		st, err := d.Standings(id)
		require.NoError(t, err)
		got := 0.0
		for _, row := range st.Rows {
			got += row.Values[0].Num
		}
		assert.Equal(t, wantPoints, got, "standings points of %s", tc.Name)
	}
	assert.Equal(t, 16+9+6+6+9, played, "Tavreli 8 players x 4 rounds, shogi and chess 6 x 3, Kvaa and Tensor round robins of 4")
	// Issue 35 §3: the shogi tournament's first table plays a handicap
	// game every round.
	assert.Len(t, handicapped, 3, "a handicap game in each shogi round")
	require.NoError(t, db.Close())

	// The records export: a Tavreli scoresheet with Cyrillic files, a KIF,
	// a TRF report and the whole archive.
	dir := t.TempDir()
	tav, shogi := strconv.FormatUint(first["tavreli"], 10), strconv.FormatUint(first["shogi"], 10)
	code, sheet := runCLI(t, "export", "--database", cfg.Event.Database, "--game", tav, "--format", "cyrillic")
	require.Equal(t, exitOK, code)
	assert.Regexp(t, `[абвгдежз][1-8]`, sheet)
	code, kif := runCLI(t, "export", "--database", cfg.Event.Database, "--game", shogi, "--format", "kif")
	require.Equal(t, exitOK, code)
	assert.Contains(t, kif, "手数")
	if len(handicapped) > 0 {
		code, kif = runCLI(t, "export", "--database", cfg.Event.Database, "--game", strconv.FormatUint(handicapped[0], 10), "--format", "kif")
		require.Equal(t, exitOK, code)
		assert.Regexp(t, `手合割：\S+落ち`, kif)
		assert.Contains(t, kif, "上手：")
	}
	code, trfText := runCLI(t, "export", "--database", cfg.Event.Database, "--tournament", "1")
	require.Equal(t, exitOK, code)
	assert.Contains(t, trfText, "XXR 4")
	code, _ = runCLI(t, "export", "--database", cfg.Event.Database, "-o", filepath.Join(dir, "event.zip"))
	require.Equal(t, exitOK, code)
	zr, err := zip.OpenReader(filepath.Join(dir, "event.zip"))
	require.NoError(t, err)
	defer zr.Close()
	assert.Greater(t, len(zr.File), played, "a record per game and the reports")
	code, _ = runCLI(t, "export", "--database", cfg.Event.Database, "--game", tav, "--format", "kif")
	assert.Equal(t, exitUsage, code, "Tavreli has no KIF")

	// Every game's raw sensor log replays to the stored moves.
	code, report := runCLI(t, "replay", "--database", cfg.Event.Database, "--all")
	assert.Equal(t, exitOK, code, report)
}

// syncBuffer is a bytes.Buffer safe for a writer and a reader.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

func get(t testing.TB, url string) string {
	t.Helper()
	resp, err := http.Get(url)
	require.NoError(t, err)
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	require.Equal(t, http.StatusOK, resp.StatusCode, "%s: %s", url, data)
	return string(data)
}

// TestDemoSurvivesRestart stops the demo in the middle of its first round,
// as SIGINT does, and starts it again on the same database: the games go
// on from their stored moves and the event runs to the end with every
// game replaying to its stored moves.
func TestDemoSurvivesRestart(t *testing.T) {
	if testing.Short() {
		t.Skip("runs a demo event twice")
	}
	t.Parallel()
	cfg := fastDemo(t, 2, 24)
	// The first run stops (as on SIGINT) once some moves are stored.
	first, stop := context.WithTimeout(context.Background(), 2*time.Minute)
	defer stop()
	url, _, errc := startServe(t, first, cfg, false)
	require.Eventually(t, func() bool {
		return regexp.MustCompile(`(?m)^arbiter_moves_total ([2-9]\d|\d{3,})`).MatchString(get(t, url+"metrics"))
	}, time.Minute, 50*time.Millisecond, "no moves before the stop")
	stop()
	require.NoError(t, <-errc)

	db, err := store.Open(cfg.Event.Database, nil)
	require.NoError(t, err)
	before := 0
	games, err := db.Games()
	require.NoError(t, err)
	for _, g := range games {
		ms, err := db.Moves(g.ID)
		require.NoError(t, err)
		before += len(ms)
		if g.Result == "" && len(ms) > 0 {
			assert.NotEmpty(t, g.Clock, "game %d: the clock was stored at the stop", g.ID)
		}
	}
	require.NoError(t, db.Close())
	require.Positive(t, before, "moves were made before the stop")

	second, stop2 := context.WithTimeout(context.Background(), 3*time.Minute)
	defer stop2()
	_, out, errc := startServe(t, second, cfg, true)
	require.NoError(t, <-errc)
	require.NoError(t, second.Err(), "the event did not finish after the restart:\n%s", out.String())
	assert.Contains(t, out.String(), "every tournament is complete")
	m := demoSummary(t, out.String())
	assert.Equal(t, "0", m[3], "moves misread after the restart")
	code, report := runCLI(t, "replay", "--database", cfg.Event.Database, "--all")
	assert.Equal(t, exitOK, code, report)
}

// startServe runs serve in the background with cfg until ctx ends (or the
// event is complete, if exitWhenDone), and returns its URL once it is
// live, its output and where its error arrives. A director serveDirectors
// waits for is given to it.
func startServe(t testing.TB, ctx context.Context, cfg *config.Config, exitWhenDone bool) (string, *syncBuffer, <-chan error) {
	t.Helper()
	opts := serveOptions{exitWhenDone: exitWhenDone}
	if f, ok := testDirectors.Load(cfg); ok {
		opts.started = f.(func(*director.Director))
	}
	return startServeWith(t, ctx, cfg, opts)
}

// startServeWith is startServe with serve's options (its output is the
// returned buffer).
func startServeWith(t testing.TB, ctx context.Context, cfg *config.Config, opts serveOptions) (string, *syncBuffer, <-chan error) {
	t.Helper()
	out := &syncBuffer{}
	opts.out, opts.flags = out, newServeCmd().Flags()
	errc := make(chan error, 1)
	go func() { errc <- serve(ctx, cfg, opts) }()
	var url string
	require.Eventually(t, func() bool {
		m := regexp.MustCompile(`live at (http://\S+)`).FindStringSubmatch(out.String())
		if m != nil {
			url = m[1]
		}
		return m != nil
	}, 30*time.Second, 20*time.Millisecond, "the server did not come up:\n%s", out.String())
	return url, out, errc
}

// demoSummary returns the demo's closing counts: moves played, read
// right, misread, made again, games abandoned (m[1] to m[5]).
func demoSummary(t *testing.T, out string) []string {
	t.Helper()
	m := regexp.MustCompile(`demo: (\d+) moves played, (\d+) read right, (\d+) misread, (\d+) made again, (\d+) games abandoned`).FindStringSubmatch(out)
	require.NotNil(t, m, "no demo summary in:\n%s", out)
	return m
}

// fastDemo is the built-in demo on a fresh database, sped up, with the
// given rounds per Swiss and moves per game at most; a round robin, whose
// rounds its players decide, is cut to two players (one round).
func fastDemo(t *testing.T, rounds, plies int) *config.Config {
	t.Helper()
	cfg, err := config.Load("", nil)
	require.NoError(t, err)
	cfg.Event.Database = filepath.Join(t.TempDir(), "event.db")
	cfg.HTTP.Listen = "127.0.0.1:0"
	cfg.Demo.Speed = 40
	cfg.Demo.Plies = plies
	cfg.Log.Level = "warn"
	for i := range cfg.Tournaments {
		tc := &cfg.Tournaments[i]
		tc.Rounds = rounds
		if strings.Contains(tc.System, "round-robin") {
			tc.Players, tc.Rounds = tc.Players[:2], 1
		}
	}
	return cfg
}
