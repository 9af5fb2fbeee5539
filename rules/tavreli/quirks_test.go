package tavreli

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// quirkBase is a game from the export tests, written the standard way.
const quirkBase = `[Event "Quirks"]
[Result "1-0"]

1. d1xc2 a8xb8 2. c2-c3 e8xf7 3. c3-c6 a7-a6 4. c6-g6+ h7xg6 5. a1xa2 (1)f7-e8
6. h2-h3 (1)g6-g5 1-0
`

// TestLenientReaderReadsPublishedQuirks feeds the reader each quirk of
// real published Tavreli records: it must read the same moves as the
// standard record, with a warning that names the quirk, and the strict
// reader must refuse the new ones.
func TestLenientReaderReadsPublishedQuirks(t *testing.T) {
	base, err := ParseGame(quirkBase)
	require.NoError(t, err)
	require.Len(t, base.Plies, 12)
	tests := []struct {
		name, from, to string
		warn           string // in the warnings of the game or its plies
		strictOK       bool   // the strict reader accepts it too
	}{
		{"split count after the origin", "(1)f7-e8", "f7(1)-e8", "split count written after", false},
		{"split count after the origin, last move", "(1)g6-g5 1-0", "g6(1)-g5 1-0", "read as (1)g6", false},
		{"tower formed with -", "1. d1xc2", "1. d1-c2", "forms a tower", false},
		{"stray x ending the last move", "(1)g6-g5 1-0", "(1)g6-g5x 1-0", "trailing x", true},
		{"stray x apart ending the last move", "(1)g6-g5 1-0", "(1)g6-g5 x 1-0", "stray x", false},
		{"stray * ending the last move", "(1)g6-g5 1-0", "(1)g6-g5* 1-0", "stray *", false},
		{"two bare squares", "6. h2-h3", "6. h2 h3", "two bare squares", false},
		{"two bare squares with a check", "4. c6-g6+", "4. c6 g6+", "two bare squares", false},
		{"upper-case files", "2. c2-c3", "2. C2-C3", "upper-case file letter", true},
		{"Cyrillic look-alike in a Latin record", "a7-a6", "а7-а6", "Cyrillic а read as Latin a", true},
		{"Cyrillic look-alike c in a Latin record", "3. c3-c6", "3. с3-с6", "Cyrillic с read as Latin c", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			require.Contains(t, quirkBase, tt.from)
			text := strings.Replace(quirkBase, tt.from, tt.to, 1)
			rec, err := ParseGame(text)
			require.NoError(t, err, text)
			require.Len(t, rec.Plies, len(base.Plies))
			for i := range base.Plies {
				assert.Equal(t, base.Plies[i].Move, rec.Plies[i].Move, "ply %d", i+1)
			}
			assert.Equal(t, "1-0", rec.Result)
			warnings := strings.Join(rec.Warnings, "\n")
			for _, p := range rec.Plies {
				warnings += "\n" + strings.Join(p.Warnings, "\n")
			}
			if tt.warn != "" {
				assert.Contains(t, warnings, tt.warn)
			}
			_, err = ParseGameWith(text, RecordOptions{Strict: true})
			if tt.strictOK {
				assert.NoError(t, err)
			} else {
				assert.Error(t, err, "strict")
			}
		})
	}
}

// TestLenientReaderNeverGuesses: a quirk is read only as the move it
// writes; when that move is not there, the error names the ply.
func TestLenientReaderNeverGuesses(t *testing.T) {
	for _, tt := range []struct{ name, from, to, says string }{
		{"two split counts", "(1)f7-e8", "(1)f7(1)-e8", "second split count"},
		{"count after the origin too high", "(1)f7-e8", "f7(5)-e8", "count 5 is greater than the height"},
		{"bare squares of an illegal move", "6. h2-h3", "6. h2 h5", "ply 11"},
		{"a lone bare square", "6. h2-h3", "6. h2", "ply 11"},
		{"three bare squares", "6. h2-h3", "6. h2 h3 h4", "ply 12"},
		{"a stray mark that is not one", "(1)g6-g5 1-0", "(1)g6-g5% 1-0", "ply 12"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			require.Contains(t, quirkBase, tt.from)
			_, err := ParseGame(strings.Replace(quirkBase, tt.from, tt.to, 1))
			require.Error(t, err)
			assert.Contains(t, err.Error(), tt.says)
		})
	}
}
