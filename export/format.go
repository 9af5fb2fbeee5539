package export

import "arbiter/rules"

// Format is one record format of a game, as the game registered it
// (rules.RegisterFormat).
type Format = rules.Format

// ErrFormat is returned for a format the game has no writer for
// (rules.ErrFormat).
var ErrFormat = rules.ErrFormat

// Formats returns the record formats of a game (by its registered name),
// the usual one first; nil for a game without a record writer.
func Formats(game string) []Format { return rules.Formats(game) }

// LookupFormat returns the named format of a game.
func LookupFormat(game, name string) (Format, error) {
	f, _, err := rules.LookupFormat(game, name)
	return f, err
}
