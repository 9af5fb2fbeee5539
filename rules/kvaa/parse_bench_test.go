package kvaa

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
)

// BenchmarkParseRecord reads testdata/record_r7.txt.
func BenchmarkParseRecord(b *testing.B) {
	data, err := os.ReadFile(filepath.Join("testdata", "record_r7.txt"))
	require.NoError(b, err)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := ParseRecord(string(data)); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkParseKPS reads the start position and two of the spec's.
func BenchmarkParseKPS(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		for _, s := range []string{StartKPS, kpsT9, kpsT14} {
			if _, err := ParseKPS(s); err != nil {
				b.Fatalf("%q: %v", s, err)
			}
		}
	}
}
