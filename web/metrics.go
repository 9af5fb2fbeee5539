package web

import (
	"fmt"
	"net/http"
	"strconv"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// siteMetrics are the web site's own metrics, registered with the event's
// in the site's registry. Each site has its own registry rather than the
// process-wide default, so sites (and the tests that start many) never
// collide.
type siteMetrics struct {
	reg *prometheus.Registry
	// requests is the time a request took to answer, by route; the live
	// streams are counted by streams instead.
	requests *prometheus.HistogramVec
	// streams is the number of open live streams; dropped counts the
	// streams ended because their client fell behind; sent counts the
	// events written to the streams.
	streams prometheus.Gauge
	dropped prometheus.Counter
	sent    prometheus.Counter
}

// newSiteMetrics returns a registry with the Go runtime's and the
// process's metrics, the event's (the director's collector) and the
// site's.
func newSiteMetrics(event prometheus.Collector) *siteMetrics {
	m := &siteMetrics{
		reg: prometheus.NewRegistry(),
		requests: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name: "arbiter_http_request_duration_seconds", Help: "Time taken to answer a web request, by route and status code.",
			Buckets: []float64{0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10}},
			[]string{"route", "code"}),
		streams: prometheus.NewGauge(prometheus.GaugeOpts{Name: "arbiter_live_streams", Help: "Open live-update streams (server-sent events)."}),
		dropped: prometheus.NewCounter(prometheus.CounterOpts{Name: "arbiter_live_streams_dropped_total", Help: "Live streams ended because their client fell behind."}),
		sent:    prometheus.NewCounter(prometheus.CounterOpts{Name: "arbiter_live_events_total", Help: "Events encoded for the live streams (once each, whatever the number of clients)."}),
	}
	m.reg.MustRegister(
		collectors.NewGoCollector(),
		collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}),
		collectors.NewBuildInfoCollector(),
		m.requests, m.streams, m.dropped, m.sent,
	)
	if event != nil {
		m.reg.MustRegister(event)
	}
	return m
}

// RegisterMetrics adds the metrics of the daemon's other parts (the
// broadcast pushes, the backups, the build) to the site's /metrics. A
// collector whose metrics the registry has already is refused.
func (s *Site) RegisterMetrics(cs ...prometheus.Collector) error {
	for _, c := range cs {
		if err := s.stats.reg.Register(c); err != nil {
			return fmt.Errorf("metrics: %w", err)
		}
	}
	return nil
}

// observe records how long a request took, under the route pattern that
// served it and the answer's status code. Requests that matched no route
// are counted under "none", so that scanners cannot blow up the number of
// series.
func (m *siteMetrics) observe(r *http.Request, code int, took time.Duration) {
	route := r.Pattern
	if route == "" {
		route = "none"
	}
	m.requests.WithLabelValues(route, strconv.Itoa(code)).Observe(took.Seconds())
}

// statusWriter remembers the status code of the answer it writes.
type statusWriter struct {
	http.ResponseWriter
	code int
}

func (w *statusWriter) WriteHeader(code int) {
	if w.code == 0 && code >= 200 {
		w.code = code
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w *statusWriter) Write(b []byte) (int, error) {
	if w.code == 0 {
		w.code = http.StatusOK
	}
	return w.ResponseWriter.Write(b)
}

// Unwrap gives http.ResponseController the writer underneath (flushes,
// deadlines of the live streams).
func (w *statusWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// status is the code written, 200 when the handler wrote nothing.
func (w *statusWriter) status() int {
	if w.code == 0 {
		return http.StatusOK
	}
	return w.code
}

// metrics serves the registry in the Prometheus text format, to the
// clients http.metrics_allow lists and 403 to anyone else.
func (s *Site) metrics() http.HandlerFunc {
	h := promhttp.HandlerFor(s.stats.reg, promhttp.HandlerOpts{ErrorLog: slogPrinter{s}, ErrorHandling: promhttp.ContinueOnError})
	return func(w http.ResponseWriter, r *http.Request) {
		if !s.metricsAllowed(r) {
			s.log.Info("metrics refused", "client", s.client(r), "peer", r.RemoteAddr)
			http.Error(w, "forbidden: this address is not in http.metrics_allow", http.StatusForbidden)
			return
		}
		w.Header().Set("Cache-Control", "no-store")
		h.ServeHTTP(w, r)
	}
}

// slogPrinter logs the metrics handler's errors through the site's log.
type slogPrinter struct{ s *Site }

// Println implements promhttp.Logger.
func (p slogPrinter) Println(v ...any) { p.s.log.Error("metrics", "err", v) }
