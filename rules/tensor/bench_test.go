package tensor

import (
	"testing"

	"arbiter/rules/internal/chesscore"
)

// BenchmarkPerft measures Tensor perft(3) from the initial position with
// the engine's Board (bulk counting at the last ply).
func BenchmarkPerft(b *testing.B) {
	bd := mustGame(b).StartPosition().Board()
	b.ReportAllocs()
	var nodes uint64
	cpu0 := chesscore.CPUTime()
	for b.Loop() {
		nodes += bd.Perft(3)
	}
	b.ReportMetric(float64(nodes)/b.Elapsed().Seconds(), "nodes/s")
	if cpu := chesscore.CPUTime() - cpu0; cpu > 0 {
		b.ReportMetric(float64(nodes)/cpu.Seconds(), "nodes/cpu-s")
	}
}

// BenchmarkPerftMidgame uses a position with monsters in play for both
// sides (passing over, bounces, pushes, chains, castling rights).
func BenchmarkPerftMidgame(b *testing.B) {
	bd := mustFEN(b, "r4k3r/pT3p1p1p/4t5/1PpP6/5T4/10/2p6P/R4K3R w KQkq c6 0 1").Board()
	b.ReportAllocs()
	var nodes uint64
	cpu0 := chesscore.CPUTime()
	for b.Loop() {
		nodes += bd.Perft(3)
	}
	b.ReportMetric(float64(nodes)/b.Elapsed().Seconds(), "nodes/s")
	if cpu := chesscore.CPUTime() - cpu0; cpu > 0 {
		b.ReportMetric(float64(nodes)/cpu.Seconds(), "nodes/cpu-s")
	}
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
