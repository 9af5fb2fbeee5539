package chesscore

import (
	"fmt"
	"io"
	"strings"
	"testing"
	"time"
)

// benchPGN is a 40-game PGN text with tags, clocks, comments, NAGs and
// variations, the shape of an exported round.
func benchPGN() string {
	var sb strings.Builder
	for g := range 40 {
		fmt.Fprintf(&sb, "[Event \"Bench \\\"Open\\\"\"]\n[Site \"Oslo\"]\n[Date \"2026.01.01\"]\n[Round \"%d\"]\n", g+1)
		sb.WriteString("[White \"Doe, Jane\"]\n[Black \"Roe, Richard\"]\n[Result \"1/2-1/2\"]\n[TimeControl \"5400+30\"]\n\n")
		for m := range 60 {
			fmt.Fprintf(&sb, "%d. Nf3 {[%%clk 1:%02d:00] thinking} Nf6 $1 ", m+1, m%60)
			if m%10 == 0 {
				sb.WriteString("(Nc6 {side line} (e5)) ")
			}
		}
		sb.WriteString("1/2-1/2\n\n")
	}
	return sb.String()
}

// BenchmarkReadPGN reads a 40-game, 120-ply-per-game PGN text.
func BenchmarkReadPGN(b *testing.B) {
	text := benchPGN()
	b.SetBytes(int64(len(text)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := ReadPGN(strings.NewReader(text)); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkWritePGN writes the games BenchmarkReadPGN reads.
func BenchmarkWritePGN(b *testing.B) {
	recs, err := ReadPGN(strings.NewReader(benchPGN()))
	if err != nil {
		b.Fatal(err)
	}
	recs[0].Moves[0].Clock, recs[0].Moves[0].HasClock = 90*time.Minute, true
	b.ReportAllocs()
	for b.Loop() {
		for i := range recs {
			if err := recs[i].WritePGN(io.Discard); err != nil {
				b.Fatal(err)
			}
		}
	}
}

// BenchmarkParseFEN reads a middle-game position of orthodox chess.
func BenchmarkParseFEN(b *testing.B) {
	c, err := NewConfig(ConfigSpec{Width: 8, Height: 8, Start: "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
		KingFile: 4, RookFiles: [2]int{7, 0}, CastleDests: [2][]int{{6}, {2}}})
	if err != nil {
		b.Fatal(err)
	}
	const fen = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
	b.ReportAllocs()
	for b.Loop() {
		if _, err := c.ParseFEN(fen); err != nil {
			b.Fatal(err)
		}
	}
}
