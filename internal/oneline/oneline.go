// Package oneline makes stored free text (player, event and tournament
// names) safe for the one-line fields of record formats: PGN and Tavreli
// tags, KIF/CSA headers, Kvaa tags, TRF columns and printable pages.
// Every writer of an export passes its text fields through Clean, so a
// name holding a newline, a NUL or invalid UTF-8 can never split a record
// or make a file that its readers refuse.
package oneline

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Clean returns s as one line of printable text: invalid UTF-8 becomes
// U+FFFD, every control character (C0, DEL, C1) and the Unicode line and
// paragraph separators become a space, and leading and trailing white
// space is dropped. Text that is already clean is returned unchanged.
func Clean(s string) string {
	if isClean(s) {
		return s
	}
	return strings.TrimSpace(strings.Map(func(r rune) rune {
		if breaks(r) {
			return ' '
		}
		return r
	}, strings.ToValidUTF8(s, string(utf8.RuneError))))
}

// breaks reports whether r may not stand inside a one-line field.
func breaks(r rune) bool {
	return unicode.IsControl(r) || r == '\u2028' || r == '\u2029'
}

func isClean(s string) bool {
	if !utf8.ValidString(s) || strings.TrimSpace(s) != s {
		return false
	}
	for _, r := range s {
		if breaks(r) {
			return false
		}
	}
	return true
}
