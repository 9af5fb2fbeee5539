package tiebreak

import (
	"bytes"
	"strings"
	"testing"
	"unicode"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestWriteTextHostileNames: the standings and crosstable tables keep one
// line per player whatever the names hold.
func TestWriteTextHostileNames(t *testing.T) {
	tour := build(t, small)
	names := []string{"Ivanov\nIvan", "a\x00b", "CR\rLF\r\n", "\xff\xfe", "line\u2028sep"}
	for i := range tour.Players {
		tour.Players[i].Name = names[i%len(names)]
	}
	st, err := Compute(tour, MustParseSpecs("BH SB"), Options{})
	require.NoError(t, err)
	var buf bytes.Buffer
	require.NoError(t, st.WriteText(&buf))
	checkLines(t, buf.String(), len(tour.Players)+1)

	ct, err := NewCrosstable(tour, st)
	require.NoError(t, err)
	buf.Reset()
	require.NoError(t, ct.WriteText(&buf))
	checkLines(t, buf.String(), len(tour.Players)+1)
}

func checkLines(t *testing.T, text string, want int) {
	t.Helper()
	lines := strings.Split(strings.TrimSuffix(text, "\n"), "\n")
	assert.Len(t, lines, want, text)
	for _, l := range lines {
		for _, r := range l {
			assert.False(t, unicode.IsControl(r) || r == '\u2028' || r == '\u2029', "%q holds %U", l, r)
		}
	}
}
