package tavreli

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// FuzzParseArray: an accepted array is written back as the same letters
// and gives a start position.
func FuzzParseArray(f *testing.F) {
	for _, s := range []string{"RNBQKBNR", "RBNQKNBR", "RQNBKBNR", "rnbqkbnr", "RNBKQBNR", "RNBQKBN", "RNBQKBNRR", "RPBQKBNR", "RНBQKBNR", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		a, err := ParseArray(s)
		if err != nil {
			return
		}
		assert.Equal(t, s, a.String())
		assert.NotPanics(t, func() { a.Start() })
	})
}

// FuzzParseAlphabet: an accepted alphabet reads back from its name.
func FuzzParseAlphabet(f *testing.F) {
	for _, s := range []string{"latin", "cyrillic", "auto", "", " Latin ", "CYRILLIC", "кириллица", "latin\x00"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		a, err := ParseAlphabet(s)
		if err != nil {
			return
		}
		back, err := ParseAlphabet(a.String())
		require.NoError(t, err)
		assert.Equal(t, a, back)
	})
}
