package tavreli

import (
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"
)

// BenchmarkParseGame reads the record files of testdata once per loop.
func BenchmarkParseGame(b *testing.B) {
	names, err := filepath.Glob(filepath.Join("testdata", "game-*.txt"))
	if err != nil || len(names) == 0 {
		b.Fatalf("no records in testdata: %v", err)
	}
	var texts []string
	for _, n := range names {
		data, err := os.ReadFile(n)
		if err != nil {
			b.Fatal(err)
		}
		texts = append(texts, string(data))
	}
	b.ReportAllocs()
	for b.Loop() {
		for i, s := range texts {
			if _, err := ParseGame(s); err != nil {
				b.Fatalf("%s: %v", names[i], err)
			}
		}
	}
}

// BenchmarkParseMove reads back the text of every legal move of 20
// positions from random games, in both alphabets: an op is one pass over
// all of them.
func BenchmarkParseMove(b *testing.B) {
	rng := rand.New(rand.NewPCG(5, 6))
	type item struct {
		b    Board
		text string
	}
	var items []item
	for _, bd := range randomPositions(rng, []*Board{new(StartBoard())}, 20, 60) {
		for _, m := range bd.GenerateLegal(nil) {
			for _, a := range []Alphabet{Latin, Cyrillic} {
				items = append(items, item{bd, FormatMove(&bd, m, a)})
			}
		}
	}
	b.ReportAllocs()
	for b.Loop() {
		for i := range items {
			if _, err := ParseMoveText(&items[i].b, items[i].text); err != nil {
				b.Fatalf("%q: %v", items[i].text, err)
			}
		}
	}
}

// BenchmarkParseTFEN reads the TFEN of every position of the spec's counts.
func BenchmarkParseTFEN(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		for _, tc := range specCounts {
			if _, err := ParseTFEN(tc.tfen, tc.mode); err != nil {
				b.Fatalf("%s: %v", tc.name, err)
			}
		}
	}
}
