package shogi

import (
	"syscall"
	"testing"
	"time"
)

// cpuTime returns the process's user+system CPU time, so that benchmarks
// can report CPU per operation as well as wall time on a loaded machine.
func cpuTime(b *testing.B) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		b.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// reportCPU adds the cpu-ns/op metric for the loop that began at start.
func reportCPU(b *testing.B, start time.Duration) {
	b.ReportMetric(float64(cpuTime(b)-start)/float64(b.N), "cpu-ns/op")
}

func benchPerft(b *testing.B, sfen string, depth int, nodes uint64) {
	bd, err := ParseSFEN(sfen)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	start := cpuTime(b)
	for b.Loop() {
		if n := bd.Perft(depth); n != nodes {
			b.Fatalf("perft %d = %d, want %d", depth, n, nodes)
		}
	}
	reportCPU(b, start)
	b.ReportMetric(float64(nodes)*float64(b.N)/b.Elapsed().Seconds(), "nodes/s")
}

// BenchmarkPerft5 is the speed target: depth 5 from the initial position
// in under 2 s.
func BenchmarkPerft5(b *testing.B) { benchPerft(b, StartSFEN, 5, 19861490) }

func BenchmarkPerftMatsuri3(b *testing.B) { benchPerft(b, matsuriSFEN, 3, 4809015) }

// BenchmarkPerftMatsuri4 also checks spec 7.1's depth-4 count, too slow
// for the test run.
func BenchmarkPerftMatsuri4(b *testing.B) { benchPerft(b, matsuriSFEN, 4, 516925165) }

// BenchmarkGenerateMax is the other target: the 593-move position in
// under 20 µs.
func BenchmarkGenerateMax(b *testing.B) {
	bd, err := ParseSFEN(maxSFEN)
	if err != nil {
		b.Fatal(err)
	}
	buf := make([]Move, 0, MaxMoves)
	b.ReportAllocs()
	start := cpuTime(b)
	for b.Loop() {
		if n := len(bd.GenerateLegal(buf[:0])); n != 593 {
			b.Fatalf("%d moves", n)
		}
	}
	reportCPU(b, start)
}

func BenchmarkGenerateStart(b *testing.B) {
	bd, err := ParseSFEN(StartSFEN)
	if err != nil {
		b.Fatal(err)
	}
	buf := make([]Move, 0, MaxMoves)
	b.ReportAllocs()
	for b.Loop() {
		bd.GenerateLegal(buf[:0])
	}
}

// BenchmarkLegalViews is what the move reconstructor does once per turn:
// the View of every legal successor.
func BenchmarkLegalViews(b *testing.B) {
	g, _ := NewGame(nil)
	p, err := g.Position(matsuriSFEN)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		for _, m := range p.Moves() {
			q := p.play(m)
			_ = q.View()
		}
	}
}
