package web

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arbiter/rules"
)

// assertEscaped checks that a page carries the hostile names as text.
func assertEscaped(t *testing.T, body string) {
	t.Helper()
	assert.NotContains(t, body, evilScript)
	assert.NotContains(t, body, `<img src=x`)
	assert.NotContains(t, body, "<b>Open</b>")
}

func TestPublicPages(t *testing.T) {
	e := newEvent(t)
	e.move("e2", "e4", rules.White, 0, 1)
	c := e.client()
	gid := e.live().GameID
	tests := []struct {
		path string
		want []string
	}{
		{"/", []string{"Web &lt;test&gt; &amp; co", "Chess &lt;b&gt;Open&lt;/b&gt;", "Tavreli Open", "Table 1", `class="board g-chess w8 h8"`, "&lt;script&gt;alert(1)&lt;/script&gt;"}},
		{"/live", []string{`data-table="B1"`, `class="clock`, "Black to move"}},
		{fmt.Sprintf("/tournaments/%d", e.chess), []string{"Round 1", "&lt;script&gt;alert(1)&lt;/script&gt;", "&#34;&gt;&lt;img src=x onerror=alert(2)&gt;", "Carla", fmt.Sprintf(`href="/games/%d"`, gid)}},
		{fmt.Sprintf("/tournaments/%d/standings", e.chess), []string{"<th>SB</th>", "Dmitri", "&lt;script&gt;alert(1)&lt;/script&gt;"}},
		{fmt.Sprintf("/tournaments/%d/crosstable", e.chess), []string{"<th>Pts</th>", "Carla"}},
		{fmt.Sprintf("/tournaments/%d", e.tav), []string{"No round has been paired yet", "Ivan"}},
		{fmt.Sprintf("/games/%d", gid), []string{`<tr><th scope="row">1</th><td class="current"><a href="?ply=1" data-ply="1" aria-current="step">e4</a> <small class="time">`, " · 1:30:5", "position after move 1 of 1", "/record/pgn", "printable"}},
		{fmt.Sprintf("/games/%d?ply=0", gid), []string{"position after move 0 of 1"}},
		{fmt.Sprintf("/fragment/game/%d?ply=1", gid), []string{`<div class="game-body"`, "e4"}},
		{"/fragment/table/B1", []string{`<section class="table-card" data-table="B1"`}},
		{"/console/login", []string{`name="password"`, `type="password"`}},
	}
	for _, tt := range tests {
		t.Run(tt.path, func(t *testing.T) {
			code, body, h := c.get(tt.path)
			require.Equal(t, http.StatusOK, code, body)
			assert.Equal(t, "text/html; charset=utf-8", h.Get("Content-Type"))
			for _, w := range tt.want {
				assert.Contains(t, body, w)
			}
			assertEscaped(t, body)
			assert.NotContains(t, body, "http://", "no external assets")
		})
	}
}

func TestPagesShowTheMovedPiece(t *testing.T) {
	e := newEvent(t)
	e.move("e2", "e4", rules.White, 0, 1)
	c := e.client()
	_, body, _ := c.get("/fragment/table/B1")
	// e4 (file 5, rank 4 from the bottom: row 5) holds a white pawn, e2 none.
	assert.Regexp(t, `class="sq c5 r5[^"]*" role="gridcell" aria-label="e4, white pawn"><span class="pc kP first" aria-hidden="true"></span>`, body)
	assert.Regexp(t, `class="sq c5 r7[^"]*" role="gridcell" aria-label="e2, empty"><span class="name" aria-hidden="true">e2</span>`, body)

	// The table card highlights the last move too.
	assert.Contains(t, body, `class="sq c5 r5 last" role="gridcell" aria-label="e4, white pawn"`)
	assert.Contains(t, body, `class="sq c5 r7 last" role="gridcell" aria-label="e2, empty"`)

	// The game viewer highlights the last move's squares, and only them.
	_, body, _ = c.get(fmt.Sprintf("/games/%d", e.live().GameID))
	assert.Regexp(t, `class="sq c5 r5 last" role="gridcell" aria-label="e4, white pawn"`, body)
	assert.Regexp(t, `class="sq c5 r7 last" role="gridcell" aria-label="e2, empty"`, body)
	assert.Equal(t, 2, strings.Count(body, " last\""), "two squares highlighted")
	_, body, _ = c.get(fmt.Sprintf("/games/%d?ply=0", e.live().GameID))
	assert.NotContains(t, body, " last\"", "nothing highlighted before the first move")
}

