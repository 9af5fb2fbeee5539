package names_test

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"

	"arbiter/internal/names"
)

func TestCheck(t *testing.T) {
	for _, tc := range []struct {
		name, want string
	}{
		{"Nils Berg", ""},
		{"Nils  Berg ", ""}, // stored in its normal form
		{"Łukasz Żółć", ""},
		{"山田 太郎", ""},
		{"", "must not be empty"},
		{" \t\u00a0", "must not be empty"},
		{"Bad\nName", "control character U+000A at byte 3"},
		{"Evil\u202eName", "control character U+202E at byte 4"},
		{"Nils\u200bBerg", "invisible character U+200B at byte 4"},
		{"Nils\u200dBerg", "invisible character U+200D"},
		{"\ufeffNils Berg", "invisible character U+FEFF at byte 0"},
		{"Nils\u2066Berg", "control character U+2066"},
		{"Nils\u2028Berg", "invisible character U+2028"},
		{"\xffNils", "not valid UTF-8"},
		{strings.Repeat("Ж", names.MaxLen), ""},
		{strings.Repeat("Ж", names.MaxLen+1), "121 characters long; at most 120"},
		{strings.Repeat("Ж ", names.MaxLen/2) + "   ", ""}, // 119 characters once trimmed
	} {
		err := names.Check(tc.name)
		if tc.want == "" {
			assert.NoError(t, err, "%q", tc.name)
			continue
		}
		if assert.Error(t, err, "%q", tc.name) {
			assert.Contains(t, err.Error(), tc.want, "%q", tc.name)
		}
	}
}

func TestNormalAndKey(t *testing.T) {
	for _, tc := range []struct{ a, b string }{
		{"Nils Berg", "Nils  Berg "},
		{"Nils Berg", " nils\tberg"},
		{"Nils Berg", "Nils\u00a0Berg"},      // a no-break space
		{"Eva Horváth", "Eva Horva\u0301th"}, // NFC: a and a combining acute
		{"Ångström", "A\u030angstro\u0308m"}, // two combining marks
		{"ÉVA HORVÁTH", "éva horváth"},       // case
	} {
		assert.True(t, names.Same(tc.a, tc.b), "%q and %q", tc.a, tc.b)
		assert.Equal(t, names.Key(tc.a), names.Key(tc.b))
	}
	assert.False(t, names.Same("Nils Berg", "Nils Bergh"))
	assert.Equal(t, "Nils Berg", names.Normal("  Nils   Berg\t"))
	assert.Equal(t, "Eva Horváth", names.Normal("Eva Horva\u0301th"))
	assert.Len(t, []rune(names.Normal("Eva Horva\u0301th")), 11, "one character for á")
}

// FuzzNormal checks the normal form on any text: it is its own normal
// form, the same name as the text, holds no run of white space and no
// white space at its ends, and a name Check accepts stays accepted.
func FuzzNormal(f *testing.F) {
	for _, s := range []string{"Nils  Berg ", "Eva Horva\u0301th", "\u00a0x\ty", "", "Ж"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if !utf8.ValidString(s) {
			return
		}
		n := names.Normal(s)
		assert.Equal(t, n, names.Normal(n), "idempotent")
		assert.True(t, names.Same(s, n))
		assert.Equal(t, strings.Join(strings.Fields(n), " "), n)
		if names.Check(s) == nil {
			assert.NoError(t, names.Check(n))
		}
	})
}
