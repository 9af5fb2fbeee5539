package tavreli

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arbiter/rules"
)

func TestBoardAccessors(t *testing.T) {
	b := board(t, "rnbq1bnr/prpnpbpq[phk]pbpnpr/8/8/8/8/PRPNPBPQ[PHK]PBPNPR/RNBQ1BNR w - - ABCDEFGHabcdefgh 0 4")
	assert.Equal(t, 4, b.Fullmove())
	assert.Equal(t, 0, b.Halfmove())
	assert.Equal(t, 32, b.Pieces())
	assert.Equal(t, rules.Square(sqOf(4, 1)), b.VolkhvSquare(rules.White))
	assert.Equal(t, rules.Square(sqOf(4, 6)), b.VolkhvSquare(rules.Black))
	top, ok := b.Top(rules.Square(sqOf(4, 6)))
	require.True(t, ok)
	assert.Equal(t, Piece{Color: rules.Black, Role: Volkhv}, top)
	_, ok = b.Top(rules.Square(sqOf(4, 4)))
	assert.False(t, ok)
	assert.Equal(t, 2, b.Height(rules.Square(sqOf(4, 1))))
	assert.True(t, b.DoubleStep(rules.White, 4), "covered, never left its square (D10)")
	assert.Equal(t, uint8(0), b.Castling())
	assert.Equal(t, rules.NoSquare, b.EnPassant())
	assert.Equal(t, []Piece{{rules.White, Ratnik, Helgi}, {rules.White, Volkhv, NoRole}}, b.Stack(rules.Square(sqOf(4, 1)), nil))

	assert.True(t, Move{}.IsZero())
	m := NewMove(12, 28, 1, GroupMove)
	assert.False(t, m.IsZero())
	assert.Equal(t, 1, m.Count())
	assert.Equal(t, GroupMove, m.Kind())

	assert.Equal(t, "Knyaz", Knyaz.String())
	assert.Equal(t, byte('K'), Volkhv.Letter())
	assert.Equal(t, "none", NoRole.String())
	assert.Equal(t, "q~", Piece{rules.Black, Knyaz, Knyaz}.String())
	assert.Equal(t, "PH", Piece{rules.White, Ratnik, Helgi}.String())
	assert.Equal(t, "promotion", Promotion.String())
	assert.Equal(t, "liberation", Liberation.String())
	assert.Equal(t, "analysis", AnalysisMode.String())
	assert.Equal(t, "game", GameMode.String())
	assert.Equal(t, "cyrillic", Cyrillic.String())
	g, err := NewGame(rules.Options{"array": "RNBQKBNR"})
	require.NoError(t, err)
	assert.Equal(t, DefaultArray, g.Array())
}

func TestLookAlikeLetters(t *testing.T) {
	start := ptr(StartBoard())
	tests := []struct {
		alpha Alphabet
		in    string
		want  string
	}{
		{Latin, "с2-с4", "c2c4"},        // Cyrillic с in a Latin record
		{Latin, "а2-а4", "a2a4"},        // Cyrillic а
		{AutoAlphabet, "с2-c4", "c2c4"}, // с is only a look-alike of c
		{Cyrillic, "a2-a4", "a2a4"},     // Latin a in a Cyrillic record
		{AutoAlphabet, "E2-E4", "e2e4"}, // upper case (D2)
	}
	for _, tc := range tests {
		mt, err := Reader{Alphabet: tc.alpha}.ParseMove(start, tc.in)
		require.NoError(t, err, tc.in)
		assert.Equal(t, tc.want, mt.Move.String(), tc.in)
		assert.NotEmpty(t, mt.Warnings, tc.in)
	}
	_, err := Reader{Alphabet: Cyrillic}.ParseMove(start, "c2-c4")
	assert.ErrorContains(t, err, "not a Cyrillic file letter")
	_, err = Reader{Alphabet: Latin}.ParseMove(start, "г2-г4")
	assert.ErrorContains(t, err, "not a Latin file letter")
}
