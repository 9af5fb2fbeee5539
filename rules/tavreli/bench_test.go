package tavreli

import (
	"math/bits"
	"math/rand/v2"
	"testing"

	"arbiter/internal/cputime"
)

// benchPerft runs perft from the initial position. Leaves are counted in
// bulk: a depth-1 node counts its legal moves without playing them.
// nodes/s is leaves per wall-clock second; nodes/cpu-s is leaves per CPU
// second of the process, the figure that matters on a loaded machine (the
// benchmark runs on one goroutine, so CPU time is one core's).
func benchPerft(b *testing.B, depth int) {
	start := StartBoard()
	var n uint64
	cpu0 := cputime.Now()
	for b.Loop() {
		bd := start
		n = bd.Perft(depth)
	}
	cputime.ReportRate(b, cpu0, float64(n)*float64(b.N), "nodes")
}

// BenchmarkPerft5 is perft 5 from the initial position (151,453,931
// leaves, bulk counted). It takes several seconds and is skipped with
// -short.
func BenchmarkPerft5(b *testing.B) {
	if testing.Short() {
		b.Skip("perft 5 is long")
	}
	benchPerft(b, 5)
}

// BenchmarkPerft4 is perft 4 from the initial position (3,041,483 leaves,
// bulk counted).
func BenchmarkPerft4(b *testing.B) { benchPerft(b, 4) }

// BenchmarkGenerateLegalStart is legal move generation from the initial
// position into a reused buffer: no allocations.
func BenchmarkGenerateLegalStart(b *testing.B) {
	bd := StartBoard()
	buf := make([]Move, 0, 256)
	cpu0 := cputime.Now()
	for b.Loop() {
		buf = bd.GenerateLegal(buf[:0])
	}
	if len(buf) != 39 {
		b.Fatalf("%d moves", len(buf))
	}
	cputime.ReportPerOp(b, cpu0, b.N)
}

// BenchmarkMakeUnmake plays and takes back every legal move of a middle
// game position with towers.
func BenchmarkMakeUnmake(b *testing.B) {
	bd := StartBoard()
	for _, s := range []string{"e2-e4", "e7-e5", "g1-f3", "b8-c6", "f3xe5", "c6xe5", "d2-d4", "d7-d6"} {
		mt, err := ParseMoveText(&bd, s)
		if err != nil {
			b.Fatal(err)
		}
		bd.Make(mt.Move)
	}
	moves := bd.GenerateLegal(nil)
	cpu0 := cputime.Now()
	for b.Loop() {
		for _, m := range moves {
			u := bd.Make(m)
			bd.Unmake(m, u)
		}
	}
	cputime.ReportPerOp(b, cpu0, b.N)
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(moves)), "ns/move")
}

// BenchmarkIsLegal judges every legal move, and every pseudo-legal one
// of the side to move (pseudoFrom), of 100 positions from random games, one move at a
// time as Position.Play does: an op is one pass over all of them.
func BenchmarkIsLegal(b *testing.B) {
	rng := rand.New(rand.NewPCG(3, 4))
	var boards []Board
	var moves [][]Move
	for _, bd := range randomPositions(rng, []*Board{new(StartBoard())}, 100, 80) {
		ms := bd.GenerateLegal(nil)
		for own := bd.own[bd.side]; own != 0; own &= own - 1 {
			ms = bd.pseudoFrom(int8(bits.TrailingZeros64(own)), bd.side, ms)
		}
		boards, moves = append(boards, bd), append(moves, ms)
	}
	b.ReportAllocs()
	cpu0 := cputime.Now()
	for b.Loop() {
		for i := range boards {
			for _, m := range moves[i] {
				boards[i].IsLegal(m)
			}
		}
	}
	cputime.ReportPerOp(b, cpu0, b.N)
}
