package chess

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
)

// BenchmarkImportPGN reads and replays the games of testdata/import.pgn.
func BenchmarkImportPGN(b *testing.B) {
	data, err := os.ReadFile(filepath.Join("testdata", "import.pgn"))
	require.NoError(b, err)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := ImportPGN(bytes.NewReader(data)); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkParseMove reads back every legal move of Kiwipete in SAN, long
// algebraic and UCI: an op is one pass over all of them.
func BenchmarkParseMove(b *testing.B) {
	p, err := ParseFEN("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1")
	require.NoError(b, err)
	var texts []string
	for _, m := range p.Legal() {
		texts = append(texts, p.FormatMove(m), LongAlgebraic(p, m), m.String())
	}
	b.ReportAllocs()
	for b.Loop() {
		for _, s := range texts {
			if _, err := p.ParseMove(s); err != nil {
				b.Fatalf("%q: %v", s, err)
			}
		}
	}
}

// BenchmarkParseFEN reads the FEN of Kiwipete.
func BenchmarkParseFEN(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		if _, err := ParseFEN("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"); err != nil {
			b.Fatal(err)
		}
	}
}
