package tavreli

import (
	"math/rand/v2"
	"testing"

	"arbiter/internal/cputime"
)

// benchRecord plays a random game of at most plies moves from the initial
// position and returns it as a record.
func benchRecord(b *testing.B, seed uint64, plies int) *Record {
	rng := rand.New(rand.NewPCG(seed, seed+1))
	rec := &Record{Start: StartBoard(), Result: "*"}
	bd := rec.Start
	for range plies {
		ms := bd.GenerateLegal(nil)
		if len(ms) == 0 {
			break
		}
		m := ms[rng.IntN(len(ms))]
		rec.Plies = append(rec.Plies, Ply{Move: m})
		bd.Make(m)
	}
	return rec
}

// BenchmarkParseGame reads a 160-ply record of a random game in each
// alphabet: move token syntax, alphabet detection and the legality match.
func BenchmarkParseGame(b *testing.B) {
	rec := benchRecord(b, 5, 160)
	for _, alpha := range []Alphabet{Latin, Cyrillic} {
		text := rec.Format(alpha, Array{})
		b.Run(alpha.String(), func(b *testing.B) {
			b.ReportAllocs()
			cpu0 := cputime.Now()
			for b.Loop() {
				if _, err := ParseGame(text); err != nil {
					b.Fatal(err)
				}
			}
			cputime.ReportPerOp(b, cpu0, b.N)
		})
	}
}

// BenchmarkFormatGame writes the same record in canonical notation.
func BenchmarkFormatGame(b *testing.B) {
	rec := benchRecord(b, 5, 160)
	b.ReportAllocs()
	cpu0 := cputime.Now()
	for b.Loop() {
		_ = rec.Format(Latin, Array{})
	}
	cputime.ReportPerOp(b, cpu0, b.N)
}

// BenchmarkParseTFEN reads and validates positions of random games.
func BenchmarkParseTFEN(b *testing.B) {
	rng := rand.New(rand.NewPCG(7, 8))
	var texts []string
	for _, bd := range randomPositions(rng, []*Board{new(StartBoard())}, 50, 80) {
		texts = append(texts, bd.TFEN())
	}
	b.ReportAllocs()
	cpu0 := cputime.Now()
	for b.Loop() {
		for _, s := range texts {
			if _, err := ParseTFEN(s, AnalysisMode); err != nil {
				b.Fatal(err)
			}
		}
	}
	cputime.ReportPerOp(b, cpu0, b.N)
}
