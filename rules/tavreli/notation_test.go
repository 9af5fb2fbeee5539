package tavreli

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const (
	t4TFEN  = "7k/8/8/8/3[nR]4/8/2K5/8 w - - - 0 1"
	t6aTFEN = "7k/8/8/8/3[NPQ]pb3/8/8/K7 b - d3 - 0 1"
	t8TFEN  = "2[PBR]5/8/4k3/8/8/8/8/K7 w - - - 0 1"
	t12TFEN = "4k3/8/8/8/b7/8/8/R3K2R w KQ - - 0 1"
	t14TFEN = "4R2k/6pnpr/8/8/8/8/8/K7 b - - - 0 1"
)

// TestNotationTable is spec 7.2 and the examples of 4.6.
func TestNotationTable(t *testing.T) {
	tests := []struct {
		name      string
		tfen      string
		alphabet  Alphabet
		input     string
		canonical string // empty when an error is expected
		machine   string
		warn      bool
		errHas    string
	}{
		{"7.2 d4-d8+", t4TFEN, AutoAlphabet, "d4-d8+", "d4-d8+", "(2)d4d8", false, ""},
		{"7.2 (2)d4-d8", t4TFEN, AutoAlphabet, "(2)d4-d8", "d4-d8+", "(2)d4d8", true, ""},
		{"7.2 (1)d4-d8 illegal", t4TFEN, AutoAlphabet, "(1)d4-d8", "", "", false, "illegal"},
		{"7.2 (3)d4-d8", t4TFEN, AutoAlphabet, "(3)d4-d8", "", "", false, "greater than the height"},
		{"7.2 c8-c1", t8TFEN, AutoAlphabet, "c8-c1", "c8-c1", "(2)c8c1", false, ""},
		{"7.2 (1)c8-c1", t8TFEN, AutoAlphabet, "(1)c8-c1", "(1)c8=B-c1+", "c8c1", false, ""},
		{"7.2 wrong promotion", t8TFEN, AutoAlphabet, "(1)c8=N-c1+", "", "", false, "wrong promotion"},
		{"7.2 д2-д4", startTFEN, Cyrillic, "д2-д4", "e2-e4", "e2e4", false, ""},
		{"7.2 е2-е4 Cyrillic", startTFEN, Cyrillic, "е2-е4", "f2-f4", "f2f4", false, ""},
		{"7.2 mixed look-alikes", startTFEN, AutoAlphabet, "e2-е4", "", "", false, "ambiguous"},
		{"7.2 mixed, declared Latin", startTFEN, Latin, "e2-е4", "e2-e4", "e2e4", true, ""},
		{"7.2 mixed, declared Cyrillic", startTFEN, Cyrillic, "e2-е4", "f2-f4", "f2f4", true, ""},
		{"7.2 0-0", t12TFEN, AutoAlphabet, "0-0", "0-0", "e1g1", false, ""},
		{"7.2 O-O", t12TFEN, AutoAlphabet, "O-O", "0-0", "e1g1", true, ""},
		{"7.2 0-0-0 illegal", t12TFEN, AutoAlphabet, "0-0-0", "", "", false, "illegal"},
		{"7.2 e4xd3", t6aTFEN, AutoAlphabet, "e4xd3", "e4xd3", "e4d3", false, ""},
		{"7.2 e4-d3", t6aTFEN, AutoAlphabet, "e4-d3", "e4xd3", "e4d3", true, ""},
		{"7.2 h8xg7", t14TFEN, AutoAlphabet, "h8xg7", "h8xg7", "h8g7", false, ""},
		{"4.6 g1xe2 Cyrillic", startTFEN, AutoAlphabet, "ж1хд2", "g1xe2", "g1e2", false, ""},
		{"4.6 (0) count", startTFEN, AutoAlphabet, "(0)e2-e4", "", "", false, "count"},
		{"4.6 e2xe3 empty", startTFEN, AutoAlphabet, "e2xe3", "e2-e3", "e2e3", true, ""},
		{"4.6 wrong target", "k7/3PQ4/8/8/8/8/8/7K w - - - 0 1", AutoAlphabet, "d7-d8=R", "", "", false, "wrong promotion"},
		{"promotion supplied", "k7/3PQ4/8/8/8/8/8/7K w - - - 0 1", AutoAlphabet, "d7-d8", "d7-d8=Q+", "d7d8", false, ""},
		{"Cyrillic promotion alias", "k7/3PQ4/8/8/8/8/8/7K w - - - 0 1", AutoAlphabet, "г7-г8=К+", "d7-d8=Q+", "d7d8", false, ""},
		{"Cyrillic В is the Vsadnik", "7k/1PN6/8/8/8/8/8/7K w - - - 0 1", Cyrillic, "б7-б8=В", "b7-b8=N", "b7b8", false, ""},
		{"Latin B is the Luchnik", "7k/1PN6/8/8/8/8/8/7K w - - - 0 1", Latin, "b7-b8=B", "", "", false, "wrong promotion"},
		{"promotion where none", startTFEN, AutoAlphabet, "e2-e4=Q", "", "", false, "none happens"},
		{"wrong check mark", startTFEN, AutoAlphabet, "e2-e4+", "e2-e4", "e2e4", true, ""},
		{"annotations", startTFEN, AutoAlphabet, "e2-e4!?", "e2-e4", "e2e4", false, ""},
		{"trailing x", startTFEN, AutoAlphabet, "g1-e2x", "g1xe2", "g1e2", true, ""},
		{"mate as + +", "k7/8/8/8/3H~4/8/8/7K w - - - 0 1", AutoAlphabet, "d4-b6+ +", "d4-b6++", "d4b6", false, ""},
		{"mate as #", "k7/8/8/8/3H~4/8/8/7K w - - - 0 1", AutoAlphabet, "d4-b6#", "d4-b6++", "d4b6", false, ""},
		{"castling as a Volkhv move", t12TFEN, AutoAlphabet, "e1-g1", "0-0", "e1g1", true, ""},
		{"both alphabets", startTFEN, AutoAlphabet, "b1-в3", "", "", false, "both"},
		{"garbage", startTFEN, AutoAlphabet, "e2e4zz", "", "", false, "separator"},
		{"rank out of range", startTFEN, AutoAlphabet, "e2-e9", "", "", false, "rank"},
		{"empty origin", startTFEN, AutoAlphabet, "e4-e5", "", "", false, "empty"},
		{"opponent's piece", startTFEN, AutoAlphabet, "e7-e5", "", "", false, "belongs to Black"},
		{"pinned tower", "k3r3/8/8/8/4[rN]3/8/8/4K3 w - - - 0 1", AutoAlphabet, "e4-f6", "", "", false, "Volkhv attacked"},
		{"not the pattern", startTFEN, AutoAlphabet, "e2-e5", "", "", false, "cannot go to e5"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			b := board(t, tc.tfen)
			mt, err := Reader{Alphabet: tc.alphabet}.ParseMove(b, tc.input)
			if tc.canonical == "" {
				require.Error(t, err)
				assert.Contains(t, err.Error(), tc.errHas)
				assert.Contains(t, err.Error(), tc.input, "the error names the token")
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tc.canonical, FormatMove(b, mt.Move, Latin))
			assert.Equal(t, tc.machine, mt.Move.String())
			if tc.warn {
				assert.NotEmpty(t, mt.Warnings)
			} else {
				assert.Empty(t, mt.Warnings)
			}
		})
	}
}

