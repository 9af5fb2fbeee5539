// Package names checks the names people and things are given at an event
// (players, tournaments, logins, the event itself) and says when two
// names are the same name. It is the one place where names are compared:
// the configuration's check for duplicate players, a late entry on the
// console and the import of game records by the players' names all use
// [Key].
//
// A name is compared in its normal form ([Normal]): Unicode NFC (an "á"
// typed as "a" and a combining accent is the "á" typed as one
// character), every run of white space (spaces, tabs, no-break spaces)
// one space, nothing before or after; and without regard to case. A name
// holding what a reader cannot see or that changes how the text around it
// reads (control characters, zero-width characters, bidirectional
// controls such as U+202E) is refused by [Check], so that two names that
// look alike are the same name.
package names

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// MaxLen is the longest name, in characters. Pages, scoresheets and TRF
// files have no room for more.
const MaxLen = 120

// Check says what is wrong with a name, or returns nil: empty (or only
// white space), not UTF-8, longer than [MaxLen] characters in its normal
// form, or holding a control character (NUL, CR, LF, tab...), a
// bidirectional control (U+202E) or another invisible formatting
// character (a zero-width space U+200B, a zero-width joiner U+200D, a
// byte-order mark U+FEFF...). The error reads as the end of a sentence
// about the name: "holds the control character U+202E at byte 3; names
// must be plain text".
func Check(name string) error {
	switch {
	case !utf8.ValidString(name):
		return fmt.Errorf("is not valid UTF-8")
	case strings.TrimFunc(name, unicode.IsSpace) == "":
		return fmt.Errorf("must not be empty")
	}
	for i, r := range name {
		switch {
		case unicode.IsControl(r) || unicode.Is(unicode.Bidi_Control, r):
			return fmt.Errorf("holds the control character %U at byte %d; names must be plain text", r, i)
		case unicode.Is(unicode.Cf, r) || r == '\u2028' || r == '\u2029':
			return fmt.Errorf("holds the invisible character %U at byte %d (a zero-width or formatting character); names must be plain text", r, i)
		}
	}
	if n := utf8.RuneCountInString(Normal(name)); n > MaxLen {
		return fmt.Errorf("is %d characters long; at most %d", n, MaxLen)
	}
	return nil
}

// Normal returns the normal form of a name: Unicode NFC, every run of
// white space one space, trimmed. It is the form in which a name is
// stored.
func Normal(name string) string {
	return strings.Join(strings.Fields(norm.NFC.String(name)), " ")
}

// Key returns the form in which two names are the same name: the normal
// form, without regard to case.
func Key(name string) string { return strings.ToLower(Normal(name)) }

// Same reports whether a and b are the same name.
func Same(a, b string) bool { return Key(a) == Key(b) }
