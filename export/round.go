package export

import (
	"bytes"
	"fmt"
	"io"
	"slices"

	"arbiter/store"
)

// RoundFormat returns the format of a tournament's game that a round feed
// named with extension ext is written in: a format's name ("pgn", "kif",
// "csa", "latin") or its file extension ("tav", "kifu").
func RoundFormat(game, ext string) (Format, error) {
	f, err := LookupFormat(game, ext)
	if err == nil {
		return f, nil
	}
	for _, f := range Formats(game) {
		if f.Ext == ext {
			return f, nil
		}
	}
	return Format{}, err
}

// separate ends the records written so far in buf the way format f
// separates two games of one file: its Separator (CSA's line holding "/"),
// or one blank line (PGN's own rule, which the Tavreli and Kvaa readers
// share).
func separate(buf *bytes.Buffer, f Format) {
	b := buf.Bytes()
	if !bytes.HasSuffix(b, []byte("\n")) {
		buf.WriteByte('\n')
	}
	if f.Separator != "" {
		buf.WriteString(f.Separator)
	} else if !bytes.HasSuffix(b, []byte("\n\n")) {
		buf.WriteByte('\n')
	}
}

// WriteRound writes the records of every game of round n of tournament
// tournamentID, in board order, in the named format (see RoundFormat):
// one multi-game file, the live feed of the round for broadcasters.
// Games in play are written as far as they are, with an unfinished
// result. Boards without a game (byes, forfeits, games not started yet)
// are left out. A round that is not paired yet is store.ErrNotFound.
func WriteRound(w io.Writer, db *store.DB, event string, tournamentID uint64, n int, format string) error {
	t, err := db.Tournament(tournamentID)
	if err != nil {
		return err
	}
	f, err := RoundFormat(t.Game, format)
	if err != nil {
		return fmt.Errorf("tournament %d: %w", tournamentID, err)
	}
	rounds, err := db.Rounds(tournamentID)
	if err != nil {
		return fmt.Errorf("tournament %d: %w", tournamentID, err)
	}
	i := slices.IndexFunc(rounds, func(r store.Round) bool { return r.Number == n })
	if i < 0 {
		return fmt.Errorf("tournament %d: round %d: %w", tournamentID, n, store.ErrNotFound)
	}
	boards := slices.Clone(rounds[i].Pairings)
	slices.SortStableFunc(boards, func(a, b store.Pairing) int { return a.Board - b.Board })
	var buf bytes.Buffer
	first := true
	for _, p := range boards {
		if p.GameID == 0 {
			continue
		}
		s, err := Load(db, event, p.GameID)
		if err != nil {
			return fmt.Errorf("round %d board %d: %w", n, p.Board, err)
		}
		if !first {
			separate(&buf, f)
		}
		first = false
		if err := s.Write(&buf, f.Name); err != nil {
			return fmt.Errorf("round %d board %d: %w", n, p.Board, err)
		}
	}
	_, err = w.Write(buf.Bytes())
	return err
}