func TestStrictReader(t *testing.T) {
	start := ptr(StartBoard())
	for _, s := range []string{"e2xe3", "e2-e4+", "g1-e2"} {
		_, err := Reader{Strict: true}.ParseMove(start, s)
		assert.Error(t, err, s)
	}
	_, err := Reader{Strict: true}.ParseMove(board(t, t12TFEN), "e1-g1")
	assert.Error(t, err)
}

func TestFormatCyrillic(t *testing.T) {
	b := ptr(StartBoard())
	m := move(t, b, "g1xe2")
	assert.Equal(t, "ж1хд2", FormatMove(b, m, Cyrillic))
	b8 := board(t, t8TFEN)
	m = move(t, b8, "(1)c8-c1")
	assert.Equal(t, "(1)в8=B-в1+", FormatMove(b8, m, Cyrillic))
}

// TestFormatParseRoundTrip: every legal move of many positions formats to
// text that reads back as the same move, in both alphabets, strictly.
func TestFormatParseRoundTrip(t *testing.T) {
	for _, tc := range specCounts {
		b := board(t, tc.tfen)
		seen := map[string]bool{}
		for _, m := range b.GenerateLegal(nil) {
			for _, a := range []Alphabet{Latin, Cyrillic} {
				s := FormatMove(b, m, a)
				assert.False(t, seen[a.String()+s], "duplicate text %s", s)
				seen[a.String()+s] = true
				got, err := Reader{Alphabet: a, Strict: true}.ParseMove(b, s)
				require.NoError(t, err, "%s in %s", s, tc.name)
				assert.Equal(t, m, got.Move, s)
				assert.Empty(t, got.Warnings, s)
			}
			assert.False(t, strings.ContainsAny(m.String(), "x-+"), m.String())
		}
	}
}

func TestFormatIllegal(t *testing.T) {
	b := ptr(StartBoard())
	assert.Equal(t, "?e2e5", FormatMove(b, NewMove(12, 36, 1, GroupMove), Latin))
	assert.Equal(t, "?(3)a1a3", FormatMove(b, NewMove(0, 16, 3, GroupMove), Latin))
	assert.Equal(t, startTFEN, b.TFEN(), "the board is unchanged")
}
