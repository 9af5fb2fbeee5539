package federation

import (
	"time"

	"github.com/prometheus/client_golang/prometheus"
)

// Collector returns the links' metrics for Prometheus, one series a hall
// (in a hall, its own link; on the hub, each hall's), as Links says them:
//
//	arbiter_federation_linked                   1 while the hub and the hall hear each other
//	arbiter_federation_linked_since_seconds     when the link last came up or went down (Unix time; 0: never up)
//	arbiter_federation_facts_waiting            the hall's facts the hub does not have yet
//	arbiter_federation_lag_seconds              how long the oldest of them has waited
//	arbiter_federation_last_fact_acknowledged   the last of the hall's facts the hub stored (its sequence in the hall's stream)
//	arbiter_federation_last_fact_acknowledged_timestamp_seconds  when (Unix time)
//	arbiter_federation_problems                 the mistakes in the way of the link
func (n *Node) Collector() prometheus.Collector { return linkCollector{n} }

type linkCollector struct{ n *Node }

var (
	linkedDesc   = linkDesc("arbiter_federation_linked", "1 while the hub and the hall hear each other (hellos answered).")
	sinceDesc    = linkDesc("arbiter_federation_linked_since_seconds", "When the link last came up or went down, in Unix seconds (0: never up since the daemon started).")
	waitingDesc  = linkDesc("arbiter_federation_facts_waiting", "The hall's facts the hub does not have yet.")
	lagDesc      = linkDesc("arbiter_federation_lag_seconds", "How long the oldest of the hall's facts waiting for the hub has waited.")
	ackedDesc    = linkDesc("arbiter_federation_last_fact_acknowledged", "The last of the hall's facts the hub stored: its sequence in the hall's stream.")
	ackedAtDesc  = linkDesc("arbiter_federation_last_fact_acknowledged_timestamp_seconds", "When the hub stored the hall's last fact, in Unix seconds.")
	problemsDesc = linkDesc("arbiter_federation_problems", "The mistakes in the way of the hall's link (wrong credentials, port or name, boards or roster).")
)

func linkDesc(name, help string) *prometheus.Desc {
	return prometheus.NewDesc(name, help, []string{"hall"}, nil)
}

func (linkCollector) Describe(ch chan<- *prometheus.Desc) {
	for _, d := range []*prometheus.Desc{linkedDesc, sinceDesc, waitingDesc, lagDesc, ackedDesc, ackedAtDesc, problemsDesc} {
		ch <- d
	}
}

func (c linkCollector) Collect(ch chan<- prometheus.Metric) {
	for _, l := range c.n.Links() {
		linked := 0.0
		if l.Linked {
			linked = 1
		}
		since, ackedAt := unixSeconds(l.Since), unixSeconds(l.AcknowledgedAt)
		for _, m := range []struct {
			d *prometheus.Desc
			v float64
		}{
			{linkedDesc, linked}, {sinceDesc, since}, {waitingDesc, float64(l.Waiting)}, {lagDesc, l.Lag.Seconds()},
			{ackedDesc, float64(l.Acknowledged)}, {ackedAtDesc, ackedAt}, {problemsDesc, float64(len(l.Problems))},
		} {
			ch <- prometheus.MustNewConstMetric(m.d, prometheus.GaugeValue, m.v, l.Hall)
		}
	}
}

// unixSeconds is t in Unix seconds, 0 for the zero time.
func unixSeconds(t time.Time) float64 {
	if t.IsZero() {
		return 0
	}
	return float64(t.UnixMilli()) / 1000
}
