package director

import (
	"fmt"
	"io"
	"slices"
	"sync"
	"sync/atomic"
	"time"
)

// Metrics counts what the event has done, for /metrics.
type Metrics struct {
	Events  atomic.Uint64 // board events handled by sessions
	Moves   atomic.Uint64 // moves stored
	Alerts  atomic.Uint64 // alerts raised
	Results atomic.Uint64 // games ended

	mu sync.Mutex
	// decide is a sample of the time a session took per event, for its
	// percentiles; storeMove the time from a move decided to stored.
	decide, storeMove ring
}

// ring keeps the last n samples.
type ring struct {
	buf  [1024]time.Duration
	n, i int
}

func (r *ring) add(d time.Duration) {
	r.buf[r.i] = d
	r.i = (r.i + 1) % len(r.buf)
	r.n = min(r.n+1, len(r.buf))
}

func (r *ring) quantile(q float64) time.Duration {
	if r.n == 0 {
		return 0
	}
	s := slices.Clone(r.buf[:r.n])
	slices.Sort(s)
	return s[int(q*float64(r.n-1))]
}

func (m *Metrics) observe(r *ring, d time.Duration) {
	m.mu.Lock()
	r.add(d)
	m.mu.Unlock()
}

// WritePrometheus writes the metrics, and the boards' health, in the
// Prometheus text format.
func (d *Director) WritePrometheus(w io.Writer) error {
	m := &d.metrics
	health := map[string]int{}
	for _, t := range d.Tables() {
		health[t.Health]++
	}
	m.mu.Lock()
	p50, p99 := m.decide.quantile(0.5), m.decide.quantile(0.99)
	s50, s99 := m.storeMove.quantile(0.5), m.storeMove.quantile(0.99)
	m.mu.Unlock()
	var err error
	pr := func(format string, args ...any) {
		if err == nil {
			_, err = fmt.Fprintf(w, format, args...)
		}
	}
	pr("# HELP arbiter_board_events_total Board events handled by the game sessions.\n# TYPE arbiter_board_events_total counter\narbiter_board_events_total %d\n", m.Events.Load())
	pr("# HELP arbiter_moves_total Moves stored.\n# TYPE arbiter_moves_total counter\narbiter_moves_total %d\n", m.Moves.Load())
	pr("# HELP arbiter_alerts_total Alerts raised for the arbiter.\n# TYPE arbiter_alerts_total counter\narbiter_alerts_total %d\n", m.Alerts.Load())
	pr("# HELP arbiter_results_total Games ended.\n# TYPE arbiter_results_total counter\narbiter_results_total %d\n", m.Results.Load())
	pr("# HELP arbiter_boards Tables by the health of their board.\n# TYPE arbiter_boards gauge\n")
	keys := make([]string, 0, len(health))
	for k := range health {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		pr("arbiter_boards{health=%q} %d\n", k, health[k])
	}
	pr("# HELP arbiter_decision_seconds Time a session took to decide one board event (recent sample).\n# TYPE arbiter_decision_seconds summary\n")
	pr("arbiter_decision_seconds{quantile=\"0.5\"} %g\narbiter_decision_seconds{quantile=\"0.99\"} %g\n", p50.Seconds(), p99.Seconds())
	pr("# HELP arbiter_move_store_seconds Time from a move decided to stored (recent sample).\n# TYPE arbiter_move_store_seconds summary\n")
	pr("arbiter_move_store_seconds{quantile=\"0.5\"} %g\narbiter_move_store_seconds{quantile=\"0.99\"} %g\n", s50.Seconds(), s99.Seconds())
	return err
}