func TestDownloads(t *testing.T) {
	e := newEvent(t)
	e.move("e2", "e4", rules.White, 0, 1)
	c := e.client()
	gid := e.live().GameID
	code, body, h := c.get(fmt.Sprintf("/games/%d/record/pgn", gid))
	require.Equal(t, http.StatusOK, code, body)
	assert.Contains(t, h.Get("Content-Type"), "application/x-chess-pgn")
	assert.Contains(t, h.Get("Content-Disposition"), `attachment; filename="r01-b1-`)
	assert.Contains(t, body, `[White "`+evilScript+`"]`, "a PGN file carries names as they are")
	assert.Contains(t, body, "1. e4 {[%clk 1:30:5", "90 minutes, less a second, plus 30 seconds")

	code, body, h = c.get(fmt.Sprintf("/games/%d/scoresheet", gid))
	require.Equal(t, http.StatusOK, code)
	assert.Contains(t, h.Get("Content-Security-Policy"), "default-src 'none'", "no script may run on the sheet")
	assertEscaped(t, body)
	assert.Contains(t, body, "<td>e4</td>")

	code, body, h = c.get(fmt.Sprintf("/tournaments/%d/trf", e.chess))
	require.Equal(t, http.StatusOK, code)
	assert.Contains(t, h.Get("Content-Disposition"), ".trf")
	assert.Contains(t, body, "012 Chess <b>Open</b>")
	assert.Contains(t, body, "022 Tromsø", "the event's record keys from the config")
	assert.Contains(t, body, "102 Ada Chief")

	code, body, h = c.get("/archive.zip")
	require.Equal(t, http.StatusOK, code)
	assert.Equal(t, "application/zip", h.Get("Content-Type"))
	assert.True(t, strings.HasPrefix(body, "PK"))
}

func TestBadRequests(t *testing.T) {
	e := newEvent(t)
	c := e.client()
	gid := e.live().GameID
	tests := []struct {
		path string
		code int
		want string
	}{
		{"/tournaments/abc", 400, "not a positive number"},
		{"/tournaments/0", 400, "not a positive number"},
		{"/tournaments/999", 404, "not found"},
		{"/tournaments/999/standings", 404, "not found"},
		{"/tournaments/999/crosstable", 404, "not found"},
		{"/tournaments/999/trf", 404, "not found"},
		{"/games/999", 404, "not found"},
		{"/games/-1", 400, "not a positive number"},
		{fmt.Sprintf("/games/%d?ply=x", gid), 400, "not a move number"},
		{fmt.Sprintf("/games/%d?ply=-3", gid), 400, "not a move number"},
		{fmt.Sprintf("/games/%d/record/kif", gid), 400, "have pgn"},
		{"/games/999/record/pgn", 404, "not found"},
		{"/games/999/scoresheet", 404, "not found"},
		{"/fragment/table/nope", 404, "no table"},
		{"/fragment/game/999", 404, "not found"},
		{"/api/v1/tournaments/x", 400, "not a positive number"},
		{"/api/v1/tournaments/999", 404, "not found"},
		{"/api/v1/games/999", 404, "not found"},
		{"/api/v1/games?round=x", 400, "not a round number"},
		{"/api/v1/games?tournament=x", 400, "not a number"},
		{fmt.Sprintf("/api/v1/games/%d/board?ply=zz", gid), 400, "not a move number"},
		{"/no/such/page", 404, ""},
		{"/static/nope.js", 404, ""},
	}
	for _, tt := range tests {
		t.Run(tt.path, func(t *testing.T) {
			code, body, _ := c.get(tt.path)
			assert.Equal(t, tt.code, code, body)
			assert.Contains(t, body, tt.want)
		})
	}
	// Wrong methods are refused.
	code, _, _ := c.post("/tournaments/1", url.Values{})
	assert.Equal(t, http.StatusMethodNotAllowed, code)
	code, _, _ = c.post("/api/v1/tables", url.Values{})
	assert.Equal(t, http.StatusMethodNotAllowed, code)
}

func getJSON(t *testing.T, c *client, path string, v any) string {
	t.Helper()
	code, body, h := c.get(path)
	require.Equal(t, http.StatusOK, code, body)
	require.Equal(t, "application/json; charset=utf-8", h.Get("Content-Type"))
	require.NoError(t, json.Unmarshal([]byte(body), v), body)
	return body
}

