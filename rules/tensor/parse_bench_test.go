package tensor

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
)

// BenchmarkImportPGN reads and replays the sample record of testdata.
func BenchmarkImportPGN(b *testing.B) {
	g := mustGame(b)
	data, err := os.ReadFile(filepath.Join("testdata", "sample.pgn"))
	require.NoError(b, err)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := g.ImportPGN(bytes.NewReader(data)); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkParseMove reads back every legal move of a position with
// monsters in play, in canonical TLAN and in the record form: an op is
// one pass over all of them.
func BenchmarkParseMove(b *testing.B) {
	p := mustFEN(b, "r4k3r/pT3p1p1p/4t5/1PpP6/5T4/10/2p6P/R4K3R w KQkq c6 0 1")
	var texts []string
	for _, m := range p.Legal() {
		texts = append(texts, m.String(), p.FormatMove(m))
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

// BenchmarkParseFEN reads the FEN of the same position.
func BenchmarkParseFEN(b *testing.B) {
	g := mustGame(b)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := g.ParseFEN("r4k3r/pT3p1p1p/4t5/1PpP6/5T4/10/2p6P/R4K3R w KQkq c6 0 1"); err != nil {
			b.Fatal(err)
		}
	}
}
