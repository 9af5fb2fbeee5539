package tavreli

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestTFENErrors(t *testing.T) {
	tests := []struct {
		name  string
		tfen  string
		mode  Mode
		field int
		char  rune // the offending character, 0 when none
		msg   string
	}{
		{"six fields", "8/8/8/8/8/8/8/8 w - - - 0", AnalysisMode, 0, 0, "7 fields"},
		{"bad letter", "k7/8/8/8/8/8/8/K6x w - - - 0 1", AnalysisMode, 1, 'x', "not a piece letter"},
		{"bare Helgi", "k7/8/8/8/3H4/8/8/7K w - - - 0 1", AnalysisMode, 1, 'H', "H~"},
		{"Ratnik without mark", "k7/8/8/8/3P4/8/8/7K w - - - 0 1", AnalysisMode, 1, '4', "mark"},
		{"Ratnik mark case", "k7/8/8/8/3Pq4/8/8/7K w - - - 0 1", AnalysisMode, 1, 'q', "mark"},
		{"promoted Volkhv", "k7/8/8/8/8/8/8/K~7 w - - - 0 1", AnalysisMode, 1, '~', "cannot be promoted"},
		{"rank too long", "k8/8/8/8/8/8/8/K7 w - - - 0 1", AnalysisMode, 1, '8', "more than 8"},
		{"rank too short", "k6/8/8/8/8/8/8/K7 w - - - 0 1", AnalysisMode, 1, '/', "covers 7"},
		{"unclosed stack", "k7/8/8/8/3[RN4/8/8/K7 w - - - 0 1", AnalysisMode, 1, 0, ""},
		{"bad side", "k7/8/8/8/8/8/8/K7 x - - - 0 1", AnalysisMode, 2, 'x', "w or b"},
		{"castling order", "r3k2r/8/8/8/8/8/8/R3K2R w QK - - 0 1", AnalysisMode, 3, 'K', "order"},
		{"ep rank", "k7/8/8/8/8/8/8/K7 w - e4 - 0 1", AnalysisMode, 4, 'e', "rank 3 or 6"},
		{"dstep letter", "k7/8/8/8/8/8/8/K7 w - - X 0 1", AnalysisMode, 5, 'X', "not one of the letters"},
		{"halfmove", "k7/8/8/8/8/8/8/K7 w - - - x 1", AnalysisMode, 6, 'x', "digit"},
		{"fullmove zero", "k7/8/8/8/8/8/8/K7 w - - - 0 0", AnalysisMode, 7, '0', "at least 1"},
		{"two white Volkhvs", "k7/8/8/8/8/8/8/K6K w - - - 0 1", AnalysisMode, 1, 0, "Volkhvs"},
		{"covered Volkhv", "k7/8/8/8/8/8/8/[KR]7 w - - - 0 1", AnalysisMode, 1, 0, "top piece"},
		{"promoted captive", "k7/8/8/8/3[Q~r]4/8/8/7K w - - - 0 1", AnalysisMode, 1, 0, "captive"},
		{"Ratnik on last rank", "k2PQ4/8/8/8/8/8/8/7K w - - - 0 1", AnalysisMode, 1, 0, "last rank"},
		{"side not to move in check", "k7/8/8/8/8/8/8/R6K w - - - 0 1", AnalysisMode, 2, 0, "in check"},
		{"castling right without Ratoborets", "k7/8/8/8/8/8/8/4K3 w K - - 0 1", AnalysisMode, 3, 0, "Ratoborets"},
		{"castling right, promoted Ratoborets", "k7/8/8/8/8/8/8/4K2R~ w K - - 0 1", AnalysisMode, 3, 0, "original"},
		{"dstep wrong mark", "k7/8/8/8/8/8/4PQ3/K7 w - - E 0 1", AnalysisMode, 5, 0, "marked H"},
		{"ep without Ratnik", "k7/8/8/8/8/8/8/K7 b - e3 - 0 1", AnalysisMode, 4, 0, "Ratnik"},
		{"ep start square occupied", "k7/8/8/8/4PH3/8/4N3/K7 b - e3 - 0 1", AnalysisMode, 4, 0, "start square"},
		{"composed in game mode", "k7/8/8/8/8/8/8/K7 w - - - 0 1", GameMode, 1, 0, "16"},
		{"wrong marks in game mode", "rnbqkbnr/prpnpbpqphpbpnpr/8/8/8/8/PRPNPBPQPHPBPNPQ/RNBQKBNR w KQkq - ABCDEFGabcdefgh 0 1", GameMode, 1, 0, "marks"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ParseTFEN(tc.tfen, tc.mode)
			require.Error(t, err)
			var te *TFENError
			require.True(t, errors.As(err, &te), "%T", err)
			assert.Equal(t, tc.field, te.Field, err.Error())
			if tc.char != 0 {
				assert.Equal(t, tc.char, te.Char, err.Error())
				require.Positive(t, te.Column)
				assert.Equal(t, tc.char, []rune(tc.tfen)[te.Column-1], "column points at the character")
			}
			assert.Contains(t, err.Error(), tc.msg)
		})
	}
}

func TestTFENLenientInput(t *testing.T) {
	// [X] for one piece and split empty runs are read and normalised.
	b, err := ParseTFEN("[k]7/8/8/8/8/8/8/K43 w - - - 0 1", AnalysisMode)
	require.NoError(t, err)
	assert.Equal(t, "k7/8/8/8/8/8/8/K7 w - - - 0 1", b.TFEN())
}

func TestArrayOption(t *testing.T) {
	a, err := ParseArray("RBNQKNBR")
	require.NoError(t, err)
	s := a.Start()
	assert.Equal(t, "rbnqknbr/prpbpnpqphpnpbpr/8/8/8/8/PRPBPNPQPHPNPBPR/RBNQKNBR w KQkq - ABCDEFGHabcdefgh 0 1", s.TFEN())
	_, err = a.ParseTFEN(s.TFEN(), GameMode)
	require.NoError(t, err)
	// The default array's marks do not fit the other array's double-step rights.
	_, err = ParseTFEN(s.TFEN(), GameMode)
	assert.Error(t, err)
	for _, bad := range []string{"RNBQKBN", "NRBQKBNR", "RNBKQBNR", "RNBQKBQR", "RNBHKBNR"} {
		_, err := ParseArray(bad)
		assert.Error(t, err, bad)
	}
}
