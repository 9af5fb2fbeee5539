package tensor

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// FuzzParseFEN: the Tensor FEN reader never panics, and a position it
// accepts writes a FEN that reads back to the same position.
func FuzzParseFEN(f *testing.F) {
	for _, s := range []string{
		"rtnbqkbntr/pppppppppp/10/10/10/10/PPPPPPPPPP/RTNBQKBNTR w KQkq - 0 1",
		"k4r4/4b5/5t4/10/10/1T8/1P8/5Q3K w - - 0 1",
		"r4k3r/pT3p1p1p/4t5/1PpP6/5T4/10/2p6P/R4K3R w KQkq c6 0 1",
		"9k/10/10/10/p2p2T3/1T2t5/1PP1P1P3/9K w - -",
		"11/10/10/10/10/10/10/10 w - - 0 1",
		"k9/10/10/10/10/10/10/K8T1 w - - 0 1",
	} {
		f.Add(s)
	}
	g := mustGame(f)
	f.Fuzz(func(t *testing.T, s string) {
		p, err := g.ParseFEN(s)
		if err != nil {
			return
		}
		out := p.String()
		q, err := g.ParseFEN(out)
		require.NoError(t, err, out)
		require.Equal(t, out, q.String())
		require.Equal(t, p.Key(), q.Key())
	})
}

// FuzzParseTLAN: move text never panics the parser, and an accepted move's
// canonical TLAN reads back to the same move.
func FuzzParseTLAN(f *testing.F) {
	for _, s := range []string{
		"e2-e4", "b2-b3Tb4", "Ti1:i3", "Tb1:d3", "Ra1-b1Ta1", "Qa1-c3-e1", "Nf4-g6-h8", "Nf4-g6Tf4",
		"Td4:d6xd4", "Te4xg4", "Te4:g4xe4", "Kf1-i1", "O-O-h", "O-O-O-b", "O-O", "e7-e8=T", "Bc7-f4xd2",
		"T", ":", "a1-", "Qa1-c3Tz9", "Tb3:d1:f3:h5", "Rg3-g5xc5",
	} {
		f.Add(s)
	}
	g := mustGame(f)
	var positions []*Position
	for _, fen := range []string{
		"rtnbqkbntr/pppppppppp/10/10/10/10/PPPPPPPPPP/RTNBQKBNTR w KQkq - 0 1",
		"k9/2b7/7Q2/10/4Tt4/10/3K6/10 w - - 0 1",
		"9k/10/10/10/10/2T7/10/Q8K w - - 0 1",
		"k9/4p5/6T3/10/5N4/10/10/K9 w - - 0 1",
		"9k/10/10/10/p2p2T3/1T2t5/1PP1P1P3/9K w - - 0 1",
		"k9/10/10/3t1p4/3TP5/10/10/K9 w - - 0 1",
		"k9/10/10/10/3Tt5/4T5/10/K9 w - - 0 1",
		"k9/10/10/2b7/10/10/10/5KT2R w K - 0 1",
		"r4k3r/pT3p1p1p/4t5/1PpP6/5T4/10/2p6P/R4K3R b KQkq - 0 1",
	} {
		p, err := g.ParseFEN(fen)
		require.NoError(f, err)
		positions = append(positions, p)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, p := range positions {
			m, err := p.ParseMove(s)
			if err != nil {
				continue
			}
			for _, text := range []string{m.String(), p.FormatMove(m)} {
				back, err := p.ParseMove(text)
				require.NoError(t, err, text)
				require.Equal(t, m, back, text)
			}
		}
	})
}
