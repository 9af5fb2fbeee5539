package kifu

import (
	"os"
	"path/filepath"
	"testing"
)

// benchRead reads every file of the pattern in testdata once per loop.
func benchRead(b *testing.B, pattern string, read func([]byte) (*Record, error)) {
	names, err := filepath.Glob(filepath.Join("testdata", pattern))
	if err != nil || len(names) == 0 {
		b.Fatalf("no %s in testdata: %v", pattern, err)
	}
	var files [][]byte
	for _, n := range names {
		data, err := os.ReadFile(n)
		if err != nil {
			b.Fatal(err)
		}
		files = append(files, data)
	}
	b.ReportAllocs()
	for b.Loop() {
		for i, data := range files {
			if _, err := read(data); err != nil {
				b.Fatalf("%s: %v", names[i], err)
			}
		}
	}
}

func BenchmarkReadKIF(b *testing.B) { benchRead(b, "*.kif*", ReadKIF) }
func BenchmarkReadKI2(b *testing.B) { benchRead(b, "*.ki2*", ReadKI2) }
func BenchmarkReadCSA(b *testing.B) { benchRead(b, "*.csa", ReadCSA) }
