package web

import (
	"bytes"
	"fmt"
	"html/template"
	"net/http"
	"strconv"
	"sync"
	"time"

	"arbiter/clock"
	"arbiter/director"
	"arbiter/export"
	"arbiter/pairing/tiebreak"
	"arbiter/rules"
	"arbiter/store"
)

// pages holds one template set per page: the layout, the shared partials
// and the page's own content.
type pages struct {
	sets map[string]*template.Template
	// prints are the printable versions of some pages: the page's content
	// in the print layout.
	prints map[string]*template.Template
	// partials renders the fragments the script fetches.
	partials *template.Template
	// last keeps the squares of each live game's last move, so a table
	// card drawn for many spectators reads the game's moves once per move.
	last sync.Map // game ID -> lastMove
}

// lastMove is the last move of a game as a table card highlights it: the
// squares of move Plies.
type lastMove struct {
	Plies   int
	Squares []string
}

var pageNames = []string{"event", "live", "tournament", "standings", "crosstable", "player", "game", "login", "console", "manage", "error"}

var funcs = template.FuncMap{
	"clock": clockText,
	"inc":   func(n int) int { return n + 1 },
	"dec": func(n int) int {
		if n > 0 {
			return n - 1
		}
		return 0
	},
	"tbvalue":     func(v tiebreak.Value, s tiebreak.Spec) string { return v.Format(s.Kind) },
	"cellcode":    func(c tiebreak.Cell, first, second byte) string { return c.Code(first, second) },
	"points":      func(f float64) string { return strconv.FormatFloat(f, 'f', -1, 64) },
	"tbname":      tbName,
	"trunc":       truncate,
	"gamename":    gameName,
	"arbitration": arbitrationOf,
	"sysname":     systemName,
	"moveArgs":    func(m *moveView, ply int) map[string]any { return map[string]any{"Move": m, "Ply": ply} },
	"resultArgs": func(game uint64, csrf string, reasons []string) map[string]any {
		return map[string]any{"Game": game, "CSRF": csrf, "Reasons": reasons}
	},
}

func mustParsePages() *pages {
	base := template.Must(template.New("layout.html").Funcs(funcs).ParseFS(assets, "templates/layout.html", "templates/claims.html"))
	p := &pages{sets: map[string]*template.Template{}, partials: base}
	for _, name := range pageNames {
		t := template.Must(template.Must(base.Clone()).ParseFS(assets, "templates/"+name+".html"))
		p.sets[name] = t
	}
	p.prints = map[string]*template.Template{}
	for _, name := range printableNames {
		p.prints[name] = template.Must(template.Must(p.sets[name].Clone()).ParseFS(assets, "templates/print.html"))
	}
	return p
}

// systemNames are the pairing systems as players call them.
var systemNames = map[string]string{"swiss-dutch": "Swiss (Dutch)", "swiss-dutch-2017": "Swiss (Dutch, 2017 rules)",
	"round-robin": "round robin", "double-round-robin": "double round robin"}

// gameName names a game as players do ("Tensor chess", its
// rules.Facts.Title); an unknown game keeps its code.
func gameName(game string) string { return rules.FactsOf(game).Title }

// arbitration is what the console offers for a game at the board, from
// its rules: draw offers or jishogi, draw claims, declarations.
type arbitration struct {
	DrawOffers bool // the players may agree a draw
	Impasse    bool // jishogi offers and rulings, entering-king declarations
	Claims     bool // a player may claim a draw (threefold, 50 moves)
}

// arbitrationOf returns what the console offers for a game (by its
// registered name); an unknown game gets draw offers only.
func arbitrationOf(game string) arbitration {
	g, err := rules.New(game, nil)
	if err != nil {
		return arbitration{DrawOffers: true}
	}
	tr := g.Traits()
	_, claims := g.Start().(rules.Claimer)
	return arbitration{DrawOffers: !tr.NoDrawByAgreement, Impasse: tr.Impasse, Claims: claims}
}

// systemName names a pairing system as players do.
func systemName(system string) string {
	if n, ok := systemNames[system]; ok {
		return n
	}
	return system
}

// truncate shortens s to at most n characters, with an ellipsis: page
// titles stay short enough for a browser tab whatever the names.
func truncate(n int, s string) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}

