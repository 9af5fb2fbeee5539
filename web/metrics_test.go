package web

import (
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/testutil/promlint"
	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arbiter/rules"
)

// scrape reads /metrics and parses it as Prometheus does.
func scrape(t *testing.T, c *client) (string, map[string]*dto.MetricFamily) {
	t.Helper()
	code, body, h := c.get("/metrics")
	require.Equal(t, http.StatusOK, code, body)
	require.Contains(t, h.Get("Content-Type"), "text/plain")
	parser := expfmt.NewTextParser(model.UTF8Validation)
	fams, err := parser.TextToMetricFamilies(strings.NewReader(body))
	require.NoError(t, err, "the text format parses")
	return body, fams
}

// /metrics comes from client_golang: the names it always had, latency
// histograms with _sum and _count, the Go runtime's and the process's
// metrics, and output that promtool's linter accepts.
func TestMetrics(t *testing.T) {
	e := newEvent(t)
	e.move("e2", "e4", rules.White, 0, 1)
	c := e.client()
	// A request to count under its route.
	code, _, _ := c.get("/api/v1/tables")
	require.Equal(t, http.StatusOK, code)
	code, _, _ = c.get("/api/v1/games/999")
	require.Equal(t, http.StatusNotFound, code)
	body, fams := scrape(t, c)

	for _, tt := range []struct {
		name string
		kind dto.MetricType
	}{
		{"arbiter_board_events_total", dto.MetricType_COUNTER},
		{"arbiter_moves_total", dto.MetricType_COUNTER},
		{"arbiter_alerts_total", dto.MetricType_COUNTER},
		{"arbiter_results_total", dto.MetricType_COUNTER},
		{"arbiter_boards", dto.MetricType_GAUGE},
		{"arbiter_decision_seconds", dto.MetricType_HISTOGRAM},
		{"arbiter_move_store_seconds", dto.MetricType_HISTOGRAM},
		{"arbiter_http_request_duration_seconds", dto.MetricType_HISTOGRAM},
		{"arbiter_live_streams", dto.MetricType_GAUGE},
		{"arbiter_live_streams_dropped_total", dto.MetricType_COUNTER},
		{"arbiter_live_events_total", dto.MetricType_COUNTER},
		{"go_goroutines", dto.MetricType_GAUGE},
		{"go_memstats_heap_inuse_bytes", dto.MetricType_GAUGE},
		{"process_resident_memory_bytes", dto.MetricType_GAUGE},
		{"process_open_fds", dto.MetricType_GAUGE},
	} {
		t.Run(tt.name, func(t *testing.T) {
			f, ok := fams[tt.name]
			require.True(t, ok, "%s missing from /metrics", tt.name)
			assert.Equal(t, tt.kind, f.GetType())
			assert.NotEmpty(t, f.GetHelp())
		})
	}
	assert.GreaterOrEqual(t, fams["arbiter_moves_total"].Metric[0].GetCounter().GetValue(), 1.0)
	for _, name := range []string{"arbiter_decision_seconds", "arbiter_move_store_seconds"} {
		h := fams[name].Metric[0].GetHistogram()
		assert.GreaterOrEqual(t, h.GetSampleCount(), uint64(1), name)
		assert.Positive(t, h.GetSampleSum(), name)
		assert.Contains(t, body, name+"_sum ")
		assert.Contains(t, body, name+"_count ")
		assert.Contains(t, body, name+`_bucket{le="+Inf"} `)
	}
	// Requests by route and status code.
	var routes []string
	for _, m := range fams["arbiter_http_request_duration_seconds"].Metric {
		labels := map[string]string{}
		for _, l := range m.Label {
			labels[l.GetName()] = l.GetValue()
		}
		routes = append(routes, labels["route"]+" "+labels["code"])
	}
	assert.Contains(t, routes, "GET /api/v1/tables 200")
	assert.Contains(t, routes, "GET /api/v1/games/{id} 404")
	// What build runs.
	require.Contains(t, fams, "go_build_info")
	assert.Equal(t, dto.MetricType_GAUGE, fams["go_build_info"].GetType())
	assert.Equal(t, "no board", fams["arbiter_boards"].Metric[0].Label[0].GetValue())

	problems, err := promlint.New(strings.NewReader(body)).Lint()
	require.NoError(t, err)
	assert.Empty(t, problems, "promtool check metrics")
}

// Every site has its own registry: two sites of one director serve their
// metrics side by side, where the process-wide registry would refuse the
// second registration.
func TestMetricsRegistryPerSite(t *testing.T) {
	e := newEvent(t)
	other := New(e.d, testConfig(), slog.New(slog.DiscardHandler))
	for _, s := range []*Site{e.site, other} {
		rec := httptest.NewRecorder()
		req := httptest.NewRequest(http.MethodGet, "/metrics", nil)
		req.RemoteAddr = "127.0.0.1:40000"
		s.ServeHTTP(rec, req)
		require.Equal(t, http.StatusOK, rec.Code)
		assert.Contains(t, rec.Body.String(), "arbiter_moves_total ")
	}
}

// The daemon's other parts (the broadcast pushes, the backups) put their
// metrics on the site's /metrics.
func TestMetricsOfOtherParts(t *testing.T) {
	e := newEvent(t)
	extra := prometheus.NewCounter(prometheus.CounterOpts{Name: "arbiter_test_other_part_total", Help: "A part's count."})
	extra.Add(3)
	s := New(e.d, testConfig(), slog.New(slog.DiscardHandler))
	require.NoError(t, s.RegisterMetrics(extra))
	require.Error(t, s.RegisterMetrics(extra), "twice")
	rec := httptest.NewRecorder()
	req := httptest.NewRequest(http.MethodGet, "/metrics", nil)
	req.RemoteAddr = "127.0.0.1:40000"
	s.ServeHTTP(rec, req)
	require.Equal(t, http.StatusOK, rec.Code)
	assert.Contains(t, rec.Body.String(), "\narbiter_test_other_part_total 3\n")
}
