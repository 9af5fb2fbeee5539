package export_test

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"

	"arbiter/export"
)

// FuzzSlug checks that any name becomes a safe file or folder name.
func FuzzSlug(f *testing.F) {
	for _, s := range []string{"Tavreli Open", evilFirst, evilSecond, "../../etc", "..", ".", "", "a\x00b", "Иванов", "名人戦", "\xff\xfe", strings.Repeat("é", 100)} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, name string) {
		s := export.Slug(name)
		assert.NotEmpty(t, s)
		assert.True(t, utf8.ValidString(s), "%q", s)
		assert.NotContains(t, s, "/")
		assert.NotContains(t, s, "\\")
		assert.NotContains(t, s, "..")
		assert.False(t, strings.HasPrefix(s, "."), "%q", s)
		assert.LessOrEqual(t, len(s), 60)
		for _, r := range s {
			assert.True(t, r > ' ' && r != 0x7f, "%q has a control character", s)
		}
	})
}
