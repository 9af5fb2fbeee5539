package tavreli

import (
	"testing"

	"arbiter/rules"

	"github.com/stretchr/testify/require"
)

// board parses a TFEN in game mode when it is a full game position and in
// analysis mode otherwise.
func board(t testing.TB, tfen string) *Board {
	t.Helper()
	b, err := ParseTFEN(tfen, GameMode)
	if err != nil {
		b, err = ParseTFEN(tfen, AnalysisMode)
	}
	require.NoError(t, err, tfen)
	return b
}

// play reads and plays the moves in record notation, failing on any error.
func play(t testing.TB, from *Board, moves ...string) *Board {
	t.Helper()
	b := *from
	for _, s := range moves {
		mt, err := ParseMoveText(&b, s)
		require.NoError(t, err, "move %s in %s", s, b.TFEN())
		b.Make(mt.Move)
	}
	return &b
}

// move reads one move in record notation.
func move(t testing.TB, b *Board, s string) Move {
	t.Helper()
	mt, err := ParseMoveText(b, s)
	require.NoError(t, err, "move %s in %s", s, b.TFEN())
	return mt.Move
}

// formatted returns the record notation of every legal move.
func formatted(b *Board) []string {
	var out []string
	for _, m := range b.GenerateLegal(nil) {
		out = append(out, FormatMove(b, m, Latin))
	}
	return out
}

func filter(xs []string, keep func(string) bool) []string {
	var out []string
	for _, x := range xs {
		if keep(x) {
			out = append(out, x)
		}
	}
	return out
}

func ptr(b Board) *Board { return &b }

// playLine plays moves through the rules interfaces and returns the
// positions before each move and the final position.
func playLine(t testing.TB, pos rules.Position, moves ...string) ([]rules.Position, rules.Position) {
	t.Helper()
	var hist []rules.Position
	for _, s := range moves {
		m, err := pos.ParseMove(s)
		require.NoError(t, err, s)
		hist = append(hist, pos)
		pos, err = pos.Play(m)
		require.NoError(t, err, s)
	}
	return hist, pos
}
