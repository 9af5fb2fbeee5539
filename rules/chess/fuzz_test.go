package chess

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// FuzzParseFEN: the reader never panics, and a position it accepts writes
// a FEN that reads back to the same position.
func FuzzParseFEN(f *testing.F) {
	for _, s := range []string{
		StartFEN,
		"r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
		"rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
		"8/8/8/8/8/8/8/K6k b - - 99 150",
		"8/8/8/8/8/8/8/K6k b - -",
		"rnbqkbnr/pppppppp/44/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
		"k7/8/8/8/8/8/8/K6T w - - 0 1",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		p, err := ParseFEN(s)
		if err != nil {
			return
		}
		out := p.String()
		q, err := ParseFEN(out)
		require.NoError(t, err, out)
		require.Equal(t, out, q.String())
		require.Equal(t, p.Key(), q.Key())
	})
}

// FuzzParseMove: move text never panics the parser, and an accepted move
// formats to SAN and UCI that both read back to the same move.
func FuzzParseMove(f *testing.F) {
	for _, s := range []string{"e4", "Nf3", "O-O", "0-0-0", "exd5", "e8=Q+", "Nbd7", "R1a3", "e2e4", "e7e8q", "Ng1-f3", "Qh4#", "Kxe2", "a", "=", "x"} {
		f.Add(s)
	}
	positions := []*Position{
		Start(),
		mustFEN(f, "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"),
		mustFEN(f, "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1"),
		mustFEN(f, "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3"),
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, p := range positions {
			m, err := p.ParseMove(s)
			if err != nil {
				continue
			}
			for _, text := range []string{p.FormatMove(m), m.String()} {
				back, err := p.ParseMove(text)
				require.NoError(t, err, text)
				require.Equal(t, m, back, text)
			}
		}
	})
}