func TestAPI(t *testing.T) {
	e := newEvent(t)
	e.move("e2", "e4", rules.White, 0, 1)
	c := e.client()
	gid := e.live().GameID

	var ev struct {
		Name        string `json:"name"`
		Tournaments []struct {
			ID      uint64 `json:"id"`
			Name    string `json:"name"`
			Players int    `json:"players"`
			Paired  int    `json:"roundsPaired"`
		} `json:"tournaments"`
	}
	body := getJSON(t, c, "/api/v1/event", &ev)
	assert.Equal(t, "Web <test> & co", ev.Name)
	assert.Contains(t, body, `Web \u003ctest\u003e \u0026 co`, "JSON escapes <, > and &")
	require.Len(t, ev.Tournaments, 2)
	assert.Equal(t, 4, ev.Tournaments[0].Players)
	assert.Equal(t, 1, ev.Tournaments[0].Paired)

	var tables []struct {
		Table string `json:"table"`
		Game  uint64 `json:"game"`
		First string `json:"first"`
		Plies int    `json:"plies"`
		View  struct {
			Squares []struct {
				Name  string   `json:"name"`
				Stack []string `json:"stack"`
			} `json:"squares"`
		} `json:"view"`
	}
	body = getJSON(t, c, "/api/v1/tables", &tables)
	require.Len(t, tables, 1)
	assert.Equal(t, 1, tables[0].Plies)
	assert.Equal(t, evilScript, tables[0].First)
	assert.NotContains(t, body, "<script>")
	assert.Equal(t, []string{"P"}, tables[0].View.Squares[28].Stack, "e4")

	var index []struct{ Path string }
	getJSON(t, c, "/api/v1", &index)
	assert.GreaterOrEqual(t, len(index), 10)

	var tours []map[string]any
	getJSON(t, c, "/api/v1/tournaments", &tours)
	assert.Len(t, tours, 2)

	var td struct {
		PlayerList []struct{ Name string } `json:"playerList"`
		RoundList  []struct {
			Number int `json:"number"`
			Boards []struct {
				FirstName  string `json:"firstName"`
				SecondName string `json:"secondName"`
				Game       uint64 `json:"game"`
			} `json:"boards"`
		} `json:"roundList"`
	}
	getJSON(t, c, fmt.Sprintf("/api/v1/tournaments/%d", e.chess), &td)
	require.Len(t, td.RoundList, 1)
	require.Len(t, td.RoundList[0].Boards, 2)
	assert.Equal(t, gid, td.RoundList[0].Boards[0].Game)
	assert.Len(t, td.PlayerList, 4)

	var st struct {
		Tiebreaks []string `json:"tiebreaks"`
		Rows      []struct {
			Name   string     `json:"name"`
			Values []*float64 `json:"values"`
		} `json:"rows"`
	}
	getJSON(t, c, fmt.Sprintf("/api/v1/tournaments/%d/standings", e.chess), &st)
	assert.Equal(t, []string{"PTS", "SB"}, st.Tiebreaks)
	assert.Len(t, st.Rows, 4)

	var ct struct {
		Rounds int `json:"rounds"`
		Rows   []struct {
			Cells []map[string]any `json:"cells"`
		} `json:"rows"`
	}
	getJSON(t, c, fmt.Sprintf("/api/v1/tournaments/%d/crosstable", e.chess), &ct)
	assert.Len(t, ct.Rows, 4)

	var games []struct {
		ID    uint64 `json:"id"`
		Round int    `json:"round"`
	}
	getJSON(t, c, fmt.Sprintf("/api/v1/games?tournament=%d&round=1", e.chess), &games)
	assert.Len(t, games, 2)
	getJSON(t, c, fmt.Sprintf("/api/v1/games?tournament=%d", e.tav), &games)
	assert.Empty(t, games)

	var gv struct {
		Game struct {
			First string `json:"first"`
		} `json:"game"`
		Moves []struct {
			Ply      int    `json:"ply"`
			Side     string `json:"side"`
			Notation string `json:"notation"`
			Clock    string `json:"clock"`
		} `json:"moves"`
		Formats []struct{ Name string } `json:"formats"`
		Live    *struct{ Table string } `json:"live"`
	}
	getJSON(t, c, fmt.Sprintf("/api/v1/games/%d", gid), &gv)
	require.Len(t, gv.Moves, 1)
	assert.Equal(t, "e4", gv.Moves[0].Notation)
	assert.Equal(t, "White", gv.Moves[0].Side)
	assert.Regexp(t, `^1:30:[45]\d$`, gv.Moves[0].Clock)
	require.NotNil(t, gv.Live)
	assert.Equal(t, "B1", gv.Live.Table)

	var bd struct {
		Ply  int `json:"ply"`
		View struct {
			Squares []struct {
				Stack []string `json:"stack"`
			} `json:"squares"`
		} `json:"view"`
	}
	getJSON(t, c, fmt.Sprintf("/api/v1/games/%d/board?ply=0", gid), &bd)
	assert.Equal(t, 0, bd.Ply)
	assert.Equal(t, []string{"P"}, bd.View.Squares[12].Stack, "e2 at the start")
	assert.Empty(t, bd.View.Squares[28].Stack, "e4 at the start")
	bd.View.Squares = nil
	getJSON(t, c, fmt.Sprintf("/api/v1/games/%d/board", gid), &bd)
	assert.Equal(t, 1, bd.Ply)
	assert.Empty(t, bd.View.Squares[12].Stack)
}

