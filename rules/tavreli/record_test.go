package tavreli

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arbiter/internal/scenariotest"
)

func readRecord(t *testing.T, name string) *Record {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", name))
	require.NoError(t, err)
	rec, err := ParseGame(string(data))
	require.NoError(t, err, name)
	return rec
}

func TestParseGameAlphabets(t *testing.T) {
	lat := readRecord(t, "game-latin.txt")
	cyr := readRecord(t, "game-cyrillic.txt")
	require.Len(t, lat.Plies, 14)
	require.Equal(t, len(lat.Plies), len(cyr.Plies))
	for i := range lat.Plies {
		assert.Equal(t, lat.Plies[i].Move, cyr.Plies[i].Move, "ply %d: %s vs %s", i+1, lat.Plies[i].Text, cyr.Plies[i].Text)
	}
	assert.Equal(t, "1-0", lat.Result)
	assert.NotEmpty(t, lat.Plies[6].Warnings, "f3-e5 forms a tower but is written with a dash")
	assert.Equal(t, "the Vsadnik takes the Ratnik prisoner", lat.Plies[6].Comment)
	assert.Contains(t, lat.Comment, "old way")
	v, ok := lat.Tag("White")
	assert.True(t, ok)
	assert.Equal(t, "Ivanov", v)
}

func TestRecordFormatGolden(t *testing.T) {
	rec := readRecord(t, "game-latin.txt")
	for _, tc := range []struct {
		alpha Alphabet
		file  string
	}{{Latin, "game-latin.golden"}, {Cyrillic, "game-cyrillic.golden"}} {
		got := rec.Format(tc.alpha, DefaultArray)
		scenariotest.Golden(t, filepath.Join("testdata", tc.file), []byte(got))
		// The canonical output reads back strictly to the same game.
		back, err := ParseGameWith(got, RecordOptions{Strict: true})
		require.NoError(t, err)
		require.Len(t, back.Plies, len(rec.Plies))
		for i := range rec.Plies {
			assert.Equal(t, rec.Plies[i].Move, back.Plies[i].Move)
			assert.Empty(t, back.Plies[i].Warnings)
		}
		endA, endB := rec.End(), back.End()
		assert.Equal(t, endA.TFEN(), endB.TFEN())
	}
}

func TestParseGameErrors(t *testing.T) {
	tests := []struct {
		name, text, has string
		ply             int
	}{
		{"illegal move names ply and token", "[Alphabet \"latin\"]\n1. e2-e4 e7-e5 2. e4-e5", "e4-e5", 3},
		{"black ply", "[Alphabet \"latin\"]\n1. e2-e4 e7-e9", "e7-e9", 2},
		{"ambiguous alphabet", "1. e2-e4 e7-e5", "ambiguous", 0},
		{"mixed alphabets", "1. d2-d4 г7-г5", "both Latin and Cyrillic", 0},
		{"bad header", "[White Ivanov]\n1. d2-d4", "header", 0},
		{"unclosed comment", "[Alphabet \"latin\"]\n1. e2-e4 {oops", "comment", 0},
		{"bad TFEN header", "[TFEN \"k7/8 w - - - 0 1\"]\n*", "TFEN", 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ParseGame(tc.text)
			require.Error(t, err)
			assert.Contains(t, err.Error(), tc.has)
			var pe *PlyError
			if tc.ply > 0 {
				require.True(t, errors.As(err, &pe), err.Error())
				assert.Equal(t, tc.ply, pe.Ply)
			} else {
				assert.False(t, errors.As(err, &pe))
			}
		})
	}
}

func TestParseGameComposedStart(t *testing.T) {
	rec, err := ParseGame("[TFEN \"7k/8/8/8/3[nR]4/8/2K5/8 w - - - 0 1\"]\n1. d4-d8+ h8-h7 *")
	require.NoError(t, err)
	require.Len(t, rec.Plies, 2)
	assert.NotEmpty(t, rec.Warnings, "composed start position")
	out := rec.Format(Latin, DefaultArray)
	assert.Contains(t, out, `[TFEN "7k/8/8/8/3[nR]4/8/2K5/8 w - - - 0 1"]`)
	assert.Contains(t, out, "1. d4-d8+ h8-h7 *")
}
