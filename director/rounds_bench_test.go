package director

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"path/filepath"
	"testing"
	"time"

	"arbiter/board"
	"arbiter/internal/benchlat"
	"arbiter/store"
)

// bigSwisses writes n tournaments of players players each, without
// rounds, to a new database in one transaction (as "db import" does).
func bigSwisses(b *testing.B, n, players int) *store.DB {
	b.Helper()
	var lines bytes.Buffer
	enc := json.NewEncoder(&lines)
	line := func(typ string, v any) {
		data, err := json.Marshal(v)
		if err != nil {
			b.Fatal(err)
		}
		if err := enc.Encode(map[string]any{"type": typ, "data": json.RawMessage(data)}); err != nil {
			b.Fatal(err)
		}
	}
	lines.WriteString(`{"format":"arbiter-event","version":1}` + "\n")
	for i := 1; i <= n; i++ {
		line("tournament", store.Tournament{ID: uint64(i), Name: fmt.Sprintf("Big %d", i), Game: "chess", System: "swiss-dutch", Rounds: 9, TimeControl: "90m+30s"})
		for p := 1; p <= players; p++ {
			line("player", store.Player{TournamentID: uint64(i), ID: p, Name: fmt.Sprintf("Player %d", p), Rating: 2800 - p/2})
		}
	}
	db, err := store.Open(filepath.Join(b.TempDir(), "event.db"), nil)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { db.Close() })
	if err := db.Import(&lines); err != nil {
		b.Fatal(err)
	}
	return db
}

// eventEvery is how often the benchmark's board sends an event: the
// events of a hall's boards, a thousand a second.
const eventEvery = time.Millisecond

// BenchmarkDecisionWhilePairing measures what a board's event waits while
// a 2,000-player round is paired: each op pairs round 1 of a 2,000-player
// Swiss (about half a second of CPU) while a board on a table of another
// tournament sends an event every eventEvery. Each event's time is from
// when it was due (its driver would have handed it over then) to its
// session having decided it, so that an event held up by the daemon
// holds up the ones due behind it too (the sender's own waking late, the
// machine's doing, is not counted); p50-ms and p99-ms are over every
// event due during the pairings.
func BenchmarkDecisionWhilePairing(b *testing.B) {
	b.ReportAllocs()
	b.StopTimer()
	const players = 2000
	db := bigSwisses(b, b.N, players)
	cfg := Config{Name: "bench"}
	for i := 1; i <= b.N; i++ {
		cfg.Tournaments = append(cfg.Tournaments, Tournament{Name: fmt.Sprintf("Big %d", i), Game: "chess", System: "swiss-dutch", Rounds: 9, TimeControl: "90m+30s"})
	}
	cfg.Tournaments = append(cfg.Tournaments, Tournament{Name: "Club", Game: "chess", System: "swiss-dutch", Rounds: 1, TimeControl: "5m+3s",
		AutoPair: true, Players: []store.Player{{Name: "White"}, {Name: "Black"}}})
	d, err := New(cfg, db, slog.New(slog.NewTextHandler(io.Discard, nil)))
	if err != nil {
		b.Fatal(err)
	}
	ids := d.TournamentIDs()
	club := ids[len(ids)-1]
	tbl, err := d.AddTable(club, "B1")
	if err != nil {
		b.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { d.Run(ctx); close(done) }()
	defer func() { cancel(); <-done }()
	for tbl.Live().GameID == 0 {
		time.Sleep(time.Millisecond)
	}
	// decide hands the board's next event over and waits until its
	// session has decided it.
	decide := func() {
		before := d.metrics.Events.Load()
		d.BoardEvent(ctx, board.Event{Kind: board.EventHeartbeat, Board: "B1", Host: d.Now()})
		for d.metrics.Events.Load() == before {
			// Runs on the table's goroutine: after the event, or before
			// it (then again).
			if err := tbl.Do(ctx, func() error { return nil }); err != nil {
				b.Fatal(err)
			}
		}
	}
	var lat []time.Duration
	b.StartTimer()
	for i := range b.N {
		paired := make(chan error, 1)
		go func() { paired <- d.PairNextRound(ctx, ids[i], "chief", "bench") }()
		due := time.Now()
	events:
		for {
			select {
			case err := <-paired:
				if err != nil {
					b.Fatal(err)
				}
				break events
			default:
			}
			if wait := time.Until(due); wait > 0 {
				// Ahead of time: the event is handed over when the
				// sender wakes, however late the machine wakes it.
				time.Sleep(wait)
				due = time.Now()
			}
			decide()
			lat = append(lat, time.Since(due))
			due = due.Add(eventEvery)
		}
	}
	b.StopTimer()
	rs, err := db.Rounds(ids[0])
	if err != nil || len(rs) != 1 || len(rs[0].Pairings) != players/2 {
		b.Fatalf("round 1 of %d players: %v, %v", players, rs, err)
	}
	b.ReportMetric(float64(len(lat))/float64(b.N), "events/op")
	benchlat.Report(b, lat, "")
}