// mutating lists every state-changing route with a path that exists.
func mutating(e *event) []string {
	gid := e.live().GameID
	return []string{
		"/console/logout",
		"/console/alerts/1/resolve",
		fmt.Sprintf("/console/games/%d/resolve", gid),
		fmt.Sprintf("/console/games/%d/takeback", gid),
		fmt.Sprintf("/console/games/%d/result", gid),
		fmt.Sprintf("/console/games/%d/addtime", gid),
		fmt.Sprintf("/console/games/%d/pause", gid),
		fmt.Sprintf("/console/games/%d/resume", gid),
		fmt.Sprintf("/console/tournaments/%d/pair", e.tav),
		"/console/alerts/resolve",
		fmt.Sprintf("/console/tournaments/%d/pair-rematches", e.tav),
		fmt.Sprintf("/console/tournaments/%d/pair-manual", e.tav),
		fmt.Sprintf("/console/tournaments/%d/end", e.tav),
		fmt.Sprintf("/console/tournaments/%d/players", e.tav),
		fmt.Sprintf("/console/tournaments/%d/players/1/withdraw", e.tav),
		fmt.Sprintf("/console/tournaments/%d/players/1/readmit", e.tav),
		fmt.Sprintf("/console/tournaments/%d/players/1/bye", e.tav),
		fmt.Sprintf("/console/tournaments/%d/rounds/1/timecontrol", e.tav),
		fmt.Sprintf("/console/games/%d/correct", gid),
		"/console/tables/B1/start",
		fmt.Sprintf("/console/games/%d/moves", gid),
		fmt.Sprintf("/console/tournaments/%d/accelerate", e.tav),
		fmt.Sprintf("/console/games/%d/offer", gid),
		fmt.Sprintf("/console/games/%d/answer", gid),
		fmt.Sprintf("/console/games/%d/claim", gid),
		fmt.Sprintf("/console/games/%d/jishogi", gid),
		fmt.Sprintf("/console/games/%d/declare", gid),
		fmt.Sprintf("/console/games/%d/resign", gid),
		fmt.Sprintf("/console/games/%d/handicap", gid),
	}
}

func TestEveryActionRouteIsTested(t *testing.T) {
	e := newEvent(t)
	// Route every tested path through a mux of the action patterns: each
	// pattern must be hit, or a new action was added without a test.
	mux := http.NewServeMux()
	for _, a := range actions {
		mux.HandleFunc("POST "+a.path, func(http.ResponseWriter, *http.Request) {})
	}
	hit := map[string]bool{}
	for _, p := range mutating(e)[1:] {
		_, pattern := mux.Handler(httptest.NewRequest(http.MethodPost, p, nil))
		require.NotEmpty(t, pattern, p)
		hit[pattern] = true
	}
	for _, a := range actions {
		assert.True(t, hit["POST "+a.path], "no test posts to %s", a.path)
	}
}

func TestVisitorsCannotChangeAnything(t *testing.T) {
	e := newEvent(t)
	e.move("e2", "e4", rules.White, 0, 1)
	e.irregularity()
	before, err := e.db.Actions(0)
	require.NoError(t, err)
	c := e.client()
	form := url.Values{"why": {"stranger"}, "move": {"e7e5"}, "result": {"1-0"}, "reason": {"arbiter"}, "side": {"first"}, "seconds": {"60"}, "csrf": {"guess"}}
	for _, p := range mutating(e) {
		code, body, _ := c.post(p, form)
		assert.Equal(t, http.StatusUnauthorized, code, "%s: %s", p, body)
	}
	// Console pages send strangers to the login form; the console's API
	// and stream refuse them.
	code, _, h := c.get("/console")
	assert.Equal(t, http.StatusSeeOther, code)
	assert.Equal(t, "/console/login", h.Get("Location"))
	code, body, _ := c.get("/api/v1/console/alerts")
	assert.Equal(t, http.StatusUnauthorized, code)
	assert.Contains(t, body, `"error"`)
	code, _, _ = c.get("/api/v1/console/actions")
	assert.Equal(t, http.StatusUnauthorized, code)
	code, _, _ = c.get("/console/events")
	assert.Equal(t, http.StatusUnauthorized, code)
	// A forged session cookie is no better.
	u, _ := url.Parse(e.srv.URL)
	c.http.Jar.SetCookies(u, []*http.Cookie{{Name: sessionCookie, Value: "forged"}})
	for _, p := range mutating(e) {
		code, _, _ := c.post(p, form)
		assert.Equal(t, http.StatusUnauthorized, code, p)
	}
	after, err := e.db.Actions(0)
	require.NoError(t, err)
	assert.Equal(t, len(before), len(after), "no action was stored")
	assert.Equal(t, 1, e.live().Plies, "the game did not change")
	open, _ := e.db.Alerts(true)
	assert.Len(t, open, 1)
}