// clockText writes a clock in milliseconds as the clock's display does
// ([clock.Text]), as the script does.
func clockText(ms int64) string { return clock.Text(time.Duration(ms) * time.Millisecond) }

// pageData is what the layout needs around a page's own data.
type pageData struct {
	Event       string
	Page        string
	Tournament  uint64
	Tournaments []tourSummary
	Data        any
}

// render executes a page into a buffer first, so a template error gives a
// clean 500 instead of half a page.
func (s *Site) render(w http.ResponseWriter, r *http.Request, status int, page string, data any) {
	tours, err := s.tourSummaries()
	if err != nil {
		s.log.Error("render: tournaments", "err", err)
	}
	pd := pageData{Event: s.d.Name(), Page: page, Tournaments: tours, Data: data}
	if id, err := strconv.ParseUint(r.PathValue("id"), 10, 64); err == nil && (page == "tournament" || page == "standings" || page == "crosstable") {
		pd.Tournament = id
	}
	var buf bytes.Buffer
	if err := s.pages.sets[page].ExecuteTemplate(&buf, "layout", pd); err != nil {
		s.log.Error("render page", "page", page, "err", err)
		http.Error(w, "internal error", http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.WriteHeader(status)
	_, _ = w.Write(buf.Bytes())
}

// fragment renders a partial for the script.
func (s *Site) fragment(w http.ResponseWriter, name string, data any) {
	var buf bytes.Buffer
	if err := s.pages.partials.ExecuteTemplate(&buf, name, data); err != nil {
		s.log.Error("render fragment", "fragment", name, "err", err)
		http.Error(w, "internal error", http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	_, _ = w.Write(buf.Bytes())
}

// fail answers an error: an HTML page for browsers, JSON for the API.
func (s *Site) fail(w http.ResponseWriter, r *http.Request, status int, msg string) {
	if status >= 500 {
		s.log.Error("web request failed", "method", r.Method, "path", r.URL.Path, "err", msg)
		msg = "internal error: " + msg
	}
	if wantsJSON(r) {
		apiError(w, status, msg)
		return
	}
	back := "/"
	if len(r.URL.Path) > 8 && r.URL.Path[:8] == "/console" {
		back = "/console"
	}
	s.render(w, r, status, "error", map[string]any{"Status": status, "StatusText": http.StatusText(status), "Message": msg, "Back": back})
}

// failErr answers an error with the status its kind calls for.
func (s *Site) failErr(w http.ResponseWriter, r *http.Request, err error) {
	s.fail(w, r, statusOf(err), err.Error())
}

// tableCard is a live table with its board drawn.
type tableCard struct {
	Live    director.Live
	Board   *boardModel
	Choices []choice
	// Reason is why a finished game ended; Idle says what is next on a
	// table with no game. Both are filled by Site.card.
	Reason string
	Idle   string
}

// Warning is the visible warning about the table's board link, or "".
func (c tableCard) Warning() string {
	what := ""
	switch c.Live.Health {
	case "disconnected":
		what = "disconnected"
	case "not-responding":
		what = "not responding"
	default:
		return ""
	}
	if c.Live.HealthSince.IsZero() {
		return "board " + what
	}
	return "board " + what + " since " + c.Live.HealthSince.Format("15:04")
}

// HealthText is the board link's health in words.
func (c tableCard) HealthText() string {
	switch c.Live.Health {
	case "no board":
		return "waiting for its board"
	case "connecting":
		return "board connecting"
	case "active":
		return "board connected"
	case "delayed":
		return "board slow to answer"
	case "not-responding":
		return "board not responding"
	}
	return "board " + c.Live.Health
}

// choice is one candidate move of a prompt.
type choice struct{ Move, Label string }

func card(l director.Live) tableCard {
	c := tableCard{Live: l, Board: newBoardModel(l.Game, l.View)}
	if p := l.Prompt; p != nil {
		for i, m := range p.Moves {
			label := m
			if i < len(p.Choices) {
				label = p.Choices[i] + " (" + m + ")"
			}
			c.Choices = append(c.Choices, choice{Move: m, Label: label})
		}
	}
	return c
}

// card is card(l) with what the store knows: why a finished game ended,
// and what is next on an idle table. sums, when not nil, keeps the
// tournament summaries read so far, for the other tables of one page
// (between rounds every table is idle).
func (s *Site) card(l director.Live, sums map[uint64]tourSummary) tableCard {
	c := card(l)
	if sq := s.lastSquares(l); sq != nil {
		c.Board = newBoardModel(l.Game, l.View, sq...)
	}
	switch {
	case l.GameID != 0 && l.Result != "":
		g, err := s.d.DB().Game(l.GameID)
		if err != nil {
			s.log.Warn("table card: game", "table", l.Table, "game", l.GameID, "err", err)
			break
		}
		c.Reason = g.Reason
	case l.GameID == 0:
		c.Idle = "no game on this table"
		if l.Tournament == 0 {
			break
		}
		sum, ok := sums[l.Tournament]
		if !ok {
			var err error
			if sum, err = s.summary(l.Tournament); err != nil {
				s.log.Warn("table card: tournament", "table", l.Table, "tournament", l.Tournament, "err", err)
				break
			}
			if sums != nil {
				sums[l.Tournament] = sum
			}
		}
		switch {
		case sum.Running:
			c.Idle = fmt.Sprintf("no game this round (round %d)", sum.Paired)
		case sum.Paired < sum.Rounds:
			c.Idle = fmt.Sprintf("round %d not paired yet", sum.Paired+1)
		default:
			c.Idle = "tournament finished"
		}
	}
	return c
}

// lastSquares returns the squares of the last move of a table's game, read
// once per move and kept; nil when there is none to highlight.
func (s *Site) lastSquares(l director.Live) []string {
	if l.GameID == 0 || l.Plies == 0 || l.View == nil {
		return nil
	}
	if v, ok := s.pages.last.Load(l.GameID); ok && v.(lastMove).Plies == l.Plies {
		return v.(lastMove).Squares
	}
	g, err := s.d.DB().Game(l.GameID)
	if err != nil {
		s.log.Warn("table card: last move", "table", l.Table, "game", l.GameID, "err", err)
		return nil
	}
	_, ply, sq, err := s.boardWithLast(g, l.Plies)
	if err != nil || ply != l.Plies {
		// The stored moves are behind the table's: highlight nothing
		// rather than an older move, and read again next time.
		return nil
	}
	s.pages.last.Store(l.GameID, lastMove{Plies: l.Plies, Squares: sq})
	return sq
}

func (s *Site) cards() []tableCard {
	var out []tableCard
	sums := map[uint64]tourSummary{}
	for _, l := range s.d.Tables() {
		out = append(out, s.card(l, sums))
	}
	return out
}

func (s *Site) eventPage(w http.ResponseWriter, r *http.Request) {
	tours, err := s.tourSummaries()
	if err != nil {
		s.failErr(w, r, err)
		return
	}
	s.render(w, r, http.StatusOK, "event", map[string]any{"Tournaments": tours, "Tables": s.cards()})
}

func (s *Site) livePage(w http.ResponseWriter, r *http.Request) {
	s.render(w, r, http.StatusOK, "live", s.cards())
}

// tourPage is the tournament page: the tournament with each player's
// score before every round, and the players by start number.
type tourPage struct {
	*tourDetail
	// Scores is round -> start number -> score before the round.
	Scores   map[int]map[int]float64
	ByNumber map[int]store.Player
	// The players' columns shown: those some player has.
	HasTitle, HasFederation, HasFideID bool
}

func (s *Site) tournamentPage(w http.ResponseWriter, r *http.Request) {
	td, ok := lookup(s, w, r, s.tourDetail)
	if !ok {
		return
	}
	tp := &tourPage{tourDetail: td, Scores: map[int]map[int]float64{}, ByNumber: map[int]store.Player{}}
	for _, p := range td.PlayerList {
		tp.ByNumber[p.ID] = p
		tp.HasTitle = tp.HasTitle || p.Title != ""
		tp.HasFederation = tp.HasFederation || p.Federation != ""
		tp.HasFideID = tp.HasFideID || p.FideID != ""
	}
	if len(td.RoundList) > 0 {
		ct, err := s.crosstableOnly(td.ID)
		if err != nil {
			s.failErr(w, r, fmt.Errorf("scores of tournament %d: %w", td.ID, err))
			return
		}
		for _, rv := range td.RoundList {
			tp.Scores[rv.Number] = scoresBefore(ct, rv.Number)
		}
	}
	s.render(w, r, http.StatusOK, "tournament", tp)
}

func (s *Site) standingsPage(w http.ResponseWriter, r *http.Request) {
	if data, ok := s.standingsData(w, r); ok {
		s.render(w, r, http.StatusOK, "standings", data)
	}
}

// standingsData is what the standings page and its printout show.
func (s *Site) standingsData(w http.ResponseWriter, r *http.Request) (map[string]any, bool) {
	id, _ := pathID(r, "id")
	st, ok := lookup(s, w, r, s.standings)
	if !ok {
		return nil, false
	}
	t, _ := s.d.DB().Tournament(id)
	ps, err := s.d.DB().Players(id)
	if err != nil {
		s.failErr(w, r, fmt.Errorf("players of tournament %d: %w", id, err))
		return nil, false
	}
	return map[string]any{"Tournament": t, "Standings": st, "Players": playersByNumber(ps)}, true
}

// colourLetters are the crosstable letters of each game's sides.
func colourLetters(game string) (byte, byte) { return rules.FactsOf(game).Letters() }

func (s *Site) crosstablePage(w http.ResponseWriter, r *http.Request) {
	if data, ok := s.crosstableData(w, r); ok {
		s.render(w, r, http.StatusOK, "crosstable", data)
	}
}

// crosstableData is what the crosstable page and its printout show.
func (s *Site) crosstableData(w http.ResponseWriter, r *http.Request) (map[string]any, bool) {
	id, _ := pathID(r, "id")
	ct, ok := lookup(s, w, r, s.crosstableOnly)
	if !ok {
		return nil, false
	}
	t, _ := s.d.DB().Tournament(id)
	first, second := colourLetters(t.Game)
	rounds := make([]int, ct.Rounds)
	for i := range rounds {
		rounds[i] = i + 1
	}
	return map[string]any{"Tournament": t, "Cross": ct, "RoundNumbers": rounds, "FirstLetter": first, "SecondLetter": second}, true
}

// gameBody is the game viewer's live part: the board after Ply and the
// move list, one row per move number with the first side's move and the
// second's.
type gameBody struct {
	View  *gameView
	Board *boardModel
	Ply   int
	Rows  []moveRow
}

// moveRow is one line of the move list: a move number and its two moves
// (either may be missing: a game that starts with the second side to
// move, or the first side's last move).
type moveRow struct {
	Number        int
	First, Second *moveView
}

// moveRows lays the moves out in two columns.
func moveRows(moves []moveView) []moveRow {
	var rows []moveRow
	for i := range moves {
		m := &moves[i]
		n := len(rows)
		if m.Second && n > 0 && rows[n-1].Second == nil {
			rows[n-1].Second = m
			continue
		}
		r := moveRow{Number: n + 1}
		if m.Second {
			r.Second = m
		} else {
			r.First = m
		}
		rows = append(rows, r)
	}
	return rows
}

// gameBody reads the viewer's ply (?ply=n; absent: the latest) and draws it.
func (s *Site) gameBody(r *http.Request) (*gameBody, error) {
	id, err := pathID(r, "id")
	if err != nil {
		return nil, err
	}
	v, err := s.gameView(id)
	if err != nil {
		return nil, err
	}
	ply := -1
	if q := r.URL.Query().Get("ply"); q != "" {
		n, err := strconv.Atoi(q)
		if err != nil || n < 0 {
			return nil, fmt.Errorf("%w: ply %q is not a move number", errBadRequest, q)
		}
		ply = n
	}
	bv, ply, last, err := s.boardWithLast(v.Game, ply)
	if err != nil {
		return nil, err
	}
	if v.Live != nil && ply == len(v.Moves) && v.Live.View != nil && v.Live.Plies == ply {
		bv = v.Live.View // what the table shows now
	}
	return &gameBody{View: v, Board: newBoardModel(v.Game.Game, bv, last...), Ply: ply, Rows: moveRows(v.Moves)}, nil
}

func (s *Site) gamePage(w http.ResponseWriter, r *http.Request) {
	b, err := s.gameBody(r)
	if err != nil {
		s.failErr(w, r, err)
		return
	}
	s.render(w, r, http.StatusOK, "game", b)
}

func (s *Site) gameFragment(w http.ResponseWriter, r *http.Request) {
	b, err := s.gameBody(r)
	if err != nil {
		s.failErr(w, r, err)
		return
	}
	s.fragment(w, "gamebody", b)
}

func (s *Site) tableFragment(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("table")
	for _, l := range s.d.Tables() {
		if l.Table == id {
			s.fragment(w, "tablecard", s.card(l, nil))
			return
		}
	}
	s.fail(w, r, http.StatusNotFound, fmt.Sprintf("no table %q", id))
}

// sheet loads a game for export.
func (s *Site) sheet(r *http.Request) (*export.Sheet, error) {
	id, err := pathID(r, "id")
	if err != nil {
		return nil, err
	}
	return export.Load(s.d.DB(), s.d.Name(), id)
}

func (s *Site) recordFile(w http.ResponseWriter, r *http.Request) {
	sh, err := s.sheet(r)
	if err != nil {
		s.failErr(w, r, err)
		return
	}
	f, err := export.LookupFormat(sh.Game.Game, r.PathValue("format"))
	if err != nil {
		s.failErr(w, r, err)
		return
	}
	var buf bytes.Buffer
	if err := sh.Write(&buf, f.Name); err != nil {
		s.failErr(w, r, err)
		return
	}
	download(w, f.MediaType, sh.FileName(f), buf.Bytes())
}

func (s *Site) scoresheetPage(w http.ResponseWriter, r *http.Request) {
	sh, err := s.sheet(r)
	if err != nil {
		s.failErr(w, r, err)
		return
	}
	var buf bytes.Buffer
	if err := sh.WriteHTML(&buf); err != nil {
		s.failErr(w, r, err)
		return
	}
	// The printable sheet is one self-contained file with its own inline
	// style and no script.
	w.Header().Set("Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'")
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	_, _ = w.Write(buf.Bytes())
}

func (s *Site) trfFile(w http.ResponseWriter, r *http.Request) {
	id, err := pathID(r, "id")
	if err != nil {
		s.failErr(w, r, err)
		return
	}
	t, err := s.tournament(id)
	if err != nil {
		s.failErr(w, r, err)
		return
	}
	var buf bytes.Buffer
	if err := export.WriteTRF(&buf, s.reports, id); err != nil {
		s.failErr(w, r, err)
		return
	}
	download(w, "text/plain; charset=utf-8", export.Slug(t.Name)+".trf", buf.Bytes())
}

func (s *Site) archiveFile(w http.ResponseWriter, r *http.Request) {
	var buf bytes.Buffer
	if err := export.Archive(&buf, s.d.DB(), s.d.Name(), s.reports); err != nil {
		s.failErr(w, r, err)
		return
	}
	name := export.Slug(s.d.Name()) + "-" + time.Now().UTC().Format("20060102-1504") + ".zip"
	download(w, "application/zip", name, buf.Bytes())
}

// download sends a file as an attachment. The name is quoted for the
// header; non-ASCII names also go in the RFC 5987 form.
func download(w http.ResponseWriter, mediaType, name string, data []byte) {
	w.Header().Set("Content-Type", mediaType)
	w.Header().Set("Content-Disposition", contentDisposition(name))
	w.Header().Set("Content-Length", strconv.Itoa(len(data)))
	_, _ = w.Write(data)
}

func contentDisposition(name string) string {
	ascii := make([]byte, 0, len(name))
	for _, c := range []byte(name) {
		if c < 0x20 || c > 0x7e || c == '"' || c == '\\' {
			c = '_'
		}
		ascii = append(ascii, c)
	}
	return fmt.Sprintf(`attachment; filename="%s"; filename*=UTF-8''%s`, ascii, urlPathEscape(name))
}

// urlPathEscape percent-encodes everything but unreserved characters.
func urlPathEscape(s string) string {
	const hex = "0123456789ABCDEF"
	var b []byte
	for _, c := range []byte(s) {
		if c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '.' || c == '_' || c == '~' {
			b = append(b, c)
			continue
		}
		b = append(b, '%', hex[c>>4], hex[c&15])
	}
	return string(b)
}

// unboarded returns the games of running rounds that have no result and
// are not on a table: their results are entered by hand.
func (s *Site) unboarded() ([]store.Game, error) {
	games, err := s.d.DB().Games()
	if err != nil {
		return nil, err
	}
	onTable := map[uint64]bool{}
	for _, l := range s.d.Tables() {
		onTable[l.GameID] = true
	}
	var out []store.Game
	for _, g := range games {
		if g.Result == "" && !onTable[g.ID] {
			out = append(out, g)
		}
	}
	return out, nil
}
