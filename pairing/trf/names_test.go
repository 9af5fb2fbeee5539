package trf

import (
	"bytes"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arbiter/internal/oneline"
)

// TestParseSexColumn: the sex column holds what real files hold (u from
// the FIDE tie-break reference generator, f), never refusing the file.
func TestParseSexColumn(t *testing.T) {
	for _, tc := range []struct {
		col     string
		want    byte
		warning string
	}{
		{"m", 'm', ""}, {"w", 'w', ""}, {"W", 'w', ""}, {"f", 'f', ""}, {"u", 'u', ""}, {"U", 'u', ""}, {" ", 0, ""},
		{"x", 0, `line 1, column 10: 001: sex "x" is not m, w, f or u; ignored`},
		{"?", 0, `line 1, column 10: 001: sex "?" is not m, w, f or u; ignored`},
		{"м", 0, `line 1, column 10: 001: sex "м" is not m, w, f or u; ignored`},
	} {
		t.Run(tc.col, func(t *testing.T) {
			src := at(1, "001", 5, "   1", 10, tc.col, 15, "Doe, Jane", 81, " 0.0")
			tour, err := Parse([]byte(src))
			require.NoError(t, err)
			assert.Equal(t, tc.want, tour.Players[0].Sex)
			if tc.warning == "" {
				assert.Empty(t, tour.Warnings)
				return
			}
			require.Len(t, tour.Warnings, 1)
			assert.Contains(t, tour.Warnings[0], tc.warning)
		})
	}
}

// TestParseReferenceGeneratorFile reads a file as the FIDE tie-break
// reference generator writes it: u in every sex column.
func TestParseReferenceGeneratorFile(t *testing.T) {
	src := strings.Join([]string{
		"012 Generated",
		at(1, "001", 5, "   1", 10, "u", 15, "Player 1", 49, "2000", 81, " 1.0", 86, "   1", 92, "   2 w 1"),
		at(1, "001", 5, "   2", 10, "u", 15, "Player 2", 49, "1900", 81, " 0.0", 86, "   2", 92, "   1 b 0"),
		"XXR 1",
	}, "\n")
	tour, err := Parse([]byte(src))
	require.NoError(t, err)
	require.Len(t, tour.Players, 2)
	assert.Empty(t, tour.Warnings)
	var buf bytes.Buffer
	require.NoError(t, tour.Write(&buf))
	assert.Contains(t, buf.String(), "001    1 u    Player 1")
}

// hostileNames are stored names that once broke the file.
var hostileNames = []string{
	"Ivanov\nIvan", "a\x00b", "Doe\r\nJane", "CR\rinside", "tab\tname", "\xff\xfelatin-1", "line\u2028sep",
	"  padded  ", "Ålesund, Øyvind", "名人戦の長い名前がここにあります。名人戦の長い名前がここにあります。", "\n", "",
}

// TestWriteHostileNames: one record per line for any stored name, in
// every text field, and the name reads back as written.
func TestWriteHostileNames(t *testing.T) {
	for _, name := range hostileNames {
		checkWriteName(t, name)
	}
}

func FuzzWriteNames(f *testing.F) {
	for _, n := range hostileNames {
		f.Add(n, "Open\n2026")
	}
	f.Fuzz(checkWriteName2)
}

func checkWriteName(t *testing.T, name string) { checkWriteName2(t, name, name) }

// checkWriteName2 writes a two-player tournament whose player names and
// header texts are name and event, and reads it back.
func checkWriteName2(t *testing.T, name, event string) {
	tour := &Tournament{Name: event, City: event, Arbiter: name, TimeControl: event, System: event, Rounds: 2, InitialColour: 'w',
		Scoring: DefaultScoring, Extra: []string{"### " + event},
		Players: []Player{
			{ID: 1, Name: name, Title: name, Federation: name, FideID: name, Birth: name, Points: 1.5,
				Games: []Game{{2, 'w', '+'}, {0, '-', 'H'}}},
			{ID: 2, Name: name + "2", Points: 0, Games: []Game{{1, 'b', '-'}, {0, '-', 'Z'}}},
		}}
	var buf bytes.Buffer
	require.NoError(t, tour.Write(&buf))
	out := buf.String()
	require.True(t, utf8.ValidString(out), "%q", out)
	for i, l := range strings.Split(strings.TrimSuffix(out, "\n"), "\n") {
		for _, r := range l {
			require.False(t, unicode.IsControl(r), "line %d %q holds %U", i+1, l, r)
		}
	}
	assert.Equal(t, 2, strings.Count(out, "\n001 "), "one record per player:\n%s", out)
	again, err := Parse(buf.Bytes())
	require.NoError(t, err, out)
	require.Len(t, again.Players, 2)
	want := []rune(oneline.Clean(name))
	if len(want) > 33 {
		want = want[:33]
	}
	assert.Equal(t, strings.TrimSpace(string(want)), again.Players[0].Name)
	assert.Equal(t, tour.Players[0].Games, again.Players[0].Games)
	assert.Equal(t, tour.Players[1].Games, again.Players[1].Games)
	assert.Equal(t, 1.5, again.Players[0].Points)
	assert.Equal(t, 2, again.Rounds)
	assert.Equal(t, oneline.Clean(event), again.Name)
	assert.Equal(t, oneline.Clean(name), again.Arbiter)
}