func TestCSRF(t *testing.T) {
	e := newEvent(t)
	e.irregularity()
	c := e.client()
	c.login("chief", "arbiter")
	for _, p := range mutating(e) {
		code, body := c.act(p, url.Values{"csrf": {""}})
		assert.Equal(t, http.StatusForbidden, code, "%s without a token: %s", p, body)
		code, _ = c.act(p, url.Values{"csrf": {c.csrf + "x"}})
		assert.Equal(t, http.StatusForbidden, code, "%s with a wrong token", p)
	}
	open, _ := e.db.Alerts(true)
	assert.Len(t, open, 1, "nothing was resolved")
	// The token may come in a header (API clients).
	req, err := http.NewRequest(http.MethodPost, e.srv.URL+fmt.Sprintf("/console/alerts/%d/resolve", open[0].ID), strings.NewReader("why=by+header"))
	require.NoError(t, err)
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set(csrfHeader, c.csrf)
	req.Header.Set("Accept", "application/json")
	resp, err := c.http.Do(req)
	require.NoError(t, err)
	resp.Body.Close()
	assert.Equal(t, http.StatusOK, resp.StatusCode)
	open, _ = e.db.Alerts(true)
	assert.Empty(t, open)
}

func TestLogin(t *testing.T) {
	e := newEvent(t)
	c := e.client()
	_, body, h := c.get("/console/login")
	token := csrfInput.FindStringSubmatch(body)[1]
	assert.Contains(t, h.Get("Set-Cookie"), "HttpOnly")

	code, body, _ := c.post("/console/login", url.Values{"csrf": {token}, "name": {"chief"}, "password": {"wrong"}})
	assert.Equal(t, http.StatusUnauthorized, code)
	assert.Contains(t, body, "Wrong name or password")
	_, body, _ = c.get("/console/login")
	token = csrfInput.FindStringSubmatch(body)[1]
	code, _, _ = c.post("/console/login", url.Values{"csrf": {token}, "name": {"nobody"}, "password": {"arbiter"}})
	assert.Equal(t, http.StatusUnauthorized, code)

	// A login form posted without its token (from a stranger's page).
	other := e.client()
	code, _, _ = other.post("/console/login", url.Values{"csrf": {"x"}, "name": {"chief"}, "password": {"arbiter"}})
	assert.Equal(t, http.StatusForbidden, code)

	// The session cookie is HttpOnly and SameSite=Strict.
	_, body, _ = c.get("/console/login")
	token = csrfInput.FindStringSubmatch(body)[1]
	resp, err := c.http.PostForm(e.srv.URL+"/console/login", url.Values{"csrf": {token}, "name": {"chief"}, "password": {"arbiter"}})
	require.NoError(t, err)
	resp.Body.Close()
	require.Equal(t, http.StatusSeeOther, resp.StatusCode)
	var sc *http.Cookie
	for _, ck := range resp.Cookies() {
		if ck.Name == sessionCookie {
			sc = ck
		}
	}
	require.NotNil(t, sc)
	assert.True(t, sc.HttpOnly)
	assert.Equal(t, http.SameSiteStrictMode, sc.SameSite)
	assert.GreaterOrEqual(t, len(sc.Value), 40)
	code, body, _ = c.get("/console")
	assert.Equal(t, http.StatusOK, code)
	assert.Contains(t, body, "Logged in as <b>chief</b>")

	// The hashed password of the deputy.
	d := e.client()
	d.login("deputy", deputyPassword)

	// Logging out ends the session.
	code, _ = d.act("/console/logout", nil)
	assert.Equal(t, http.StatusSeeOther, code)
	code, _, _ = d.get("/console")
	assert.Equal(t, http.StatusSeeOther, code)

	// A reload without the chief ends the chief's session.
	e.site.SetUsers([]User{{Name: "deputy", Password: "other"}})
	code, _, _ = c.get("/console")
	assert.Equal(t, http.StatusSeeOther, code)
}

func TestCheckPassword(t *testing.T) {
	tests := []struct {
		configured, typed string
		ok                bool
	}{
		{"arbiter", "arbiter", true},
		{"arbiter", "arbiteR", false},
		{"arbiter", "", false},
		{"sha256:2bb80d537b1da3e38bd30361aa855686bde0eacd7162fef6a25fe97bf527a25b", "secret", true},
		{"sha256:2BB80D537B1DA3E38BD30361AA855686BDE0EACD7162FEF6A25FE97BF527A25B", "secret", true},
		{"sha256:2bb80d537b1da3e38bd30361aa855686bde0eacd7162fef6a25fe97bf527a25b", "Secret", false},
		{"sha256:nothex", "nothex", false},
		{"sha256:abcd", "x", false},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.ok, checkPassword(tt.configured, tt.typed), "%s / %s", tt.configured, tt.typed)
	}
}

