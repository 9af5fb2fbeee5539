package shogi

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// BenchmarkParseSFEN reads the start and the 593-move positions.
func BenchmarkParseSFEN(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		for _, s := range []string{StartSFEN, matsuriSFEN, maxSFEN} {
			if _, err := ParseSFEN(s); err != nil {
				b.Fatalf("%q: %v", s, err)
			}
		}
	}
}

// BenchmarkParseMove reads back every legal move of the matsuri position
// in KI2, KIF, CSA and USI: an op is one pass over all of them.
func BenchmarkParseMove(b *testing.B) {
	g, err := NewGame(nil)
	require.NoError(b, err)
	p, err := g.Position(matsuriSFEN)
	require.NoError(b, err)
	var texts []string
	for _, m := range p.b.GenerateLegal(nil) {
		texts = append(texts, p.KI2Move(m), p.KIFMove(m, false), p.CSAMove(m), m.String())
	}
	b.ReportAllocs()
	for b.Loop() {
		for _, s := range texts {
			if _, err := p.ParseMoveText(s); err != nil {
				b.Fatalf("%q: %v", s, err)
			}
		}
	}
}

// BenchmarkFouls lists the foul moves of the matsuri position.
func BenchmarkFouls(b *testing.B) {
	bd, err := ParseSFEN(matsuriSFEN)
	require.NoError(b, err)
	buf := make([]FoulMove, 0, 4096)
	b.ReportAllocs()
	for b.Loop() {
		buf = bd.Fouls(buf[:0])
	}
}
