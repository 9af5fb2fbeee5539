package chess

import (
	"flag"
	"testing"

	"github.com/stretchr/testify/require"

	"arbiter/internal/cputime"
	"arbiter/rules"
	"arbiter/rules/internal/chesscore/chesscoretest"
)

// perftCases are published perft counts: the six positions of the
// chessprogramming wiki "Perft Results" page, and the edge-case suite
// posted by Martin Sedlak on TalkChess (en passant pins and discovered
// checks, castling through and into check, promotions, double check,
// stalemate).
var perftCases = []struct {
	name  string
	fen   string
	depth int
	nodes uint64
	long  bool // skipped with -short
	deep  bool // run only with -deep
}{
	{"initial/1", StartFEN, 1, 20, false, false},
	{"initial/2", StartFEN, 2, 400, false, false},
	{"initial/3", StartFEN, 3, 8902, false, false},
	{"initial/4", StartFEN, 4, 197281, false, false},
	{"initial/5", StartFEN, 5, 4865609, false, false},
	{"initial/6", StartFEN, 6, 119060324, true, false},
	{"kiwipete/1", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", 1, 48, false, false},
	{"kiwipete/2", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", 2, 2039, false, false},
	{"kiwipete/3", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", 3, 97862, false, false},
	{"kiwipete/4", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", 4, 4085603, false, false},
	{"kiwipete/5", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", 5, 193690690, true, true},
	{"position3/5", "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", 5, 674624, false, false},
	{"position3/6", "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", 6, 11030083, true, false},
	{"position4/3", "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1", 3, 9467, false, false},
	{"position4/4", "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1", 4, 422333, false, false},
	{"position4/5", "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1", 5, 15833292, true, false},
	{"position4-mirrored/4", "r2q1rk1/pP1p2pp/Q4n2/bbp1p3/Np6/1B3NBn/pPPP1PPP/R3K2R b KQ - 0 1", 4, 422333, false, false},
	{"position5/3", "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8", 3, 62379, false, false},
	{"position5/4", "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8", 4, 2103487, false, false},
	{"position6/3", "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10", 3, 89890, false, false},
	{"position6/4", "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10", 4, 3894594, false, false},
	{"illegal ep 1", "3k4/3p4/8/K1P4r/8/8/8/8 b - - 0 1", 6, 1134888, false, false},
	{"illegal ep 2", "8/8/4k3/8/2p5/8/B2P2K1/8 w - - 0 1", 6, 1015133, false, false},
	{"ep gives check", "8/8/1k6/2b5/2pP4/8/5K2/8 b - d3 0 1", 6, 1440467, false, false},
	{"short castling gives check", "5k2/8/8/8/8/8/8/4K2R w K - 0 1", 6, 661072, false, false},
	{"long castling gives check", "3k4/8/8/8/8/8/8/R3K3 w Q - 0 1", 6, 803711, false, false},
	{"castle rights", "r3k2r/1b4bq/8/8/8/8/7B/R3K2R w KQkq - 0 1", 4, 1274206, false, false},
	{"castling prevented", "r3k2r/8/3Q4/8/8/5q2/8/R3K2R b KQkq - 0 1", 4, 1720476, false, false},
	{"promote out of check", "2K2r2/4P3/8/8/8/8/8/3k4 w - - 0 1", 6, 3821001, false, false},
	{"discovered check", "8/8/1P2K3/8/2n5/1q6/8/5k2 b - - 0 1", 5, 1004658, false, false},
	{"promote to give check", "4k3/1P6/8/8/8/8/K7/8 w - - 0 1", 6, 217342, false, false},
	{"underpromote to give check", "8/P1k5/K7/8/8/8/8/8 w - - 0 1", 6, 92683, false, false},
	{"self stalemate", "K1k5/8/P7/8/8/8/8/8 w - - 0 1", 6, 2217, false, false},
	{"stalemate and checkmate", "8/k1P5/8/1K6/8/8/8/8 w - - 0 1", 7, 567584, false, false},
	{"stalemate and checkmate 2", "8/8/2k5/5q2/5n2/8/5K2/8 b - - 0 1", 4, 23527, false, false},
}

var deep = flag.Bool("deep", false, "also run the deepest perft counts (minutes)")

func TestPerft(t *testing.T) {
	for _, tc := range perftCases {
		t.Run(tc.name, func(t *testing.T) {
			if tc.deep && !*deep {
				t.Skip("deep perft: run with -deep")
			}
			if tc.long && testing.Short() || raceEnabled && tc.nodes > 300_000 {
				t.Skip("long perft: skipped with -short, and big counts with -race")
			}
			p, err := ParseFEN(tc.fen)
			require.NoError(t, err)
			require.Equal(t, tc.nodes, p.Perft(tc.depth))
		})
	}
}

// The generic perft over rules.Position (Legal and Play) agrees with the
// engine's bulk-counting perft: this checks the adapter and make/unmake
// against copy-make.
func TestPerftGenericAgrees(t *testing.T) {
	for _, fen := range []string{
		StartFEN,
		"r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
		"8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
		"r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
	} {
		p, err := ParseFEN(fen)
		require.NoError(t, err)
		var generic rules.Position = genericOnly{p}
		require.Equal(t, p.Perft(3), rules.Perft(generic, 3), fen)
	}
}

// genericOnly hides the Perfter of a position.
type genericOnly struct{ *Position }

func (g genericOnly) Play(m rules.Move) (rules.Position, error) {
	next, err := g.Position.Play(m)
	if err != nil {
		return nil, err
	}
	return genericOnly{next.(*Position)}, nil
}

func TestDivide(t *testing.T) {
	g, err := rules.New("chess", nil)
	require.NoError(t, err)
	p, err := g.ParsePosition("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1")
	require.NoError(t, err)
	d, err := rules.Divide(p, 2)
	require.NoError(t, err)
	require.Len(t, d, 48)
	var sum uint64
	names := map[string]bool{}
	for _, e := range d {
		sum += e.Nodes
		names[e.Move] = true
	}
	require.Equal(t, uint64(2039), sum)
	require.True(t, names["e1g1"] && names["e1c1"] && names["d5e6"], "castling and UCI names")
}

// BenchmarkPerft measures perft(5) from the initial position, counting
// leaves with bulk counting at the last ply (see Board.Perft).
func BenchmarkPerft(b *testing.B) { chesscoretest.BenchPerft(b, Start().Board(), 5) }

// BenchmarkPerftKiwipete measures perft(4) from Kiwipete, a position rich
// in castling, en passant and promotions.
func BenchmarkPerftKiwipete(b *testing.B) {
	p, err := ParseFEN("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1")
	require.NoError(b, err)
	chesscoretest.BenchPerft(b, p.Board(), 4)
}

// BenchmarkLegal measures the arbitration API: Legal with UCI text.
func BenchmarkLegal(b *testing.B) {
	p, err := ParseFEN("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1")
	require.NoError(b, err)
	b.ReportAllocs()
	cpu0 := cputime.Now()
	for b.Loop() {
		_ = p.Legal()
	}
	cputime.ReportPerOp(b, cpu0, b.N)
}