func TestConsoleActions(t *testing.T) {
	e := newEvent(t)
	c := e.client()
	c.login("chief", "arbiter")
	gid := e.live().GameID
	e.move("e2", "e4", rules.White, 0, 1)

	// The alert queue with its evidence, and resolving an alert.
	al := e.irregularity()
	code, body, _ := c.get("/console")
	require.Equal(t, http.StatusOK, code)
	assert.Contains(t, body, fmt.Sprintf(`data-alert="%d"`, al.ID))
	assert.Contains(t, body, "irregularity")
	assert.Contains(t, body, "<summary>Evidence</summary>", "the alert's evidence is shown")
	assert.Contains(t, body, "press ")
	assertEscaped(t, body)
	code, loc := c.act(fmt.Sprintf("/console/alerts/%d/resolve", al.ID), url.Values{"why": {"wrong button, <b>warned</b>"}})
	require.Equal(t, http.StatusSeeOther, code, loc)
	assert.Equal(t, fmt.Sprintf("alert %d resolved", al.ID), unescapedLocation(loc))
	_, body, _ = c.get(loc)
	assert.Contains(t, body, "wrong button, &lt;b&gt;warned&lt;/b&gt;", "the why is listed, escaped")
	open, _ := e.db.Alerts(true)
	assert.Empty(t, open)

	// Every action needs a why.
	code, body = c.act(fmt.Sprintf("/console/games/%d/pause", gid), url.Values{"why": {"  "}})
	assert.Equal(t, http.StatusBadRequest, code)
	assert.Contains(t, body, "say why")
	code, _ = c.act(fmt.Sprintf("/console/games/%d/pause", gid), url.Values{"why": {strings.Repeat("x", maxWhy+1)}})
	assert.Equal(t, http.StatusBadRequest, code)

	// Time: add, pause, resume.
	before := e.live().Clock[1].Millis
	code, body = c.act(fmt.Sprintf("/console/games/%d/addtime", gid), url.Values{"side": {"second"}, "seconds": {"120"}})
	require.Equal(t, http.StatusSeeOther, code, body)
	e.waitFor("the added time", func() bool { return e.live().Clock[1].Millis > before+100_000 })
	code, body = c.act(fmt.Sprintf("/console/games/%d/addtime", gid), url.Values{"side": {"third"}, "seconds": {"120"}})
	assert.Equal(t, http.StatusBadRequest, code)
	assert.Contains(t, body, "want first or second")
	code, _ = c.act(fmt.Sprintf("/console/games/%d/addtime", gid), url.Values{"side": {"first"}, "seconds": {"-5"}})
	assert.Equal(t, http.StatusBadRequest, code)
	code, body = c.act(fmt.Sprintf("/console/games/%d/pause", gid), nil)
	require.Equal(t, http.StatusSeeOther, code, body)
	e.waitFor("paused clocks", func() bool { l := e.live(); return !l.Clock[0].Running && !l.Clock[1].Running })
	code, body = c.act(fmt.Sprintf("/console/games/%d/resume", gid), nil)
	require.Equal(t, http.StatusSeeOther, code, body)
	e.waitFor("running clocks", func() bool { l := e.live(); return l.Clock[0].Running || l.Clock[1].Running })

	// Correcting a move.
	code, body = c.act(fmt.Sprintf("/console/games/%d/takeback", gid), nil)
	require.Equal(t, http.StatusSeeOther, code, body)
	e.waitFor("the take-back", func() bool { return e.live().Plies == 0 })
	moves, _ := e.db.Moves(gid)
	assert.Empty(t, moves)

	// Resolving needs an open question: none is open now.
	code, body = c.act(fmt.Sprintf("/console/games/%d/resolve", gid), url.Values{"move": {"e2e4"}})
	assert.Equal(t, http.StatusConflict, code, body)
	code, _ = c.act(fmt.Sprintf("/console/games/%d/resolve", gid), url.Values{"move": {""}})
	assert.Equal(t, http.StatusBadRequest, code)

	// Results: bad input, then a real one.
	code, body = c.act(fmt.Sprintf("/console/games/%d/result", gid), url.Values{"result": {"2-0"}})
	assert.Equal(t, http.StatusBadRequest, code)
	assert.Contains(t, body, "want 1-0, 0-1 or 1/2-1/2")
	code, _ = c.act(fmt.Sprintf("/console/games/%d/result", gid), url.Values{"result": {"1-0"}, "reason": {"bogus"}})
	assert.Equal(t, http.StatusBadRequest, code)
	code, _ = c.act("/console/games/999/result", url.Values{"result": {"1-0"}})
	assert.Equal(t, http.StatusNotFound, code)
	code, body = c.act(fmt.Sprintf("/console/games/%d/result", gid), url.Values{"result": {"0-1"}, "reason": {"resignation"}, "why": {"resigned verbally"}})
	require.Equal(t, http.StatusSeeOther, code, body)
	e.waitFor("the result", func() bool { return e.live().Result == "0-1" })
	g, err := e.db.Game(gid)
	require.NoError(t, err)
	assert.Equal(t, "0-1", g.Result)
	assert.Equal(t, "resignation", g.Reason)

	// Every action is stored with who and why.
	acts, err := e.db.Actions(0)
	require.NoError(t, err)
	whats := map[string]string{}
	for _, a := range acts {
		if a.Who == "chief" {
			whats[a.What] = a.Why
		}
	}
	assert.Equal(t, "wrong button, <b>warned</b>", whats["resolve-alert"])
	assert.Equal(t, "resigned verbally", whats["set-result"])
	for _, w := range []string{"add-time", "pause", "resume", "take-back"} {
		assert.Contains(t, whats, w)
	}

	// The console's JSON.
	var list []map[string]any
	_, body, _ = c.get("/api/v1/console/actions")
	require.NoError(t, json.Unmarshal([]byte(body), &list))
	assert.GreaterOrEqual(t, len(list), 6)
	_, body, _ = c.get("/api/v1/console/alerts?all=1")
	list = nil
	require.NoError(t, json.Unmarshal([]byte(body), &list))
	require.NotEmpty(t, list)
	assert.Equal(t, "irregularity", list[0]["kind"])
	assert.Equal(t, true, list[0]["resolved"])
}

