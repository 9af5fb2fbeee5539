package rules

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"
)

// Format is one record format of a game: how a played game is written
// down in the game's own notation ([RegisterFormat]).
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

// RecordWriter writes one game's record in a format and returns its
// text.
type RecordWriter func(r *Record) (string, error)

// Record is a played game as a record format writes it: what the event
// knows of it, and its moves played again with its rules.
type Record struct {
	// Event and Tournament name the event and the tournament ("" outside
	// one); EventDate is the tournament's first day, zero when unknown.
	Event, Tournament string
	EventDate         time.Time
	// Round and Board place the game in its tournament (0: outside one;
	// Board 0: unknown).
	Round, Board int
	// First and Second are the players of the game's sides.
	First, Second RecordPlayer
	// Started and Ended are when the game began and ended (zero when
	// unknown).
	Started, Ended time.Time
	// TimeControl is the game's time control as the event wrote it ("" or
	// "-": none).
	TimeControl string
	// StartPosition is the start position's text when the game did not
	// begin from the game's own start ("" otherwise).
	StartPosition string
	// Tags are the tags of the record the game was imported from that
	// the fields above do not hold (Event, Site, the players' Elo and
	// FIDE ids, ECO...), in the record's order: a writer adds those it
	// did not write itself.
	Tags []RecordTag

	// Game, Start and Moves are the game played again: After[i] is the
	// position after Moves[i], Sides[i] the side that played it.
	Game  Game
	Start Position
	Moves []Move
	After []Position
	Sides []Color
	// Outcome is the result, Ongoing while the game runs.
	Outcome Outcome
	// Clocks are the mover's clock after each move, nil for a game without
	// a clock or without clock readings.
	Clocks []time.Duration
	// Used is the time each move took (zero where unknown).
	Used []time.Duration
}

// RecordTag is one tag (header) of a game record: a name and its value.
type RecordTag struct {
	Name, Value string
}

// RecordPlayer is a player as a record names them: the name, and what
// the tournament knows (zero where it knows nothing).
type RecordPlayer struct {
	Name   string
	Rating int
	Title  string
	FideID string
}

// Last returns the position after the last move (the start without one).
func (r *Record) Last() Position {
	if len(r.After) == 0 {
		return r.Start
	}
	return r.After[len(r.After)-1]
}

// registeredFormat is a format with its writer.
type registeredFormat struct {
	Format
	write RecordWriter
}

var (
	formatsMu sync.RWMutex
	// formats lists the record formats of every game (by its registered
	// name), the usual one first.
	formats = map[string][]registeredFormat{}
)

// RegisterFormat adds a record format of a game (by its registered name)
// with its writer. The first format registered for a game is its usual
// one. A game's package registers its formats in its init, beside
// [Register] and [Describe]. It panics if the game already has a format
// of that name, as Register does.
func RegisterFormat(game string, f Format, w RecordWriter) {
	formatsMu.Lock()
	defer formatsMu.Unlock()
	if slices.ContainsFunc(formats[game], func(r registeredFormat) bool { return r.Name == f.Name }) {
		panic("rules: RegisterFormat called twice for " + game + " format " + f.Name)
	}
	formats[game] = append(formats[game], registeredFormat{f, w})
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

// LookupFormat returns the named format of a game and its writer, or an
// error wrapping [ErrFormat] that lists the game's formats.
func LookupFormat(game, name string) (Format, RecordWriter, error) {
	formatsMu.RLock()
	defer formatsMu.RUnlock()
	names := make([]string, 0, len(formats[game]))
	for _, r := range formats[game] {
		if r.Name == name {
			return r.Format, r.write, nil
		}
		names = append(names, r.Name)
	}
	return Format{}, nil, fmt.Errorf("format %q of %s (have %s): %w", name, game, strings.Join(names, ", "), ErrFormat)
}
