package pairing

import (
	"compress/gzip"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sort"
	"testing"

	"arbiter/internal/cputime"
	"arbiter/pairing/trf"
)

// syntheticHistory builds a plausible history of `rounds` rounds for n
// players without the engine: each round pairs neighbours in score order,
// avoiding rematches, and alternates colours. It feeds the benchmarks,
// which need large late-round tournaments quickly.
func syntheticHistory(n, rounds int, seed uint64) *trf.Tournament {
	rng := rand.New(rand.NewPCG(seed, 99))
	t := &trf.Tournament{Rounds: rounds + 2, InitialColour: 'w', Scoring: trf.DefaultScoring}
	for i := 0; i < n; i++ {
		t.Players = append(t.Players, trf.Player{ID: i + 1, Rating: 2800 - i})
	}
	score := make([]float64, n)
	met := make([]map[int]bool, n)
	for i := range met {
		met[i] = map[int]bool{}
	}
	for r := 0; r < rounds; r++ {
		order := make([]int, n)
		for i := range order {
			order[i] = i
		}
		sort.SliceStable(order, func(a, b int) bool { return score[order[a]] > score[order[b]] })
		used := make([]bool, n)
		for k, a := range order {
			if used[a] {
				continue
			}
			used[a] = true
			partner := -1
			for _, b := range order[k+1:] {
				if !used[b] && !met[a][b] {
					partner = b
					break
				}
			}
			if partner < 0 {
				t.Players[a].Games = append(t.Players[a].Games, trf.Game{Colour: '-', Result: 'U'})
				score[a]++
				continue
			}
			b := partner
			used[b] = true
			met[a][b], met[b][a] = true, true
			ca, cb := byte('w'), byte('b')
			if (r+k)%2 == 1 {
				ca, cb = cb, ca
			}
			x := rng.IntN(3)
			res := [3][2]byte{{'1', '0'}, {'=', '='}, {'0', '1'}}[x]
			score[a] += [3]float64{1, 0.5, 0}[x]
			score[b] += [3]float64{0, 0.5, 1}[x]
			t.Players[a].Games = append(t.Players[a].Games, trf.Game{Opponent: b + 1, Colour: ca, Result: res[0]})
			t.Players[b].Games = append(t.Players[b].Games, trf.Game{Opponent: a + 1, Colour: cb, Result: res[1]})
		}
	}
	return t
}

func benchmarkPair(b *testing.B, n, rounds int) {
	benchmarkRound(b, syntheticHistory(n, rounds, 1))
}

// benchmarkRound pairs the next round of t.
func benchmarkRound(b *testing.B, t *trf.Tournament) {
	b.ReportAllocs()
	b.ResetTimer()
	// CPU time next to wall time: the shared machine's load inflates ns/op.
	start := cputime.Now()
	for b.Loop() {
		if _, err := Pair(t, Options{}); err != nil {
			b.Fatal(err)
		}
	}
	cputime.ReportPerOp(b, start, b.N)
}

// BenchmarkPair pairs round 1 and a late round of 100, 500 and 2,000
// players, and the same rounds with one player fewer: an odd number of
// players leaves one unpaired (the bye).
func BenchmarkPair(b *testing.B) {
	for _, c := range []struct{ n, rounds int }{{100, 0}, {100, 5}, {500, 0}, {500, 6}, {2000, 0}, {2000, 8},
		{99, 0}, {99, 5}, {499, 0}, {499, 6}, {1999, 0}, {1999, 8}} {
		b.Run(fmt.Sprintf("players=%d/round=%d", c.n, c.rounds+1), func(b *testing.B) { benchmarkPair(b, c.n, c.rounds) })
	}
}

// BenchmarkPairGenerated pairs every round of a generated 2,000-player
// tournament of nine rounds, with forfeits, withdrawals and requested
// byes, from the history before it. The file is what
//
//	arbiter generate --dutch gen.cfg -o generated-2000.trf -s 7
//
// wrote for a gen.cfg of PlayersNumber=2000, RoundsNumber=9,
// ForfeitRate=20, RetiredRate=100, HalfPointByeRate=100 and
// ZeroPointByeRate=100. Its early rounds have few, large score groups:
// brackets of a thousand players, unlike the late rounds of
// BenchmarkPair.
func BenchmarkPairGenerated(b *testing.B) {
	f, err := os.Open(filepath.Join("testdata", "generated-2000.trf.gz"))
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		b.Fatal(err)
	}
	data, err := io.ReadAll(zr)
	if err != nil {
		b.Fatal(err)
	}
	tour, err := trf.Parse(data)
	if err != nil {
		b.Fatal(err)
	}
	tour.InitialColour = InferInitialColour(tour)
	for r := 1; r <= tour.PlayedRounds(); r++ {
		before := BeforeRound(tour, r)
		b.Run(fmt.Sprintf("round=%d", r), func(b *testing.B) { benchmarkRound(b, before) })
	}
}