func TestResultsWithoutBoardsAndPairing(t *testing.T) {
	e := newEvent(t)
	c := e.client()
	c.login("chief", "arbiter")
	// The Tavreli tournament has no tables: pair it by hand.
	code, body := c.act(fmt.Sprintf("/console/tournaments/%d/pair", e.tav), nil)
	require.Equal(t, http.StatusSeeOther, code, body)
	games, err := e.db.Games()
	require.NoError(t, err)
	var tav uint64
	for _, g := range games {
		if g.TournamentID == e.tav {
			tav = g.ID
		}
	}
	require.NotZero(t, tav)
	_, body, _ = c.get("/console")
	assert.Contains(t, body, fmt.Sprintf(`action="/console/games/%d/result"`, tav), "the game waits for a hand-entered result")
	// Pairing again while the round runs is refused.
	code, body = c.act(fmt.Sprintf("/console/tournaments/%d/pair", e.tav), nil)
	assert.Equal(t, http.StatusConflict, code, body)
	code, _ = c.act("/console/tournaments/999/pair", nil)
	assert.Equal(t, http.StatusNotFound, code)
	code, body = c.act(fmt.Sprintf("/console/games/%d/result", tav), url.Values{"result": {"1/2-1/2"}, "reason": {"agreement"}})
	require.Equal(t, http.StatusSeeOther, code, body)
	g, err := e.db.Game(tav)
	require.NoError(t, err)
	assert.Equal(t, "1/2-1/2", g.Result)
	// A second result for the same game is refused.
	code, _ = c.act(fmt.Sprintf("/console/games/%d/result", tav), url.Values{"result": {"1-0"}})
	assert.Equal(t, http.StatusConflict, code)
	_, body, _ = c.get(fmt.Sprintf("/tournaments/%d/standings", e.tav))
	assert.Contains(t, body, `<td class="num">0.5</td>`)
	_, body, _ = c.get(fmt.Sprintf("/tournaments/%d/crosstable", e.tav))
	assert.Contains(t, body, "<th>R1</th>")
	assert.Regexp(t, `<td class="num">1[wb]=</td>`, body, "the opponent's rank, colour and a draw")
	_, body, _ = c.get(fmt.Sprintf("/tournaments/%d", e.tav))
	assert.Contains(t, body, fmt.Sprintf(`<td class="result"><a href="/games/%d">1/2-1/2</a></td>`, tav))
}

// sse reads server-sent events from a stream.
type sse struct {
	resp *http.Response
	r    *bufio.Reader
}

func openSSE(t *testing.T, c *client, path string) *sse {
	t.Helper()
	resp, err := (&http.Client{Jar: c.http.Jar}).Get(c.e.srv.URL + path)
	require.NoError(t, err)
	require.Equal(t, http.StatusOK, resp.StatusCode)
	require.Equal(t, "text/event-stream", resp.Header.Get("Content-Type"))
	t.Cleanup(func() { resp.Body.Close() })
	return &sse{resp: resp, r: bufio.NewReader(resp.Body)}
}

// next returns the next event of the given kind and its data, skipping
// others, within the timeout.
func (s *sse) next(t *testing.T, kind string) string {
	t.Helper()
	type ev struct{ kind, data string }
	got := make(chan ev, 1)
	go func() {
		var cur ev
		for {
			line, err := s.r.ReadString('\n')
			if err != nil {
				close(got)
				return
			}
			line = strings.TrimRight(line, "\n")
			switch {
			case strings.HasPrefix(line, "event: "):
				cur.kind = strings.TrimPrefix(line, "event: ")
			case strings.HasPrefix(line, "data: "):
				cur.data = strings.TrimPrefix(line, "data: ")
			case line == "" && cur.kind != "":
				if cur.kind == kind {
					got <- cur
					return
				}
				cur = ev{}
			}
		}
	}()
	select {
	case e, ok := <-got:
		require.True(t, ok, "stream ended before a %s event", kind)
		return e.data
	case <-time.After(10 * time.Second):
		s.resp.Body.Close()
		t.Fatalf("no %s event", kind)
	}
	return ""
}

