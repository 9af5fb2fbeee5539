package tensor

import (
	"bytes"
	"os"
	"testing"

	"arbiter/internal/cputime"
)

// BenchmarkImportPGN imports the sample game: TLAN parsing of every move
// (routes, bounces, pushes, monster hops) and its legality check.
func BenchmarkImportPGN(b *testing.B) {
	data, err := os.ReadFile("testdata/sample.pgn")
	if err != nil {
		b.Fatal(err)
	}
	g := mustGame(b)
	b.ReportAllocs()
	cpu0 := cputime.Now()
	for b.Loop() {
		if _, err := g.ImportPGN(bytes.NewReader(data)); err != nil {
			b.Fatal(err)
		}
	}
	cputime.ReportPerOp(b, cpu0, b.N)
}
