package arbiter_test

import (
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"arbiter/arbiter"
	"arbiter/rules"
)

// middlegame plays random Tavreli moves until some tower is at least
// minHeight tall: a middlegame with tall towers.
func middlegame(tb testing.TB, minHeight int) rules.Position {
	g, err := rules.New("tavreli", nil)
	if err != nil {
		tb.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(7, 7))
	for range 100 {
		pos := g.Start()
		for range 200 {
			ms := pos.Legal()
			if len(ms) == 0 {
				break
			}
			next, err := pos.Play(ms[rng.IntN(len(ms))])
			if err != nil {
				tb.Fatal(err)
			}
			pos = next
			if slices.Max(pos.View().Heights(nil)) >= minHeight && len(pos.Legal()) > 20 {
				return pos
			}
		}
	}
	tb.Fatal("no tall tower found")
	return nil
}

// BenchmarkDecisionPerEvent feeds a height-only board's events for random
// legal moves of a Tavreli middlegame with tall towers into a session and
// measures the time each event takes to decide (the settle wait is not
// part of it: ticks are events too). It reports the p50 and p99 latency.
func BenchmarkDecisionPerEvent(b *testing.B) {
	start := middlegame(b, 5)
	g, _ := rules.New("tavreli", nil)
	cfg := arbiter.DefaultConfig(g)
	cfg.Completion = arbiter.OnRelease
	cfg.TouchMove = arbiter.Strict
	rng := rand.New(rand.NewPCG(1, 1))
	var lat []time.Duration
	b.ReportAllocs()
	var s *arbiter.Session
	var at time.Duration
	for b.Loop() {
		if s == nil || s.Outcome().Over() || len(s.Position().Legal()) == 0 || s.Plies() > 60 {
			var err error
			if s, err = arbiter.NewSession(cfg, g, start, nil); err != nil {
				b.Fatal(err)
			}
		}
		pos := s.Position()
		ms := pos.Legal()
		m := ms[rng.IntN(len(ms))]
		next, _ := pos.Play(m)
		before, after := pos.View().Heights(nil), next.View().Heights(nil)
		var evs []arbiter.Event
		// Lifts first, then places: what a hand does.
		for sq := range before {
			if after[sq] < before[sq] {
				at += 150 * time.Millisecond
				evs = append(evs, arbiter.Event{Kind: arbiter.SquareChanged, At: at, Square: rules.Square(sq), Height: after[sq]})
			}
		}
		for sq := range before {
			if after[sq] > before[sq] {
				at += 150 * time.Millisecond
				evs = append(evs, arbiter.Event{Kind: arbiter.SquareChanged, At: at, Square: rules.Square(sq), Height: after[sq]})
			}
		}
		plies := s.Plies()
		for _, e := range evs {
			t0 := time.Now()
			s.Handle(e)
			lat = append(lat, time.Since(t0))
		}
		at += cfg.Settle
		t0 := time.Now()
		s.Tick(at)
		lat = append(lat, time.Since(t0))
		if s.Plies() != plies+1 {
			b.Fatalf("move %s was not read", m)
		}
	}
	slices.Sort(lat)
	b.ReportMetric(float64(lat[len(lat)/2].Nanoseconds())/1000, "p50-µs")
	b.ReportMetric(float64(lat[len(lat)*99/100].Nanoseconds())/1000, "p99-µs")
	b.ReportMetric(float64(len(lat))/float64(b.N), "events/op")
}
