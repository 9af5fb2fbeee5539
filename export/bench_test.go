package export_test

import (
	"io"
	"testing"

	"arbiter/export"
)

func BenchmarkScoresheet(b *testing.B) {
	f := newFixture(b)
	s, err := export.Load(f.db, "bench", f.games["shogi"].ID)
	if err != nil {
		b.Fatal(err)
	}
	for _, format := range []string{"kif", "csa"} {
		b.Run(format, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if err := s.Write(io.Discard, format); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
	b.Run("html", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if err := s.WriteHTML(io.Discard); err != nil {
				b.Fatal(err)
			}
		}
	})
}

func BenchmarkArchive(b *testing.B) {
	f := newFixture(b)
	b.ReportAllocs()
	for b.Loop() {
		if err := export.Archive(io.Discard, f.db, "bench", f.d); err != nil {
			b.Fatal(err)
		}
	}
}
