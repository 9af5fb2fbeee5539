package tensor

import (
	"testing"

	"arbiter/internal/cputime"
	"arbiter/rules/internal/chesscore"
)

// benchPerft measures perft(3) from bd with the engine's Board (bulk
// counting at the last ply).
func benchPerft(b *testing.B, bd chesscore.Board) {
	b.ReportAllocs()
	var nodes uint64
	cpu0 := cputime.Now()
	for b.Loop() {
		nodes += bd.Perft(3)
	}
	cputime.ReportRate(b, cpu0, float64(nodes), "nodes")
}

// BenchmarkPerft is perft(3) from the initial position.
func BenchmarkPerft(b *testing.B) { benchPerft(b, mustGame(b).StartPosition().Board()) }

// BenchmarkPerftMidgame uses a position with monsters in play for both
// sides (passing over, bounces, pushes, chains, castling rights).
func BenchmarkPerftMidgame(b *testing.B) {
	benchPerft(b, mustFEN(b, "r4k3r/pT3p1p1p/4t5/1PpP6/5T4/10/2p6P/R4K3R w KQkq c6 0 1").Board())
}

// BenchmarkLegal measures the arbitration API: Legal with canonical TLAN
// for every move, as the move reconstructor calls it once per turn.
func BenchmarkLegal(b *testing.B) {
	p := mustFEN(b, "r4k3r/pT3p1p1p/4t5/1PpP6/5T4/10/2p6P/R4K3R w KQkq c6 0 1")
	b.ReportAllocs()
	for b.Loop() {
		_ = p.Legal()
	}
}

// BenchmarkView measures the physical view of a successor position.
func BenchmarkView(b *testing.B) {
	p := mustGame(b).StartPosition()
	b.ReportAllocs()
	for b.Loop() {
		_ = p.View()
	}
}
