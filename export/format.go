package export

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
)

// Format is one record format of a game.
type Format struct {
	Name      string // short name used in URLs and file names, e.g. "kif"
	Ext       string // file extension without the dot
	MediaType string // Content-Type of the file
	Title     string // human name, e.g. "KIF (Japanese)"
	// Suffix ends a record's file name before the extension, to tell two
	// formats with one extension apart ("-cyrillic"); usually empty.
	Suffix string
	// Separator is written between two games of one file after the first
	// one's last line (CSA's "/\n"); empty: one blank line, PGN's rule.
	Separator string
}

// Writer writes one game's record: the stored game in s, played again with
// its rules in r. It returns the record's text.
type Writer func(s *Sheet, r *Replayed) (string, error)

// registered is a format with its writer.
type registered struct {
	Format
	write Writer
}

var (
	formatsMu sync.RWMutex
	// formats lists the record formats of every game (by its registered
	// name), the usual one first.
	formats = map[string][]registered{}
)

// RegisterFormat adds a record format of a game (by its registered name)
// with its writer. The first format registered for a game is its usual
// one. The writers of this package's games register from its init
// functions; a game's own package may register its writer the same way.
// It panics if the game already has a format of that name, as
// rules.Register does.
func RegisterFormat(game string, f Format, w Writer) {
	formatsMu.Lock()
	defer formatsMu.Unlock()
	if slices.ContainsFunc(formats[game], func(r registered) bool { return r.Name == f.Name }) {
		panic("export: RegisterFormat called twice for " + game + " format " + f.Name)
	}
	formats[game] = append(formats[game], registered{f, w})
}

// ErrFormat is returned for a format the game has no writer for.
var ErrFormat = errors.New("no such record format for this game")

// Formats returns the record formats of a game (by its registered name),
// the usual one first; nil for a game without a record writer.
func Formats(game string) []Format {
	formatsMu.RLock()
	defer formatsMu.RUnlock()
	var out []Format
	for _, r := range formats[game] {
		out = append(out, r.Format)
	}
	return out
}

// LookupFormat returns the named format of a game.
func LookupFormat(game, name string) (Format, error) {
	r, err := lookup(game, name)
	return r.Format, err
}

// lookup returns the named format of a game with its writer.
func lookup(game, name string) (registered, error) {
	formatsMu.RLock()
	defer formatsMu.RUnlock()
	names := make([]string, 0, len(formats[game]))
	for _, r := range formats[game] {
		if r.Name == name {
			return r, nil
		}
		names = append(names, r.Name)
	}
	return registered{}, fmt.Errorf("format %q of %s (have %s): %w", name, game, strings.Join(names, ", "), ErrFormat)
}
