package cputime

import (
	"runtime"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

type fakeBench struct {
	elapsed time.Duration
	metrics map[string]float64
}

func (f *fakeBench) ReportMetric(n float64, unit string) { f.metrics[unit] = n }
func (f *fakeBench) Elapsed() time.Duration              { return f.elapsed }

// TestNowAdvances burns CPU and checks that Now sees it, and that the
// reports put it into their metrics.
func TestNowAdvances(t *testing.T) {
	start := Now()
	if start == 0 {
		// now_other.go: the loop below would never end.
		t.Skip("CPU time is not read on " + runtime.GOOS)
	}
	x := 0
	for Since(start) < 20*time.Millisecond {
		for i := range 1000 {
			x += i
		}
	}
	require.NotZero(t, x)
	b := &fakeBench{elapsed: time.Second, metrics: map[string]float64{}}
	ReportRate(b, start, 1000, "nodes")
	ReportPerOp(b, start, 10)
	require.Equal(t, 1000.0, b.metrics["nodes/s"])
	// At least 20 ms of CPU for 1,000 nodes: at most 50,000 per CPU second.
	require.Positive(t, b.metrics["nodes/cpu-s"])
	require.LessOrEqual(t, b.metrics["nodes/cpu-s"], 50000.0)
	require.GreaterOrEqual(t, b.metrics["cpu-ns/op"], float64(2*time.Millisecond))
}
