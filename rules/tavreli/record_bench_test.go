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

// BenchmarkFormatGame writes the record of a 160-ply random game in
// canonical notation.
func BenchmarkFormatGame(b *testing.B) {
	rec := benchRecord(b, 5, 160)
	b.ReportAllocs()
	cpu0 := cputime.Now()
	for b.Loop() {
		_ = rec.Format(Latin, Array{})
	}
	cputime.ReportPerOp(b, cpu0, b.N)
}
