package kvaa

import (
	"math/rand/v2"
	"testing"

	"arbiter/internal/cputime"
	"arbiter/rules"
)

// benchStates plays a random game of at most plies turns under opts and
// returns its turns and the states before each of them.
func benchStates(b *testing.B, opts string, seed uint64, plies int) ([]Turn, []State) {
	g := newGame(b, opts)
	rng := rand.New(rand.NewPCG(seed, seed+1))
	s := g.StartState()
	var turns []Turn
	var states []State
	var buf [MaxTurns]Turn
	for range plies {
		ts := g.Turns(&s, buf[:0])
		if len(ts) == 0 {
			break
		}
		t := ts[rng.IntN(len(ts))]
		states = append(states, s)
		turns = append(turns, t)
		g.Apply(&s, t)
	}
	return turns, states
}

// BenchmarkParseRecord reads the record of a random game with placements
// and captures: tags, entry numbers, turns and the result.
func BenchmarkParseRecord(b *testing.B) {
	g := newGame(b, "placement=4.5.1.1")
	turns, _ := benchStates(b, "placement=4.5.1.1", 3, 120)
	text, err := NewRecord(g, turns, rules.Ongoing, "", Tag{"Event", "Bench"}).Format()
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	cpu0 := cputime.Now()
	for b.Loop() {
		if _, err := ParseRecord(text); err != nil {
			b.Fatal(err)
		}
	}
	cputime.ReportPerOp(b, cpu0, b.N)
}

// BenchmarkParseKPS reads the positions of a random game.
func BenchmarkParseKPS(b *testing.B) {
	_, states := benchStates(b, "placement=4.5.1.1", 3, 120)
	var texts []string
	for _, s := range states {
		texts = append(texts, s.String())
	}
	b.ReportAllocs()
	cpu0 := cputime.Now()
	for b.Loop() {
		for _, s := range texts {
			if _, err := ParseKPS(s); err != nil {
				b.Fatal(err)
			}
		}
	}
	cputime.ReportPerOp(b, cpu0, b.N)
}