func TestServerSentEvents(t *testing.T) {
	e := newEvent(t)
	public := openSSE(t, e.client(), "/events")
	c := e.client()
	c.login("chief", "arbiter")
	private := openSSE(t, c, "/console/events")
	e.waitFor("both streams", func() bool { return e.streams() == 2 })

	e.move("e2", "e4", rules.White, 0, 1)
	data := public.next(t, "move")
	var u struct {
		Kind  string `json:"kind"`
		Table string `json:"table"`
		Game  uint64 `json:"game"`
		Data  struct {
			Notation string `json:"notation"`
		} `json:"data"`
	}
	require.NoError(t, json.Unmarshal([]byte(data), &u))
	assert.Equal(t, "move", u.Kind)
	assert.Equal(t, "B1", u.Table)
	assert.Equal(t, "e4", u.Data.Notation)

	// Alerts: the public stream only says that one happened.
	e.irregularity()
	data = public.next(t, "alert")
	assert.NotContains(t, data, "message")
	data = private.next(t, "alert")
	assert.Contains(t, data, `"kind":"irregularity"`)
}

func TestSSEHeartbeatAndDisconnect(t *testing.T) {
	e := newEvent(t)
	s := openSSE(t, e.client(), "/events")
	line := make(chan string, 4)
	go func() {
		for {
			l, err := s.r.ReadString('\n')
			if err != nil {
				return
			}
			if strings.HasPrefix(l, ": beat") {
				line <- l
				return
			}
		}
	}()
	select {
	case <-line:
	case <-time.After(5 * time.Second):
		t.Fatal("no heartbeat")
	}
	s.resp.Body.Close()
	e.waitFor("the stream to end", func() bool { return e.streams() == 0 })
}

func TestShutdownEndsStreams(t *testing.T) {
	e := newEvent(t)
	s := openSSE(t, e.client(), "/events")
	e.waitFor("the stream", func() bool { return e.streams() == 1 })
	e.waitFor("the live feed's subscription", func() bool { return e.d.Hub().Subscribers() == 1 })
	e.site.Shutdown()
	e.site.Shutdown() // twice is fine
	done := make(chan error, 1)
	go func() {
		_, err := io.ReadAll(s.r)
		done <- err
	}()
	select {
	case err := <-done:
		assert.NoError(t, err, "the stream ended cleanly")
	case <-time.After(5 * time.Second):
		t.Fatal("the stream did not end")
	}
	e.waitFor("the stream to end", func() bool { return e.streams() == 0 })
	e.waitFor("the live feed's subscription to end", func() bool { return e.d.Hub().Subscribers() == 0 })
}

func TestSecurityHeaders(t *testing.T) {
	e := newEvent(t)
	_, _, h := e.client().get("/")
	assert.Contains(t, h.Get("Content-Security-Policy"), "script-src 'self'")
	assert.Equal(t, "nosniff", h.Get("X-Content-Type-Options"))
	assert.Equal(t, "DENY", h.Get("X-Frame-Options"))
	code, body, h := e.client().get("/static/app.js")
	assert.Equal(t, http.StatusOK, code)
	assert.Contains(t, h.Get("Content-Type"), "javascript")
	assert.Contains(t, body, "EventSource")
}

// The arbiter sees why a round was paired as it was; a visitor does not.
func TestPairingExplanation(t *testing.T) {
	e := newEvent(t)
	c := e.client()
	code, _, h := c.get("/console/tournaments/1/rounds/1/explanation")
	assert.Equal(t, http.StatusSeeOther, code)
	assert.Equal(t, "/console/login", h.Get("Location"))

	c.login("chief", "arbiter")
	code, body, _ := c.get("/console")
	require.Equal(t, http.StatusOK, code)
	assert.Contains(t, body, `/console/tournaments/1/rounds/1/explanation`)
	code, body, h = c.get("/console/tournaments/1/rounds/1/explanation")
	require.Equal(t, http.StatusOK, code)
	assert.Equal(t, "text/plain; charset=utf-8", h.Get("Content-Type"))
	assert.Contains(t, strings.ToLower(body), "round 1")
	code, _, _ = c.get("/console/tournaments/1/rounds/9/explanation")
	assert.Equal(t, http.StatusNotFound, code)
	code, _, _ = c.get("/console/tournaments/x/rounds/1/explanation")
	assert.Equal(t, http.StatusBadRequest, code)
}
