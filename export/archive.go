package export

import (
	"archive/zip"
	"bytes"
	"fmt"
	"io"
	"strings"
	"time"

	"arbiter/internal/oneline"
	"arbiter/pairing/tiebreak"
	"arbiter/pairing/trf"
	"arbiter/store"
)

// Reporter builds a tournament's report from the database; the event's
// director is one.
type Reporter interface {
	TRF(id uint64) (*trf.Tournament, error)
}

// StandingsReporter also computes standings with tie-breaks; when the
// archive's reporter is one, every tournament folder holds standings.txt.
type StandingsReporter interface {
	Reporter
	Standings(id uint64) (*tiebreak.Standings, error)
}

// WriteTRF writes a tournament as a TRF report.
func WriteTRF(w io.Writer, rep Reporter, id uint64) error {
	t, err := rep.TRF(id)
	if err != nil {
		return fmt.Errorf("tournament %d: %w", id, err)
	}
	if err := t.Write(w); err != nil {
		return fmt.Errorf("tournament %d: write TRF: %w", id, err)
	}
	return nil
}

// Archive writes every record of an event as one zip file: a folder per
// tournament with its TRF report (and standings when rep computes them)
// and, for every game, its record in each of its game's formats and a
// printable HTML scoresheet. Games outside any tournament go to a folder
// of their own. A game whose record cannot be written is listed in
// ERRORS.txt instead of failing the whole archive.
func Archive(w io.Writer, db *store.DB, event string, rep Reporter) error {
	tours, err := db.Tournaments()
	if err != nil {
		return fmt.Errorf("archive: %w", err)
	}
	games, err := db.Games()
	if err != nil {
		return fmt.Errorf("archive: %w", err)
	}
	zw := zip.NewWriter(w)
	a := &archive{zw: zw, used: map[string]bool{}}
	folders := map[uint64]string{}
	for _, t := range tours {
		dir := a.folder(Slug(t.Name))
		folders[t.ID] = dir
		if err := a.tournament(dir, t, rep); err != nil {
			return err
		}
	}
	for _, g := range games {
		dir, ok := folders[g.TournamentID]
		if !ok {
			if folders[0] == "" {
				folders[0] = a.folder("other-games")
			}
			dir = folders[0]
		}
		if err := a.game(dir, db, event, g); err != nil {
			return err
		}
	}
	if err := a.errors(); err != nil {
		return err
	}
	if err := zw.Close(); err != nil {
		return fmt.Errorf("archive: %w", err)
	}
	return nil
}

// tournament writes tournament t's TRF report into folder dir, and its
// standings when rep computes them. A report or standings that cannot be
// built is listed as a problem; the error is the zip's.
func (a *archive) tournament(dir string, t store.Tournament, rep Reporter) error {
	var buf bytes.Buffer
	if err := WriteTRF(&buf, rep, t.ID); err != nil {
		a.problem("tournament %s: %v", t.Name, err)
	} else if err := a.file(dir+"/"+Slug(t.Name)+".trf", t.Created, buf.Bytes()); err != nil {
		return err
	}
	sr, ok := rep.(StandingsReporter)
	if !ok {
		return nil
	}
	buf.Reset()
	st, err := sr.Standings(t.ID)
	if err == nil {
		err = st.WriteText(&buf)
	}
	if err != nil {
		a.problem("tournament %s: standings: %v", t.Name, err)
		return nil
	}
	return a.file(dir+"/standings.txt", t.Created, buf.Bytes())
}

// game writes game g's record in each of its game's formats into dir's
// games folder, and its scoresheet into dir's scoresheets folder, dated
// when the game ended (or started). A record that cannot be written is
// listed as a problem; the error is the zip's.
func (a *archive) game(dir string, db *store.DB, event string, g store.Game) error {
	s, err := load(db, event, g)
	if err != nil {
		a.problem("game %d: %v", g.ID, err)
		return nil
	}
	stamp := g.Ended
	if stamp.IsZero() {
		stamp = g.Started
	}
	for _, f := range Formats(g.Game) {
		var buf bytes.Buffer
		if err := s.Write(&buf, f.Name); err != nil {
			a.problem("%v", err)
			continue
		}
		if err := a.file(dir+"/games/"+s.FileName(f), stamp, buf.Bytes()); err != nil {
			return err
		}
	}
	var buf bytes.Buffer
	if err := s.WriteHTML(&buf); err != nil {
		a.problem("%v", err)
		return nil
	}
	return a.file(dir+"/scoresheets/"+s.FileName(Format{Ext: "html"}), stamp, buf.Bytes())
}

// errors writes ERRORS.txt, listing the problems, when there are any.
func (a *archive) errors() error {
	if len(a.problems) == 0 {
		return nil
	}
	text := "Records that could not be written:\n" + strings.Join(a.problems, "\n") + "\n"
	return a.file("ERRORS.txt", time.Time{}, []byte(text))
}

// archive keeps the names already used in a zip being written.
type archive struct {
	zw       *zip.Writer
	used     map[string]bool
	problems []string
}

// folder returns a folder name not used yet, based on name.
func (a *archive) folder(name string) string {
	dir := name
	for i := 2; a.used[dir+"/"]; i++ {
		dir = fmt.Sprintf("%s-%d", name, i)
	}
	a.used[dir+"/"] = true
	return dir
}

// archiveEpoch stands in for unknown times: zip cannot store times
// before 1980.
var archiveEpoch = time.Date(1980, 1, 1, 0, 0, 0, 0, time.UTC)

// file adds a file; a name already used gets a numbered suffix.
func (a *archive) file(name string, mod time.Time, data []byte) error {
	base, ext := name, ""
	if i := strings.LastIndexByte(name, '.'); i > strings.LastIndexByte(name, '/') {
		base, ext = name[:i], name[i:]
	}
	for i := 2; a.used[name]; i++ {
		name = fmt.Sprintf("%s-%d%s", base, i, ext)
	}
	a.used[name] = true
	if mod.Before(archiveEpoch) {
		mod = archiveEpoch
	}
	fw, err := a.zw.CreateHeader(&zip.FileHeader{Name: name, Method: zip.Deflate, Modified: mod.UTC()})
	if err != nil {
		return fmt.Errorf("archive %s: %w", name, err)
	}
	if _, err := fw.Write(data); err != nil {
		return fmt.Errorf("archive %s: %w", name, err)
	}
	return nil
}

// problem notes a record that could not be written, as one line of
// ERRORS.txt whatever the names in it hold.
func (a *archive) problem(format string, args ...any) {
	a.problems = append(a.problems, oneline.Clean(fmt.Sprintf(format, args...)))
}
