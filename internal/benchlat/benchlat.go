// Package benchlat reports latency percentiles from benchmarks, so that
// every benchmark with a latency goal names its figures the same way.
package benchlat

import (
	"slices"
	"testing"
	"time"
)

// Report sorts lat and reports its p50 and p99 in milliseconds, as
// prefix+"p50-ms" and prefix+"p99-ms". It reports nothing for no samples.
func Report(b *testing.B, lat []time.Duration, prefix string) {
	if len(lat) == 0 {
		return
	}
	slices.Sort(lat)
	at := func(q float64) float64 {
		return float64(lat[min(len(lat)-1, int(q*float64(len(lat))))]) / float64(time.Millisecond)
	}
	b.ReportMetric(at(0.50), prefix+"p50-ms")
	b.ReportMetric(at(0.99), prefix+"p99-ms")
}
