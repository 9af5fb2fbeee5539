package web

import (
	"bytes"
	"fmt"
	"html/template"
	"net/http"
	"strconv"

	"arbiter/pairing/tiebreak"
	"arbiter/store"
)

// Printouts: standalone pages with a print stylesheet and no navigation,
// for the notice board and the tables.

var printPages = template.Must(template.New("print.html").Funcs(funcs).ParseFS(assets, "templates/print.html"))

// printPlayer is one side of a printed board.
type printPlayer struct {
	ID     int
	Name   string
	Rating int
	Score  float64 // before the round
}

// printBoard is one board (or bye) of a printed round.
type printBoard struct {
	Board         int
	First, Second printPlayer
	Result        string
	Bye           string // what the unpaired player gets, "" for a game
	Manual        string
}

// printRound is a round as the printouts show it.
type printRound struct {
	Event, Tournament string
	TournamentID      uint64
	Round             int
	How               string // "manual", "rematches" or ""
	FirstSide         string
	SecondSide        string
	Boards            []printBoard
	Byes              []printBoard
}

// byeText names what an unpaired player gets.
func byeText(result string) string {
	switch result {
	case "bye":
		return "pairing-allocated bye"
	case "H":
		return "half-point bye"
	case "F":
		return "full-point bye"
	case "Z":
		return "not paired (absent)"
	}
	return "not paired"
}

// printRound gathers round n of tournament id for the printouts.
func (s *Site) printRound(r *http.Request) (*printRound, error) {
	id, err := pathID(r, "id")
	if err != nil {
		return nil, err
	}
	t, err := s.tournament(id)
	if err != nil {
		return nil, err
	}
	n, err := strconv.Atoi(r.PathValue("n"))
	if err != nil || n < 1 {
		return nil, fmt.Errorf("%w: round %q is not a positive number", errBadRequest, r.PathValue("n"))
	}
	db := s.d.DB()
	ps, err := db.Players(id)
	if err != nil {
		return nil, fmt.Errorf("players of tournament %d: %w", id, err)
	}
	rs, err := db.Rounds(id)
	if err != nil {
		return nil, fmt.Errorf("rounds of tournament %d: %w", id, err)
	}
	round := roundNumbered(rs, n)
	if round == nil {
		return nil, fmt.Errorf("tournament %d has no round %d yet: %w", id, n, store.ErrNotFound)
	}
	// Each player's score before the round, as the crosstable counts it
	// (the tournament's own scoring, byes included).
	ct, err := s.crosstableOnly(id)
	if err != nil {
		return nil, fmt.Errorf("scores before round %d: %w", n, err)
	}
	score := scoresBefore(ct, n)
	players := playersByNumber(ps)
	player := func(no int) printPlayer {
		p, ok := players[no]
		name := p.Name
		if !ok {
			name = fmt.Sprintf("player %d", no)
		}
		return printPlayer{ID: no, Name: name, Rating: p.Rating, Score: score[no]}
	}
	pr := &printRound{Event: s.d.Name(), Tournament: t.Name, TournamentID: id, Round: n, How: round.How}
	pr.FirstSide, pr.SecondSide = gameSides(t.Game, "First", "Second")
	for _, p := range round.Pairings {
		b := printBoard{Board: p.Board, First: player(p.First), Result: p.Result, Manual: p.Manual}
		if p.Second == 0 {
			b.Bye = byeText(p.Result)
			pr.Byes = append(pr.Byes, b)
			continue
		}
		b.Second = player(p.Second)
		pr.Boards = append(pr.Boards, b)
	}
	return pr, nil
}

// roundNumbered is round n of rs, nil if there is none.
func roundNumbered(rs []store.Round, n int) *store.Round {
	var round *store.Round
	for i := range rs {
		if rs[i].Number == n {
			round = &rs[i]
		}
	}
	return round
}

func (s *Site) printPage(name string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		pr, err := s.printRound(r)
		if err != nil {
			s.failErr(w, r, err)
			return
		}
		var buf bytes.Buffer
		if err := printPages.ExecuteTemplate(&buf, name, pr); err != nil {
			s.fail(w, r, http.StatusInternalServerError, fmt.Sprintf("printout %s: %v", name, err))
			return
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		_, _ = w.Write(buf.Bytes())
	}
}

// printableNames are the pages that have a printout.
var printableNames = []string{"standings", "crosstable"}

// tbNames names the tie-breaks under the printed standings.
var tbNames = map[tiebreak.Kind]string{
	tiebreak.PTS: "points", tiebreak.BH: "Buchholz", tiebreak.FB: "Fore Buchholz",
	tiebreak.AOB: "average of the opponents' Buchholz", tiebreak.SB: "Sonneborn-Berger",
	tiebreak.DE: "direct encounter", tiebreak.WIN: "rounds won", tiebreak.WON: "games won",
	tiebreak.BPG: "games with the second move", tiebreak.BWG: "games won with the second move",
	tiebreak.REP: "rounds elected to play", tiebreak.ARO: "average rating of the opponents",
	tiebreak.TPR: "tournament performance rating", tiebreak.PTP: "perfect tournament performance",
	tiebreak.APRO: "average of the opponents' TPR", tiebreak.APPO: "average of the opponents' PTP",
	tiebreak.PS: "progressive score", tiebreak.KS: "Koya system", tiebreak.RTNG: "own rating",
	tiebreak.TPN: "starting rank",
}

func tbName(s tiebreak.Spec) string {
	if n, ok := tbNames[s.Kind]; ok {
		return n
	}
	return s.Kind.String()
}

// printOf serves a page's content in the print layout.
func (s *Site) printOf(page string, get func(http.ResponseWriter, *http.Request) (map[string]any, bool)) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		data, ok := get(w, r)
		if !ok {
			return
		}
		var buf bytes.Buffer
		if err := s.pages.prints[page].ExecuteTemplate(&buf, "printlayout", pageData{Event: s.d.Name(), Page: page, Data: data}); err != nil {
			s.fail(w, r, http.StatusInternalServerError, fmt.Sprintf("printout %s: %v", page, err))
			return
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		_, _ = w.Write(buf.Bytes())
	}
}
