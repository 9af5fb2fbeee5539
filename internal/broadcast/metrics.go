package broadcast

import (
	"github.com/prometheus/client_golang/prometheus"
)

// metrics are the pusher's metrics (Collector).
type metrics struct {
	// pushes counts the sends by tournament, round and the answer's
	// status ("error" when none came).
	pushes *prometheus.CounterVec
	// lastSuccess is when a tournament's push was last accepted.
	lastSuccess *prometheus.GaugeVec
	// pending counts a tournament's rounds whose latest state is not
	// accepted yet.
	pending *prometheus.GaugeVec
}

func newMetrics() *metrics {
	return &metrics{
		pushes: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "arbiter_broadcast_pushes_total",
			Help: "Rounds POSTed to broadcast services, by tournament, round and the answer's HTTP status (error: no answer)."},
			[]string{"tournament", "round", "status"}),
		lastSuccess: prometheus.NewGaugeVec(prometheus.GaugeOpts{Name: "arbiter_broadcast_last_success_timestamp_seconds",
			Help: "When a broadcast service last accepted a round of the tournament (Unix time)."},
			[]string{"tournament"}),
		pending: prometheus.NewGaugeVec(prometheus.GaugeOpts{Name: "arbiter_broadcast_rounds_pending",
			Help: "Rounds of the tournament whose latest state a broadcast service has not accepted yet."},
			[]string{"tournament"}),
	}
}

// Collector returns the pusher's metrics for a Prometheus registry:
// arbiter_broadcast_pushes_total, arbiter_broadcast_last_success_timestamp_seconds
// and arbiter_broadcast_rounds_pending.
func (p *Pusher) Collector() prometheus.Collector { return p.metrics }

// Describe implements prometheus.Collector.
func (m *metrics) Describe(ch chan<- *prometheus.Desc) {
	m.pushes.Describe(ch)
	m.lastSuccess.Describe(ch)
	m.pending.Describe(ch)
}

// Collect implements prometheus.Collector.
func (m *metrics) Collect(ch chan<- prometheus.Metric) {
	m.pushes.Collect(ch)
	m.lastSuccess.Collect(ch)
	m.pending.Collect(ch)
}
