package director

import (
	"sync"
	"sync/atomic"
	"time"

	"github.com/prometheus/client_golang/prometheus"
)

// Metrics counts what the event has done, for /metrics. Its zero value is
// ready to use; Collector exposes it to a Prometheus registry.
type Metrics struct {
	Events  atomic.Uint64 // board events handled by sessions
	Moves   atomic.Uint64 // moves stored
	Alerts  atomic.Uint64 // alerts raised
	Results atomic.Uint64 // games ended

	once sync.Once
	// decide is the time a session took per board event; storeMove the
	// time from a move decided to stored.
	decide, storeMove latency
}

// latency is one latency histogram of Metrics.
type latency struct{ h prometheus.Histogram }

// latencyBuckets span a session's decision (tens of microseconds) to a
// slow disk's write (seconds).
var latencyBuckets = []float64{0.00005, 0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5}

func (m *Metrics) init() {
	m.once.Do(func() {
		m.decide.h = prometheus.NewHistogram(prometheus.HistogramOpts{
			Name: "arbiter_decision_seconds", Help: "Time a session took to decide one board event.", Buckets: latencyBuckets})
		m.storeMove.h = prometheus.NewHistogram(prometheus.HistogramOpts{
			Name: "arbiter_move_store_seconds", Help: "Time from a move decided to stored.", Buckets: latencyBuckets})
	})
}

func (m *Metrics) observe(l *latency, d time.Duration) {
	m.init()
	l.h.Observe(d.Seconds())
}

// The metrics' descriptions; the names are those /metrics has always had.
var (
	descEvents  = prometheus.NewDesc("arbiter_board_events_total", "Board events handled by the game sessions.", nil, nil)
	descMoves   = prometheus.NewDesc("arbiter_moves_total", "Moves stored.", nil, nil)
	descAlerts  = prometheus.NewDesc("arbiter_alerts_total", "Alerts raised for the arbiter.", nil, nil)
	descResults = prometheus.NewDesc("arbiter_results_total", "Games ended.", nil, nil)
	descBoards  = prometheus.NewDesc("arbiter_boards", "Tables by the health of their board.", []string{"health"}, nil)
)

// Collector returns the event's metrics for a Prometheus registry: the
// counters, the tables by board health and the latency histograms. Each
// call returns a new collector over the same counts, so every registry
// (one per web site) can have its own.
func (d *Director) Collector() prometheus.Collector {
	d.metrics.init()
	return collector{d}
}

// collector reads the director's counts at each scrape.
type collector struct{ d *Director }

// Describe implements prometheus.Collector.
func (c collector) Describe(ch chan<- *prometheus.Desc) {
	for _, desc := range []*prometheus.Desc{descEvents, descMoves, descAlerts, descResults, descBoards} {
		ch <- desc
	}
	m := &c.d.metrics
	m.decide.h.Describe(ch)
	m.storeMove.h.Describe(ch)
}

// Collect implements prometheus.Collector.
func (c collector) Collect(ch chan<- prometheus.Metric) {
	m := &c.d.metrics
	for _, n := range []struct {
		desc *prometheus.Desc
		v    *atomic.Uint64
	}{{descEvents, &m.Events}, {descMoves, &m.Moves}, {descAlerts, &m.Alerts}, {descResults, &m.Results}} {
		ch <- prometheus.MustNewConstMetric(n.desc, prometheus.CounterValue, float64(n.v.Load()))
	}
	health := map[string]int{}
	for _, t := range c.d.Tables() {
		health[t.Health]++
	}
	for h, n := range health {
		ch <- prometheus.MustNewConstMetric(descBoards, prometheus.GaugeValue, float64(n), h)
	}
	m.decide.h.Collect(ch)
	m.storeMove.h.Collect(ch)
}
