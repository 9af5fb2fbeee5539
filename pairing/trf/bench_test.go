package trf

import (
	"bytes"
	"fmt"
	"io"
	"math/rand/v2"
	"testing"
)

// benchTournament builds a 500-player, 11-round event with every kind of
// line the reader knows: header records, XX extensions, scoring, players
// with played games, and forfeits.
func benchTournament() *Tournament {
	const players, rounds = 500, 11
	rng := rand.New(rand.NewPCG(11, 3))
	t := &Tournament{
		Name: "Bench Open", City: "Oslo", Federation: "NOR", StartDate: "2026/01/01", EndDate: "2026/01/09",
		Arbiter: "Chief, Anna", TimeControl: "90'+30\"", Rounds: rounds, InitialColour: 'w',
		System: "FIDE_DUTCH_2026", Scoring: DefaultScoring,
		Accelerations: map[int][]float64{},
		Forbidden:     [][2]int{{1, 2}, {3, 4}},
	}
	results := []byte{'1', '0', '=', '+', 'W', 'D', 'L'}
	opposite := map[byte]byte{'1': '0', '0': '1', '=': '=', '+': '-', 'W': 'L', 'D': 'D', 'L': 'W'}
	for i := range players {
		t.Players = append(t.Players, Player{ID: i + 1, Sex: 'm', Title: "FM", Name: fmt.Sprintf("Player, Number %d", i+1),
			Rating: 1200 + rng.IntN(1500), Federation: "NOR", FideID: fmt.Sprint(1000000 + i), Birth: "1990/01/02", Rank: i + 1})
		if i%50 == 0 {
			t.Accelerations[i+1] = []float64{1, 1, 0.5}
		}
	}
	for range rounds {
		order := rng.Perm(players)
		for k := 0; k+1 < len(order); k += 2 {
			a, b := &t.Players[order[k]], &t.Players[order[k+1]]
			res := results[rng.IntN(len(results))]
			a.Games = append(a.Games, Game{Opponent: b.ID, Colour: 'w', Result: res})
			b.Games = append(b.Games, Game{Opponent: a.ID, Colour: 'b', Result: opposite[res]})
		}
	}
	for i := range t.Players {
		for _, g := range t.Players[i].Games {
			t.Players[i].Points += t.Scoring.Points(g)
		}
	}
	return t
}

// BenchmarkParse reads a 500-player, 11-round file.
func BenchmarkParse(b *testing.B) {
	var buf bytes.Buffer
	if err := benchTournament().Write(&buf); err != nil {
		b.Fatal(err)
	}
	data := buf.Bytes()
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Parse(data); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkWrite writes a 500-player, 11-round file.
func BenchmarkWrite(b *testing.B) {
	t := benchTournament()
	b.ReportAllocs()
	for b.Loop() {
		if err := t.Write(io.Discard); err != nil {
			b.Fatal(err)
		}
	}
}
