package tavreli

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// specCounts are the legal-move counts of spec section 7.1, each counted
// by hand in the spec and cross-checked there with an independent
// generator.
var specCounts = []struct {
	name  string
	tfen  string
	mode  Mode
	count int
}{
	{"T1", "rnbqkbnr/prpnpbpqphpbpnpr/8/8/8/8/PRPNPBPQPHPBPNPR/RNBQKBNR w KQkq - ABCDEFGHabcdefgh 0 1", GameMode, 39},
	{"T2", "k3r3/8/8/8/4[rN]3/8/8/4K3 w - - - 0 1", AnalysisMode, 5},
	{"T3", "k3r3/8/8/8/4[RN]3/8/8/4K3 w - - - 0 1", AnalysisMode, 13},
	{"T4", "7k/8/8/8/3[nR]4/8/2K5/8 w - - - 0 1", AnalysisMode, 22},
	{"T4 after d4-d8+", "3[nR]3k/8/8/8/8/8/2K5/8 b - - - 1 1", AnalysisMode, 2},
	{"T5", "k7/8/8/8/4N3/3n2B1/4PH1PN1/K7 w - - EG 0 1", AnalysisMode, 23},
	{"T5 variant", "k7/8/8/8/4N3/3n2B1/4PH1PN1/K7 w - - - 0 1", AnalysisMode, 22},
	{"T6 A", "7k/8/8/8/3[NPQ]pb3/8/8/K7 b - d3 - 0 1", AnalysisMode, 5},
	{"T6 B", "8/8/4k3/8/3[NPQ]pb3/8/8/K7 b - d3 - 0 1", AnalysisMode, 8},
	{"T7", "7k/8/8/8/3Npb3/8/3PQ4/K7 w - - D 0 1", AnalysisMode, 13},
	{"T8", "2[PBR]5/8/4k3/8/8/8/8/K7 w - - - 0 1", AnalysisMode, 31},
	{"T9 origin", "3Q~4/8/8/8/7k/8/3r4/K7 b - - - 0 1", AnalysisMode, 5},
	{"T9", "3[PQr]4/8/8/8/7k/8/8/K7 b - - - 0 1", AnalysisMode, 19},
	{"T10", "2r~Rn3/3PQ4/8/7k/8/8/8/K7 w - - - 0 1", AnalysisMode, 9},
	{"T11", "7k/8/8/8/3[rK]4/8/8/8 w - - - 0 1", AnalysisMode, 12},
	{"T12 A", "4k3/8/8/8/b7/8/8/R3K2R w KQ - - 0 1", AnalysisMode, 20},
	{"T12 B", "4k3/8/8/8/b7/8/8/R3K2[RN] w KQ - - 0 1", AnalysisMode, 14},
	{"T13", "k7/2K5/8/1[rN]6/8/8/8/8 b - - - 0 1", AnalysisMode, 0},
	{"T14", "4R2k/6pnpr/8/8/8/8/8/K7 b - - - 0 1", AnalysisMode, 2},
	{"T15", "4R2k/6pnpr/8/6N1/8/2B5/8/K7 b - - - 0 1", AnalysisMode, 0},
	{"T16", "4k3/8/8/8/8/8/4[RN]3/K7 w - - - 0 1", AnalysisMode, 15},
	{"T17", "7k/8/8/8/8/7K/8/[nPRR]7 w - - - 0 1", AnalysisMode, 47},
	{"T18", "7k/8/8/8/1r1n4/2[bPN]5/8/K7 w - - - 0 1", AnalysisMode, 4},
	{"T19", "k7/8/8/8/3H~4/8/8/7K w - - - 0 1", AnalysisMode, 38},
	{"T20 c", "rnbq1bnr/prpnpbpq[phk]pbpnpr/8/8/8/8/PRPNPBPQ[PHK]PBPNPR/RNBQ1BNR w - - ABCDEFGHabcdefgh 0 4", GameMode, 47},
	{"T20 d first", "7k/8/8/8/3[nPQR]4/8/2K5/8 w - - - 0 1", AnalysisMode, 36},
	{"T20 d second", "7k/8/8/8/3[PQnR]4/8/2K5/8 w - - - 0 1", AnalysisMode, 36},
}

func TestSpecCounts(t *testing.T) {
	for _, tc := range specCounts {
		t.Run(tc.name, func(t *testing.T) {
			b, err := ParseTFEN(tc.tfen, tc.mode)
			require.NoError(t, err)
			require.Equal(t, tc.tfen, b.TFEN(), "canonical TFEN round trip")
			moves := b.GenerateLegal(nil)
			var names []string
			for _, m := range moves {
				names = append(names, m.String())
			}
			require.Len(t, moves, tc.count, "moves: %v", names)
		})
	}
}
