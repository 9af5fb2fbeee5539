package shogi

import (
	"testing"

	"arbiter/internal/cputime"
)

func benchPerft(b *testing.B, sfen string, depth int, nodes uint64) {
	bd, err := ParseSFEN(sfen)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	start := cputime.Now()
	for b.Loop() {
		if n := bd.Perft(depth); n != nodes {
			b.Fatalf("perft %d = %d, want %d", depth, n, nodes)
		}
	}
	cputime.ReportPerOp(b, start, b.N)
	cputime.ReportRate(b, start, float64(nodes)*float64(b.N), "nodes")
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
	start := cputime.Now()
	for b.Loop() {
		if n := len(bd.GenerateLegal(buf[:0])); n != 593 {
			b.Fatalf("%d moves", n)
		}
	}
	cputime.ReportPerOp(b, start, b.N)
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
