package backup

import (
	"os"
	"time"

	"github.com/prometheus/client_golang/prometheus"
)

// Metrics are the automatic backups' metrics, for a Prometheus registry:
// arbiter_backups_total by result, and the last good backup's time,
// duration and size. The zero value is not usable; use NewMetrics.
type Metrics struct {
	backups  *prometheus.CounterVec
	last     prometheus.Gauge
	duration prometheus.Gauge
	size     prometheus.Gauge
}

// NewMetrics returns the backups' metrics, every count at zero.
func NewMetrics() *Metrics {
	m := &Metrics{
		backups: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "arbiter_backups_total",
			Help: "Automatic backups taken, by result (ok, failed)."}, []string{"result"}),
		last: prometheus.NewGauge(prometheus.GaugeOpts{Name: "arbiter_backup_last_success_timestamp_seconds",
			Help: "When the last good automatic backup was taken (Unix time; 0: none yet)."}),
		duration: prometheus.NewGauge(prometheus.GaugeOpts{Name: "arbiter_backup_last_duration_seconds",
			Help: "How long the last good automatic backup took, checks included."}),
		size: prometheus.NewGauge(prometheus.GaugeOpts{Name: "arbiter_backup_last_size_bytes",
			Help: "The size of the last good automatic backup."}),
	}
	m.backups.WithLabelValues("ok")
	m.backups.WithLabelValues("failed")
	return m
}

// record notes a backup begun at start that wrote path, or failed with err.
func (m *Metrics) record(start, end time.Time, path string, err error) {
	if m == nil {
		return
	}
	if err != nil {
		m.backups.WithLabelValues("failed").Inc()
		return
	}
	m.backups.WithLabelValues("ok").Inc()
	m.last.Set(float64(end.UnixNano()) / 1e9)
	m.duration.Set(end.Sub(start).Seconds())
	if fi, err := os.Stat(path); err == nil {
		m.size.Set(float64(fi.Size()))
	}
}

// Describe implements prometheus.Collector.
func (m *Metrics) Describe(ch chan<- *prometheus.Desc) {
	m.backups.Describe(ch)
	for _, g := range []prometheus.Gauge{m.last, m.duration, m.size} {
		g.Describe(ch)
	}
}

// Collect implements prometheus.Collector.
func (m *Metrics) Collect(ch chan<- prometheus.Metric) {
	m.backups.Collect(ch)
	for _, g := range []prometheus.Gauge{m.last, m.duration, m.size} {
		g.Collect(ch)
	}
}
