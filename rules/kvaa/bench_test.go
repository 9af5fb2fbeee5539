package kvaa

import (
	"os"
	"testing"

	"arbiter/internal/cputime"
)

func BenchmarkPerft(b *testing.B) {
	for _, bc := range []struct {
		name, opts string
		depth      int
	}{
		{"default/6", "", 6},
		{"default/8", "", 8},
		{"R5+P1/6", "scheme=R5,placement=4.5.1.1", 6},
	} {
		b.Run(bc.name, func(b *testing.B) {
			g := newGame(b, bc.opts)
			s := g.StartState()
			var n uint64
			cpu0 := cputime.Now()
			for b.Loop() {
				n = g.Perft(&s, bc.depth)
			}
			cputime.ReportRate(b, cpu0, float64(n)*float64(b.N), "nodes")
		})
	}
}

func BenchmarkTurns(b *testing.B) {
	g := newGame(b, "placement=4.5.1.1")
	s := mustState(b, g, kpsT14)
	var buf [MaxTurns]Turn
	cpu0 := cputime.Now()
	for b.Loop() {
		_ = g.Turns(&s, buf[:0])
	}
	cputime.ReportPerOp(b, cpu0, b.N)
}

func BenchmarkView(b *testing.B) {
	g := newGame(b, "")
	p := g.Position(mustState(b, g, kpsT9))
	for b.Loop() {
		_ = p.View()
	}
}

// BenchmarkReachable enumerates complete games from a reduced set-up; the
// full enumeration under the default options is BenchmarkReachableFull.
func BenchmarkReachable(b *testing.B) {
	g := newGame(b, "")
	s := mustState(b, g, "N.N/../.../../S.S S 1 1 - - 0 1")
	for b.Loop() {
		_ = g.Reachable(s)
	}
}

// BenchmarkReachableFull enumerates every position reachable from the
// standard start under the default options. It takes minutes and over a
// gigabyte, so it runs only with KVAA_ENUMERATE_FULL=1.
func BenchmarkReachableFull(b *testing.B) {
	if os.Getenv("KVAA_ENUMERATE_FULL") == "" {
		b.Skip("set KVAA_ENUMERATE_FULL=1 to enumerate the full game")
	}
	g := newGame(b, "")
	var c Census
	for b.Loop() {
		c = g.Reachable(g.StartState())
	}
	b.ReportMetric(float64(c.Positions), "positions")
	b.ReportMetric(float64(c.Terminal), "terminal")
	b.ReportMetric(float64(c.Turns), "turns")
}