// TestParseByteOrderMark: a UTF-8 file from a Windows tool starts with a
// byte order mark; the first record is still read.
func TestParseByteOrderMark(t *testing.T) {
	for _, first := range []string{"012 Open", at(1, "001", 5, "   1", 15, "Doe, Jane")} {
		src := "\uFEFF" + first + "\r\n" + at(1, "001", 5, "   2", 15, "Roe, Rick") + "\r\n"
		tour, err := Parse([]byte(src))
		require.NoError(t, err)
		assert.Empty(t, tour.Extra, "nothing left unread")
		if strings.HasPrefix(first, "012") {
			assert.Equal(t, "Open", tour.Name)
			assert.Len(t, tour.Players, 1)
		} else {
			assert.Len(t, tour.Players, 2)
		}
	}
}

// TestParsePointsWarning: a points column that disagrees with the results
// is read, with a warning naming the player and both numbers.
func TestParsePointsWarning(t *testing.T) {
	for _, tc := range []struct {
		points, extra, warning string
	}{
		{" 1.5", "", ""},
		{"    ", "", ""},
		{" 2.0", "", "line 1, column 81: 001: player 1 has 2 points but the results give 1.5"},
		{" 1.0", "BBW 0.5\n", ""}, // the scoring comes after the records
	} {
		src := at(1, "001", 5, "   1", 15, "Doe, Jane", 81, tc.points, 92, "   2 w 1  0000 - H     2 b  ") + "\n" +
			at(1, "001", 5, "   2", 15, "Roe, Rick", 92, "   1 b 0  0000 - Z     1 w  ") + "\n" + tc.extra
		tour, err := Parse([]byte(src))
		require.NoError(t, err)
		if tc.warning == "" {
			assert.Empty(t, tour.Warnings, "%q", tc.points)
			continue
		}
		require.Len(t, tour.Warnings, 1)
		assert.Contains(t, tour.Warnings[0], tc.warning)
	}
}

// TestScoring162Layouts: the format puts the symbols at columns 6, 15, …;
// files written one column early, without blanks or in lower case read
// the same, X (unknown result) is accepted, and the writer follows the
// format.
func TestScoring162Layouts(t *testing.T) {
	want := Scoring{Win: 3, Draw: 1, Loss: 0, ZeroBye: 0, ForfeitLoss: 0, PAB: 1}
	for _, line := range []string{
		"162  W 3.0    D 1.0    L 0.0    A 0.0    P 1.0    X 1.0",
		"162 W 3.0    D 1.0    L 0.0    A 0.0    P 1.0",
		"162 W3.0 D1.0 L0.0 A0.0 P1.0",
		"162  w 3.0    d 1.0    p 1.0",
	} {
		tour, err := Parse([]byte(line + "\n001    1"))
		require.NoError(t, err, line)
		assert.Equal(t, want, tour.Scoring, line)
	}
	for _, tc := range []struct {
		line string
		col  int
	}{
		{"162  W", 6}, {"162  W 3.0    D", 15}, {"162  W 1,5", 8}, {"162  W x.5", 6}, {"162  3.0", 6}, {"162  Q 1.0", 6},
	} {
		_, err := Parse([]byte(tc.line))
		var se *SyntaxError
		require.ErrorAs(t, err, &se, tc.line)
		assert.Equal(t, tc.col, se.Column, tc.line)
	}

	var buf bytes.Buffer
	require.NoError(t, (&Tournament{Scoring: want}).Write(&buf))
	line := strings.SplitN(buf.String(), "\n", 2)[0]
	require.True(t, strings.HasPrefix(line, "162 "), buf.String())
	for i, sym := range "WDLAP" {
		col := 6 + 9*i
		assert.Equal(t, string(sym), line[col-1:col], "symbol at column %d: %q", col, line)
	}
}
