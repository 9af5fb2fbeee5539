package tensor

import (
	"testing"

	"arbiter/internal/cputime"
	"arbiter/rules/internal/chesscore/chesscoretest"
)

// BenchmarkPerft is perft(3) from the initial position.
func BenchmarkPerft(b *testing.B) {
	chesscoretest.BenchPerft(b, mustGame(b).StartPosition().Board(), 3)
}

// BenchmarkPerftMidgame uses a position with monsters in play for both
// sides (passing over, bounces, pushes, chains, castling rights).
func BenchmarkPerftMidgame(b *testing.B) {
	chesscoretest.BenchPerft(b, mustFEN(b, "r4k3r/pT3p1p1p/4t5/1PpP6/5T4/10/2p6P/R4K3R w KQkq c6 0 1").Board(), 3)
}

// BenchmarkLegal measures the arbitration API: Legal with canonical TLAN
// for every move, as the move reconstructor calls it once per turn.
func BenchmarkLegal(b *testing.B) {
	p := mustFEN(b, "r4k3r/pT3p1p1p/4t5/1PpP6/5T4/10/2p6P/R4K3R w KQkq c6 0 1")
	b.ReportAllocs()
	cpu0 := cputime.Now()
	for b.Loop() {
		_ = p.Legal()
	}
	cputime.ReportPerOp(b, cpu0, b.N)
}

// BenchmarkView measures the physical view of a successor position.
func BenchmarkView(b *testing.B) {
	p := mustGame(b).StartPosition()
	b.ReportAllocs()
	for b.Loop() {
		_ = p.View()
	}
}
