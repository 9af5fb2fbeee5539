// Package chesscoretest holds benchmark helpers shared by the games built
// on chesscore (chess, Tensor).
package chesscoretest

import (
	"testing"

	"arbiter/internal/cputime"
	"arbiter/rules/internal/chesscore"
)

// BenchPerft measures perft(depth) from bd with the engine's Board (bulk
// counting at the last ply) and reports nodes per CPU second.
func BenchPerft(b *testing.B, bd chesscore.Board, depth int) {
	b.ReportAllocs()
	var nodes uint64
	cpu0 := cputime.Now()
	for b.Loop() {
		nodes += bd.Perft(depth)
	}
	cputime.ReportRate(b, cpu0, float64(nodes), "nodes")
}
