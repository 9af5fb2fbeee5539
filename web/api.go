package web

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"

	"arbiter/director"
	"arbiter/export"
	"arbiter/store"
)

// writeJSON sends v as JSON. encoding/json escapes <, > and & inside
// strings, so stored text cannot break out into HTML if a browser is made
// to render the response.
func writeJSON(w http.ResponseWriter, status int, v any) {
	data, err := json.Marshal(v)
	if err != nil {
		http.Error(w, `{"error":"internal error"}`, http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	_, _ = w.Write(data)
	_, _ = w.Write([]byte("\n"))
}

// apiError sends {"error": msg}.
func apiError(w http.ResponseWriter, status int, msg string) {
	writeJSON(w, status, map[string]any{"error": msg, "status": status})
}

// wantsJSON reports whether a request is an API call rather than a page.
func wantsJSON(r *http.Request) bool {
	return strings.HasPrefix(r.URL.Path, "/api/") || strings.Contains(r.Header.Get("Accept"), "application/json")
}

// apiVersion is the prefix of the JSON API.
const apiVersion = "/api/v1"

// apiRoute is one GET route of the JSON API, relative to apiVersion.
type apiRoute struct {
	Path    string `json:"path"`
	What    string `json:"what"`
	Console bool   `json:"console,omitempty"` // needs the arbiter's login
	serve   func(s *Site) http.HandlerFunc
}

// apiRoutes is every route of the JSON API but its index: each is
// registered under apiVersion; the index at /api/v1 lists them and
// openapi.json describes each (a test holds the two together).
var apiRoutes = []apiRoute{
	{Path: "/openapi.json", What: "the OpenAPI 3.1 description of the API", serve: func(s *Site) http.HandlerFunc { return serveOpenAPI }},
	{Path: "/event", What: "the event's name and tournaments", serve: func(s *Site) http.HandlerFunc { return s.apiEvent }},
	{Path: "/tables", What: "every table live: players, board view (stacks bottom to top, zones), clocks, prompt, result", serve: func(s *Site) http.HandlerFunc { return s.apiTables }},
	{Path: "/tournaments", What: "the tournaments with their progress", serve: func(s *Site) http.HandlerFunc { return s.apiTournaments }},
	{Path: "/tournaments/{id}", What: "a tournament with its players and every round's pairings, latest first", serve: func(s *Site) http.HandlerFunc { return apiOf(s, s.tourDetail) }},
	{Path: "/tournaments/{id}/standings", What: "standings with tie-breaks", serve: func(s *Site) http.HandlerFunc { return apiOf(s, s.standings) }},
	{Path: "/tournaments/{id}/crosstable", What: "the crosstable in standings order", serve: func(s *Site) http.HandlerFunc { return apiOf(s, s.crosstableOnly) }},
	{Path: "/games", What: "games, optionally of one tournament (?tournament=id) and round (?round=n)", serve: func(s *Site) http.HandlerFunc { return s.apiGames }},
	{Path: "/games/{id}", What: "a game with its moves, times and clocks, record formats and live table", serve: func(s *Site) http.HandlerFunc { return apiOf(s, s.gameView) }},
	{Path: "/games/{id}/board", What: "the board after move ?ply=n (default: the latest)", serve: func(s *Site) http.HandlerFunc { return s.apiBoard }},
	{Path: "/console/alerts", What: "open alerts with evidence (?all=1: every alert)", Console: true, serve: func(s *Site) http.HandlerFunc { return s.console(s.apiAlerts) }},
	{Path: "/console/actions", What: "arbiter actions with who and why (?game=id: of one game)", Console: true, serve: func(s *Site) http.HandlerFunc { return s.console(s.apiActions) }},
	{Path: "/console/tables", What: "every table live, with the port its board is on", Console: true, serve: func(s *Site) http.HandlerFunc { return s.console(s.apiConsoleTables) }},
}

// routesAPI registers the JSON API.
func (s *Site) routesAPI() {
	index := apiRoute{Path: "", serve: func(s *Site) http.HandlerFunc { return s.apiIndex }}
	for _, rt := range append([]apiRoute{index}, apiRoutes...) {
		s.mux.HandleFunc("GET "+apiVersion+rt.Path, rt.serve(s))
	}
}

func (s *Site) apiIndex(w http.ResponseWriter, r *http.Request) {
	type entry struct {
		Path    string `json:"path"`
		What    string `json:"what"`
		Console bool   `json:"console,omitempty"`
	}
	out := []entry{{apiVersion, "this list", false}}
	for _, rt := range apiRoutes {
		out = append(out, entry{apiVersion + rt.Path, rt.What, rt.Console})
	}
	out = append(out, entry{"/events", "server-sent events: move, result, prompt, board, round, alert (no details), reload", false},
		entry{"/console/events", "server-sent events for the console: every update with its details", true})
	writeJSON(w, http.StatusOK, out)
}

// formatView is a record format of a game in the API.
type formatView struct {
	Name      string `json:"name"`
	Ext       string `json:"ext"`
	MediaType string `json:"mediaType"`
	Title     string `json:"title"`
	// URL downloads the game's record in this format.
	URL string `json:"url"`
}

// formatsOf lists the record formats of a game.
func formatsOf(g store.Game) []formatView {
	out := []formatView{}
	for _, f := range export.Formats(g.Game) {
		out = append(out, formatView{Name: f.Name, Ext: f.Ext, MediaType: f.MediaType, Title: f.Title,
			URL: fmt.Sprintf("/games/%d/record/%s", g.ID, f.Name)})
	}
	return out
}

// lookup reads the path's id and looks it up, answering the error itself.
func lookup[T any](s *Site, w http.ResponseWriter, r *http.Request, get func(uint64) (T, error)) (T, bool) {
	var zero T
	id, err := pathID(r, "id")
	if err != nil {
		s.failErr(w, r, err)
		return zero, false
	}
	v, err := get(id)
	if err != nil {
		s.failErr(w, r, err)
		return zero, false
	}
	return v, true
}

// apiOf serves what get finds by the path's id as JSON.
func apiOf[T any](s *Site, get func(uint64) (T, error)) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if v, ok := lookup(s, w, r, get); ok {
			writeJSON(w, http.StatusOK, v)
		}
	}
}

