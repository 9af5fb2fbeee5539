package export

import (
	_ "embed"
	"fmt"
	"html/template"
	"io"
	"time"

	"arbiter/internal/oneline"
	"arbiter/rules"
)

//go:embed sheet.html
var sheetHTML string

var sheetTemplate = template.Must(template.New("sheet").Parse(sheetHTML))

// sheetPage is what the printable scoresheet shows.
type sheetPage struct {
	Heading, GameName, TimeControl, Date string
	ID                                   uint64
	Round, Board                         int
	White, Black                         string
	FirstSide, SecondSide                string
	Rows                                 []sheetRow
	Result, Reason                       string
}

// sheetRow is one numbered line: a move of each side.
type sheetRow struct {
	Number        int
	First, Second *sheetMove
}

type sheetMove struct {
	Notation, Used, Clock string
}

// WriteHTML writes the printable scoresheet: both players, every move in
// the game's notation with the time it took and the clock after it, the
// result and lines to sign. Every stored text is escaped.
func (s *Sheet) WriteHTML(w io.Writer) error {
	r, err := record(s)
	if err != nil {
		return fmt.Errorf("game %d: %w", s.Game.ID, err)
	}
	g := s.Game
	// Stored text is escaped by the template and made one line here: a
	// control character has no place in an HTML page.
	p := sheetPage{
		Heading: oneline.Clean(eventTag(r)), GameName: g.Game, TimeControl: oneline.Clean(g.TimeControl), ID: g.ID,
		Round: g.Round, Board: g.BoardNo, White: oneline.Clean(g.First), Black: oneline.Clean(g.Second),
		FirstSide: r.Game.SideName(rules.First), SecondSide: r.Game.SideName(rules.Second),
		Result: resultToken(r.Outcome),
	}
	if p.Heading == "" {
		p.Heading = "Scoresheet"
	}
	if r.Outcome.Over() {
		p.Reason = r.Outcome.Reason.String()
	}
	if !g.Started.IsZero() {
		p.Date = g.Started.UTC().Format("2006-01-02")
	}
	clocks, timed := r.Clocks, r.Clocks != nil
	var row *sheetRow
	number := 0
	for i, m := range s.Moves {
		sm := &sheetMove{Notation: m.Notation, Used: FormatUsed(m.Used)}
		if timed {
			sm.Clock = FormatClock(clocks[i])
		}
		if r.Sides[i] == rules.First || row == nil || row.Second != nil {
			number++
			p.Rows = append(p.Rows, sheetRow{Number: number})
			row = &p.Rows[len(p.Rows)-1]
		}
		if r.Sides[i] == rules.First {
			row.First = sm
		} else {
			row.Second = sm
		}
	}
	return sheetTemplate.Execute(w, p)
}

// FormatUsed writes the time a move took: "12s", "1:05", "1:02:03", with
// tenths under ten seconds.
func FormatUsed(d time.Duration) string {
	if d < 0 {
		d = 0
	}
	switch {
	case d < 10*time.Second:
		return fmt.Sprintf("%.1fs", d.Seconds())
	case d < time.Minute:
		return fmt.Sprintf("%ds", int(d/time.Second))
	case d < time.Hour:
		return fmt.Sprintf("%d:%02d", int(d/time.Minute), int(d%time.Minute/time.Second))
	}
	return FormatClock(d)
}
