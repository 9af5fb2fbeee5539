package trf

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arbiter/internal/scenariotest"
	"arbiter/internal/shared"
)

func TestCorpusRoundTrip(t *testing.T) {
	files := shared.Files(t, "pairing-corpus/*.trf")
	for _, f := range files {
		data, err := os.ReadFile(f)
		require.NoError(t, err)
		tour, err := Parse(data)
		require.NoError(t, err, f)
		assert.Empty(t, tour.Warnings, f)
		require.NotEmpty(t, tour.Players, f)
		require.Positive(t, tour.Rounds, f)
		var buf bytes.Buffer
		require.NoError(t, tour.Write(&buf))
		again, err := Parse(buf.Bytes())
		require.NoError(t, err, f)
		assert.Equal(t, tour, again, f)
		// Recomputed points agree with the points column.
		for _, p := range tour.Players {
			sum := 0.0
			for _, g := range p.Games {
				sum += tour.Scoring.Points(g)
			}
			assert.InDelta(t, p.Points, sum, 1e-9, "%s player %d", f, p.ID)
		}
	}
}

// at builds a line from (column, text) pairs, independently of the writer.
func at(parts ...any) string {
	var line []byte
	for i := 0; i < len(parts); i += 2 {
		col, text := parts[i].(int), parts[i+1].(string)
		for len(line) < col-1+len(text) {
			line = append(line, ' ')
		}
		copy(line[col-1:], text)
	}
	return string(line)
}

func TestParseFields(t *testing.T) {
	line := at(1, "001", 5, "   7", 10, "wFM", 15, "Doe, Jane", 49, "2345", 54, "NOR", 58, "12345678901", 70, "1990/01/02",
		81, " 2.5", 86, "  11", 92, "   3 w 1", 102, "0000 - H", 112, "  12 b -", 122, "   4 b +", 132, "0000 - U")
	for _, eol := range []string{"\n", "\r\n", "\r"} {
		src := strings.Join([]string{"012 Open", "XXR 7", "XXC black1", line, "001    3", "001   12", "001    4", "###comment"}, eol)
		tour, err := Parse([]byte(src))
		require.NoError(t, err)
		assert.Equal(t, "Open", tour.Name)
		assert.Equal(t, 7, tour.Rounds)
		assert.Equal(t, byte('b'), tour.InitialColour)
		p := tour.Players[0]
		assert.Equal(t, Player{ID: 7, Sex: 'w', Title: "FM", Name: "Doe, Jane", Rating: 2345, Federation: "NOR",
			FideID: "12345678901", Birth: "1990/01/02", Points: 2.5, Rank: 11,
			Games: []Game{{3, 'w', '1'}, {0, '-', 'H'}, {12, 'b', '-'}, {4, 'b', '+'}, {0, '-', 'U'}}}, p)
		assert.Equal(t, []string{"###comment"}, tour.Extra)
	}
}

func TestParseErrors(t *testing.T) {
	tests := []struct {
		name, src string
		line, col int
	}{
		{"bad id", "012 x\n001   x1", 2, 5},
		{"bad rounds", "XXR many", 1, 5},
		{"bad result", at(1, "001    1", 92, "   2 w 7") + "\n001    2", 1, 99},
		{"bad colour", at(1, "001    1", 92, "   2 x 1"), 1, 97},
		{"missing opponent", at(1, "001    1", 92, "   9 w 1"), 1, 92},
		{"duplicate", "001    1\r001    1", 2, 5},
		{"bad points", at(1, "001    1", 81, " x.0"), 1, 81},
		{"junk between fields", at(1, "001    1", 92, "   2 wx1") + "\n001    2", 1, 98},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Parse([]byte(tc.src))
			var se *SyntaxError
			require.ErrorAs(t, err, &se)
			assert.Equal(t, tc.line, se.Line)
			assert.Equal(t, tc.col, se.Column)
		})
	}
}

func FuzzParse(f *testing.F) {
	// Corpus seeds where the corpus is present; TestCorpusRoundTrip
	// fails in CI when it is not.
	var files []string
	if dir, err := shared.Lookup("pairing-corpus"); err == nil {
		files, _ = filepath.Glob(filepath.Join(dir, "tiny-0100*.trf"))
	}
	for _, file := range files {
		if data, err := os.ReadFile(file); err == nil {
			f.Add(data)
		}
	}
	f.Add([]byte("012 x\r\n001    1      A                                  2000                           0.0  0000 - H\r\nXXR 3\r\nXXA 1 1.0 0.5\r\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		tour, err := Parse(data)
		if err != nil {
			return
		}
		var buf bytes.Buffer
		require.NoError(t, tour.Write(&buf))
		again, err := Parse(buf.Bytes())
		require.NoError(t, err, "re-reading written file:\n%s", buf.String())
		require.Equal(t, len(tour.Players), len(again.Players))
	})
}

func TestSampleGolden(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("testdata", "sample26.trf"))
	require.NoError(t, err)
	tour, err := Parse(data)
	require.NoError(t, err)
	assert.Equal(t, "Oslo Open 2026", tour.Name)
	assert.Equal(t, "Chief Arbiter, Anna", tour.Arbiter)
	assert.Equal(t, 5, tour.Rounds)
	assert.Equal(t, byte('b'), tour.InitialColour)
	assert.Equal(t, "FIDE_DUTCH_2026", tour.System)
	require.Len(t, tour.Players, 3)
	assert.Equal(t, "Ålesund, Øyvind", tour.Players[0].Name, "columns count characters in UTF-8 files")
	assert.Equal(t, 2650, tour.Players[0].Rating)
	assert.Equal(t, []Game{{0, '-', 'U'}, {3, 'w', '-'}}, tour.Players[1].Games)
	assert.Equal(t, []string{"### a TRF26 comment line", "NOR    1 some national rating record"}, tour.Extra)
	var buf bytes.Buffer
	require.NoError(t, tour.Write(&buf))
	scenariotest.Golden(t, filepath.Join("testdata", "sample26.golden"), buf.Bytes())
}

func TestScoringRecords(t *testing.T) {
	tour, err := Parse([]byte("162 W 3.0    D 1.0    L 0.0    A 0.0    P 1.0\n001    1"))
	require.NoError(t, err)
	assert.Equal(t, Scoring{Win: 3, Draw: 1, PAB: 1}, tour.Scoring)
	var buf bytes.Buffer
	require.NoError(t, tour.Write(&buf))
	again, err := Parse(buf.Bytes())
	require.NoError(t, err)
	assert.Equal(t, tour.Scoring, again.Scoring)

	tour, err = Parse([]byte("BBW 2.0\nBBD 1.0\nXXS ZPB=0.5\n001    1"))
	require.NoError(t, err)
	assert.Equal(t, Scoring{Win: 2, Draw: 1, ZeroBye: 0.5, PAB: 1}, tour.Scoring)

	_, err = Parse([]byte("162 Q 1.0"))
	var se *SyntaxError
	require.ErrorAs(t, err, &se)
	assert.Equal(t, 5, se.Column)
}