func (s *Site) apiEvent(w http.ResponseWriter, r *http.Request) {
	tours, err := s.tourSummaries()
	if err != nil {
		s.failErr(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"name": s.d.Name(), "tournaments": tours})
}

func (s *Site) apiTables(w http.ResponseWriter, r *http.Request) {
	tables := s.d.Tables()
	for i := range tables {
		tables[i] = publicLive(tables[i])
	}
	writeJSON(w, http.StatusOK, tables)
}

// apiConsoleTables is apiTables for the arbiter: with the ports.
func (s *Site) apiConsoleTables(w http.ResponseWriter, r *http.Request) {
	writeJSON(w, http.StatusOK, s.d.Tables())
}

// publicLive is a table as the public sees it: without the port of its
// board, a device path of the venue machine.
func publicLive(l director.Live) director.Live {
	l.Port = ""
	return l
}

func (s *Site) apiTournaments(w http.ResponseWriter, r *http.Request) {
	tours, err := s.tourSummaries()
	if err != nil {
		s.failErr(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, tours)
}

// apiGames lists games, optionally of one tournament (?tournament=id) and
// round (?round=n).
func (s *Site) apiGames(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	var tid uint64
	round := 0
	if v := q.Get("tournament"); v != "" {
		n, err := strconv.ParseUint(v, 10, 64)
		if err != nil {
			s.fail(w, r, http.StatusBadRequest, fmt.Sprintf("tournament %q is not a number", v))
			return
		}
		tid = n
	}
	if v := q.Get("round"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 {
			s.fail(w, r, http.StatusBadRequest, fmt.Sprintf("round %q is not a round number", v))
			return
		}
		round = n
	}
	games, err := s.d.DB().Games()
	if err != nil {
		s.failErr(w, r, err)
		return
	}
	out := []store.Game{}
	for _, g := range games {
		if (tid == 0 || g.TournamentID == tid) && (round == 0 || g.Round == round) {
			g.Clock = nil
			out = append(out, g)
		}
	}
	writeJSON(w, http.StatusOK, out)
}

// apiBoard returns the board after ?ply=n (default: the latest).
func (s *Site) apiBoard(w http.ResponseWriter, r *http.Request) {
	b, err := s.gameBody(r)
	if err != nil {
		s.failErr(w, r, err)
		return
	}
	bv, _, err := s.boardAt(b.View.Game, b.Ply)
	if err != nil {
		s.failErr(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"game": b.View.Game.ID, "ply": b.Ply, "view": bv})
}

// apiAlerts lists the open alerts (?all=1: every alert).
func (s *Site) apiAlerts(w http.ResponseWriter, r *http.Request) {
	as, err := s.d.DB().Alerts(r.URL.Query().Get("all") == "")
	if err != nil {
		s.failErr(w, r, err)
		return
	}
	if as == nil {
		as = []store.Alert{}
	}
	writeJSON(w, http.StatusOK, as)
}

// apiActions lists the arbiter actions (?game=id: of one game).
func (s *Site) apiActions(w http.ResponseWriter, r *http.Request) {
	var gid uint64
	if v := r.URL.Query().Get("game"); v != "" {
		n, err := strconv.ParseUint(v, 10, 64)
		if err != nil {
			s.fail(w, r, http.StatusBadRequest, fmt.Sprintf("game %q is not a number", v))
			return
		}
		gid = n
	}
	as, err := s.d.DB().Actions(gid)
	if err != nil {
		s.failErr(w, r, err)
		return
	}
	if as == nil {
		as = []store.Action{}
	}
	writeJSON(w, http.StatusOK, as)
}

// consoleTrace shows the pairing engine's explanation of a round (its
// brackets, floaters, why the bye went where it did, which colour rule
// decided each board), for the arbiter only.
func (s *Site) consoleTrace(w http.ResponseWriter, r *http.Request) {
	id, err := pathID(r, "id")
	if err != nil {
		s.failErr(w, r, err)
		return
	}
	n, err := pathID(r, "round")
	if err != nil {
		s.failErr(w, r, err)
		return
	}
	rounds, err := s.d.DB().Rounds(id)
	if err != nil {
		s.failErr(w, r, err)
		return
	}
	if n > uint64(len(rounds)) {
		s.fail(w, r, http.StatusNotFound, fmt.Sprintf("tournament %d has no round %d", id, n))
		return
	}
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	trace := rounds[n-1].Trace
	if trace == "" {
		trace = "no explanation was stored for this round\n"
	}
	_, _ = io.WriteString(w, trace)
}
