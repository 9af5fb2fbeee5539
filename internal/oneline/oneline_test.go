package oneline_test

import (
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"

	"arbiter/internal/oneline"
)

func TestClean(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"Ivanov, Ivan", "Ivanov, Ivan"},
		{"Ivanov\nIvan", "Ivanov Ivan"},
		{"Ivanov\r\nIvan", "Ivanov  Ivan"},
		{"a\x00b", "a b"},
		{"tab\there", "tab here"},
		{"  lead and trail \n", "lead and trail"},
		{"bad\xffbyte", "bad\uFFFDbyte"},
		{"line\u2028sep\u2029para\u0085nel", "line sep para nel"},
		{"del\x7f", "del"},
		{"Иванов  Пётр", "Иванов  Пётр"},
		{"名人戦", "名人戦"},
		{"\n\r\x00", ""},
		{"", ""},
	} {
		assert.Equal(t, tc.want, oneline.Clean(tc.in), "%q", tc.in)
	}
}

func FuzzClean(f *testing.F) {
	for _, s := range []string{"", "a\nb", "\x00", "\xff", " x ", "a\u2028b", "Müller"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		c := oneline.Clean(s)
		assert.True(t, utf8.ValidString(c))
		assert.Equal(t, c, strings.TrimSpace(c))
		for _, r := range c {
			assert.False(t, unicode.IsControl(r) || r == '\u2028' || r == '\u2029', "%q keeps %U", c, r)
		}
		assert.Equal(t, c, oneline.Clean(c), "Clean is idempotent")
	})
}
