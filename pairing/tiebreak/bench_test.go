package tiebreak

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// synthetic builds a Swiss-like event: each round the players are sorted by
// score and paired neighbour to neighbour, with random results, some
// forfeits, half-point byes and a PAB for the odd one out.
func synthetic(players, rounds int, seed uint64) *Tournament {
	rng := rand.New(rand.NewPCG(seed, 1))
	t := &Tournament{Rounds: rounds, Scoring: DefaultScoring, Players: make([]Player, players)}
	score := make([]float64, players)
	for i := range t.Players {
		t.Players[i] = Player{ID: i + 1, Rating: 1000 + rng.IntN(1800), Games: make([]Game, rounds)}
	}
	order := make([]int, players)
	for r := 0; r < rounds; r++ {
		for i := range order {
			order[i] = i
		}
		slices.SortStableFunc(order, func(a, b int) int { return cmpFloat(score[b], score[a]) })
		var pool []int
		for _, p := range order {
			if rng.IntN(40) == 0 {
				t.Players[p].Games[r] = Game{Result: HalfBye}
				score[p] += 0.5
				continue
			}
			pool = append(pool, p)
		}
		if len(pool)%2 == 1 {
			p := pool[len(pool)-1]
			pool = pool[:len(pool)-1]
			t.Players[p].Games[r] = Game{Result: PairingBye}
			score[p]++
		}
		for i := 0; i < len(pool); i += 2 {
			a, b := pool[i], pool[i+1]
			ra, rb := Win, Loss
			switch x := rng.IntN(100); {
			case x < 3:
				ra, rb = ForfeitWin, ForfeitLoss
			case x < 35:
				ra, rb = Draw, Draw
			case x < 65:
				ra, rb = Loss, Win
			}
			t.Players[a].Games[r] = Game{Opponent: b + 1, Colour: White, Result: ra}
			t.Players[b].Games[r] = Game{Opponent: a + 1, Colour: Black, Result: rb}
			score[a] += t.Scoring.Points(ra)
			score[b] += t.Scoring.Points(rb)
		}
	}
	return t
}

// BenchmarkCompute2000x11 ranks a 2,000-player, 11-round event with the
// full list of the reference corpus.
func BenchmarkCompute2000x11(b *testing.B) {
	t := synthetic(2000, 11, 7)
	specs := MustParseSpecs("PTS BH BH/C1 BH/C2 BH/M1 FB AOB SB DE WIN WON BPG BWG REP ARO TPR PTP APRO APPO PS")
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Compute(t, specs, Options{}); err != nil {
			b.Fatal(err)
		}
	}
}

func TestSyntheticConsistent(t *testing.T) {
	tour := synthetic(301, 9, 3)
	st, err := Compute(tour, MustParseSpecs("PTS BH BH/C1 BH/M1 SB DE WIN PS"), Options{})
	require := func(ok bool, format string, args ...any) {
		t.Helper()
		if !ok {
			t.Fatalf(format, args...)
		}
	}
	require(err == nil, "compute: %v", err)
	for i, r := range st.Rows {
		bh, c1, m1 := r.Values[1].Num, r.Values[2].Num, r.Values[3].Num
		require(c1 <= bh && m1 <= c1, "player %d: BH %v ≥ BH/C1 %v ≥ BH/M1 %v", r.ID, bh, c1, m1)
		if i > 0 {
			require(st.Rows[i-1].Points() >= r.Points(), "rows out of points order at %d", i)
		}
	}
}
