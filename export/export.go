// Package export writes an event's records for people and other programs:
// scoresheets of every game in its own notation (Tavreli in Latin or
// Cyrillic files, shogi in KIF, CSA and KI2, chess and Tensor chess in PGN,
// Kvaa in its record format), a printable HTML scoresheet per game with
// the time of every move, a tournament's TRF report, and a zip archive of
// the whole event with a folder per tournament.
//
// A game's record formats and their writers are registered with the game
// (rules.RegisterFormat), so the pages, the archive and the live feeds
// offer whatever formats a game has without naming games themselves.
//
// Everything is written from what the store holds: a game's stored
// canonical moves are replayed with the game's rules, so a record is
// always legal and in the notation of the game's own package. A TRF
// report's header (city, arbiters, dates, system, tie-breaks) comes from
// the event's configuration through [Event] and [WithEvent].
//
// The way back, [ReadGames], reads records of every format into the
// store's form, each move replayed with the game's rules, for `arbiter
// import`.
package export

import (
	"fmt"
	"io"
	"strings"
	"time"
	"unicode"

	"arbiter/rules"
	"arbiter/store"
)

// Sheet is one game with what its records need: the stored game and
// moves, the names of the event and the tournament for the headers, and
// what the tournament knows of the players and its start.
type Sheet struct {
	Event      string
	Tournament string
	Game       store.Game
	Moves      []store.Move
	// First and Second are the players as the tournament has them
	// (rating, FIDE id, title); zero outside a tournament.
	First, Second store.Player
	// EventDate is the day the tournament began (its first round's
	// pairing); zero when unknown.
	EventDate time.Time
}

// Load reads a game and its moves from the database.
func Load(db *store.DB, event string, gameID uint64) (*Sheet, error) {
	g, err := db.Game(gameID)
	if err != nil {
		return nil, err
	}
	return load(db, event, g)
}

// load reads the moves of a stored game and what its tournament knows.
func load(db *store.DB, event string, g store.Game) (*Sheet, error) {
	moves, err := db.Moves(g.ID)
	if err != nil {
		return nil, err
	}
	s := &Sheet{Event: event, Game: g, Moves: moves}
	if g.TournamentID == 0 {
		return s, nil
	}
	t, err := db.Tournament(g.TournamentID)
	if err != nil {
		return nil, err
	}
	s.Tournament = t.Name
	players, err := db.Players(g.TournamentID)
	if err != nil {
		return nil, fmt.Errorf("tournament %d: %w", g.TournamentID, err)
	}
	for _, p := range players {
		switch p.ID {
		case g.FirstID:
			s.First = p
		case g.SecondID:
			s.Second = p
		}
	}
	rounds, err := db.Rounds(g.TournamentID)
	if err != nil {
		return nil, fmt.Errorf("tournament %d: %w", g.TournamentID, err)
	}
	for _, r := range rounds {
		if r.Number == 1 {
			s.EventDate = r.PairedAt
		}
	}
	return s, nil
}

// FileName returns a file name for the sheet's record in format f:
// round, board and players, e.g. "r02-b1-Ivanov-Petrov.pgn".
func (s *Sheet) FileName(f Format) string {
	g := s.Game
	var b strings.Builder
	if g.Round > 0 {
		fmt.Fprintf(&b, "r%02d-b%d-", g.Round, g.BoardNo)
	} else {
		fmt.Fprintf(&b, "game%d-", g.ID)
	}
	b.WriteString(Slug(g.First))
	b.WriteByte('-')
	b.WriteString(Slug(g.Second))
	b.WriteString(f.Suffix)
	b.WriteByte('.')
	b.WriteString(f.Ext)
	return b.String()
}

// Write writes the sheet's record in the named format of its game.
func (s *Sheet) Write(w io.Writer, format string) error {
	f, write, err := rules.LookupFormat(s.Game.Game, format)
	if err != nil {
		return err
	}
	r, err := record(s)
	if err != nil {
		return fmt.Errorf("game %d: %w", s.Game.ID, err)
	}
	text, err := write(r)
	if err != nil {
		return fmt.Errorf("game %d: %s record: %w", s.Game.ID, f.Name, err)
	}
	_, err = io.WriteString(w, text)
	return err
}

// Slug makes a name safe for a file or folder name: letters and digits
// (any script) kept, runs of anything else turned into one hyphen.
func Slug(name string) string {
	var b strings.Builder
	dash, dot := false, false
	for _, r := range name {
		switch {
		case r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r):
			b.WriteRune(r)
			dash, dot = false, false
		case r == '.' && b.Len() > 0 && !dot && !dash:
			// A dot between words stays ("2026.11"); never two in a row.
			b.WriteRune(r)
			dot = true
		case !dash && !dot && b.Len() > 0:
			b.WriteByte('-')
			dash = true
		}
	}
	s := strings.Trim(b.String(), "-.")
	if len(s) > 60 {
		s = strings.Trim(strings.ToValidUTF8(s[:60], ""), "-.")
	}
	if s == "" {
		return "unnamed"
	}
	return s
}
