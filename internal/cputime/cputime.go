// Package cputime measures the CPU time the process has used, for
// benchmarks that report speed per CPU second: on a shared machine wall
// time swings with the load of others, CPU time much less.
package cputime

import "time"

// Bench is what the reports need of a benchmark; *testing.B has it.
type Bench interface {
	ReportMetric(n float64, unit string)
	Elapsed() time.Duration
}

// Since returns the CPU time used since start, a value of Now.
func Since(start time.Duration) time.Duration { return Now() - start }

// ReportPerOp adds the metric cpu-ns/op: the CPU time since start divided
// by the n operations of the benchmark loop.
func ReportPerOp(b Bench, start time.Duration, n int) {
	if cpu := Since(start); cpu > 0 && n > 0 {
		b.ReportMetric(float64(cpu.Nanoseconds())/float64(n), "cpu-ns/op")
	}
}

// ReportRate adds the metrics unit/s (per wall second) and unit/cpu-s (per
// CPU second since start) for count things done, such as perft nodes.
func ReportRate(b Bench, start time.Duration, count float64, unit string) {
	b.ReportMetric(count/b.Elapsed().Seconds(), unit+"/s")
	if cpu := Since(start); cpu > 0 {
		b.ReportMetric(count/cpu.Seconds(), unit+"/cpu-s")
	}
}
