package chess

import (
	"bytes"
	"io"
	"os"
	"testing"

	"arbiter/internal/cputime"
)

// BenchmarkWritePGN exports the test games in SAN.
func BenchmarkWritePGN(b *testing.B) {
	data, err := os.ReadFile("testdata/import.pgn")
	if err != nil {
		b.Fatal(err)
	}
	games, err := ImportPGN(bytes.NewReader(data))
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	cpu0 := cputime.Now()
	for b.Loop() {
		for _, g := range games {
			if err := WritePGN(io.Discard, g.Record); err != nil {
				b.Fatal(err)
			}
		}
	}
	cputime.ReportPerOp(b, cpu0, b.N)
}
