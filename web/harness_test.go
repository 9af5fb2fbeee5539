package web

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"io"
	"log/slog"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"arbiter/arbiter"
	"arbiter/director"
	"arbiter/export"
	"arbiter/rules"
	_ "arbiter/rules/chess"
	_ "arbiter/rules/tavreli"
	"arbiter/store"
)

// Hostile names: every page and API must carry them as text.
const (
	evilScript = `<script>alert(1)</script>`
	evilImg    = `"><img src=x onerror=alert(2)>`
)

// deputyPassword is configured as its SHA-256.
const deputyPassword = "s3cret-deputy"

// event is a running event for tests: a chess round robin with one board
// (board 1 of each round is played on it, board 2 without a board) and a
// Tavreli round robin paired only by hand.
type event struct {
	t      testing.TB
	d      *director.Director
	db     *store.DB
	site   *Site
	srv    *httptest.Server
	table  *director.Table
	chess  uint64
	tav    uint64
	ctx    context.Context
	cancel context.CancelFunc
}

// testEvent is the director's configuration of the test event.
func testEvent() director.Config {
	return director.Config{
		Name: "Web <test> & co",
		Tournaments: []director.Tournament{
			{Name: "Chess <b>Open</b>", Game: "chess", System: "round-robin", Rounds: 3, TimeControl: "90m+30s", TieBreaks: []string{"SB"}, AutoPair: true,
				Players: []store.Player{{Name: evilScript, Rating: 2000}, {Name: evilImg, Rating: 1900}, {Name: "Carla", Rating: 1800, FideID: "4100018", Title: "WFM", Federation: "NOR", BirthYear: 1999}, {Name: "Dmitri", Rating: 1700}}},
			{Name: "Tavreli Open", Game: "tavreli", System: "round-robin", Rounds: 1, TieBreaks: []string{"SB"},
				Players: []store.Player{{Name: "Ivan"}, {Name: "Anna"}}},
		},
	}
}

// testConfig is the site's configuration of the test event.
func testConfig() Config {
	sum := sha256.Sum256([]byte(deputyPassword))
	return Config{
		Event: export.Event{Name: "Web <test> & co", City: "Tromsø", ChiefArbiter: "Ada Chief"},
		Users: []User{{Name: "chief", Password: "arbiter"}, {Name: "deputy", Password: "sha256:" + hex.EncodeToString(sum[:])}},
	}
}

func newEvent(t testing.TB) *event {
	t.Helper()
	return newEventOf(t, testEvent())
}

// newEventOf runs the event of cfg with one board, on table B1 of the
// first tournament (which is e.chess; the second, if any, is e.tav).
func newEventOf(t testing.TB, cfg director.Config) *event {
	t.Helper()
	db, err := store.Open(filepath.Join(t.TempDir(), "event.db"), nil)
	require.NoError(t, err)
	d, err := director.New(cfg, db, slog.New(slog.DiscardHandler))
	require.NoError(t, err)
	ids := d.TournamentIDs()
	e := &event{t: t, d: d, db: db, chess: ids[0]}
	if len(ids) > 1 {
		e.tav = ids[1]
	}
	e.table, err = d.AddTable(e.chess, "B1")
	require.NoError(t, err)
	e.site = New(d, testConfig(), slog.New(slog.DiscardHandler))
	e.site.heartbeat = 200 * time.Millisecond
	e.ctx, e.cancel = context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { _ = d.Run(e.ctx); close(done) }()
	// The board's heartbeats: time on the board passes only with its reports.
	beats := make(chan struct{})
	go func() {
		defer close(beats)
		var dumped uint64
		tick := time.NewTicker(50 * time.Millisecond)
		defer tick.Stop()
		for {
			select {
			case <-e.ctx.Done():
				return
			case <-tick.C:
				// A new game: the board reports its whole state first.
				if l := e.table.Live(); l.GameID != 0 && l.GameID != dumped && l.View != nil {
					dumped = l.GameID
					heights := make([]int, len(l.View.Squares))
					for i, sq := range l.View.Squares {
						heights[i] = len(sq.Stack)
					}
					e.table.Input(e.ctx, arbiter.Event{Kind: arbiter.StateDump, Heights: heights, At: d.Now()})
				}
				e.table.Input(e.ctx, arbiter.Event{Kind: arbiter.Heartbeat, At: d.Now()})
			}
		}
	}()
	e.srv = httptest.NewServer(e.site)
	t.Cleanup(func() {
		e.srv.CloseClientConnections()
		e.srv.Close()
		e.cancel()
		<-done
		<-beats
		db.Close()
	})
	e.waitFor("the first game to start", func() bool { return e.live().GameID != 0 })
	// The table waits for the board to show the start position before
	// it starts the clock.
	e.waitFor("the clock to start", func() bool { return e.live().Clock[0].Running })
	return e
}

func (e *event) live() director.Live {
	for _, l := range e.d.Tables() {
		if l.Table == "B1" {
			return l
		}
	}
	return director.Live{}
}

// waitFor waits until ok holds. The bound is only for a test that fails:
// a loaded machine makes the event slower, not wrong.
func (e *event) waitFor(what string, ok func() bool) {
	e.t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for !ok() {
		if time.Now().After(deadline) {
			e.t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func (e *event) square(name string) rules.Square {
	g, err := rules.New("chess", nil)
	require.NoError(e.t, err)
	sq, ok := g.Geometry().Lookup(name)
	require.True(e.t, ok, name)
	return sq
}

// move plays a quiet move on the board: lift, place, press the clock.
func (e *event) move(from, to string, side rules.Color, heightAfterLift, heightAfterPlace int) {
	e.t.Helper()
	in := func(ev arbiter.Event) {
		ev.At = e.d.Now()
		e.table.Input(e.ctx, ev)
	}
	plies := e.live().Plies
	in(arbiter.Event{Kind: arbiter.SquareChanged, Square: e.square(from), Height: heightAfterLift})
	in(arbiter.Event{Kind: arbiter.SquareChanged, Square: e.square(to), Height: heightAfterPlace})
	in(arbiter.Event{Kind: arbiter.ClockPressed, Side: side})
	e.waitFor("the move "+from+to, func() bool { return e.live().Plies == plies+1 })
}

// illegal makes an illegal move of side on the board, lift and place,
// and presses its clock: the game counts it.
func (e *event) illegal(from, to string, side rules.Color) {
	e.t.Helper()
	game := e.live().GameID
	in := func(ev arbiter.Event) {
		ev.At = e.d.Now()
		e.table.Input(e.ctx, ev)
	}
	in(arbiter.Event{Kind: arbiter.SquareChanged, Square: e.square(from), Height: 0})
	in(arbiter.Event{Kind: arbiter.SquareChanged, Square: e.square(to), Height: 1})
	in(arbiter.Event{Kind: arbiter.ClockPressed, Side: side})
	e.waitFor("the illegal move counted", func() bool {
		g, err := e.db.Game(game)
		return err == nil && g.Illegal != [2]int{}
	})
}

// irregularity presses the wrong clock: an alert for the arbiter.
func (e *event) irregularity() store.Alert {
	e.t.Helper()
	before, err := e.db.Alerts(true)
	require.NoError(e.t, err)
	side := e.d.Tables()[0].Turn
	press := rules.Second
	if side == "Black" {
		press = rules.First
	}
	e.table.Input(e.ctx, arbiter.Event{Kind: arbiter.ClockPressed, Side: press, At: e.d.Now()})
	var open []store.Alert
	e.waitFor("an alert", func() bool {
		open, _ = e.db.Alerts(true)
		return len(open) > len(before)
	})
	return open[len(open)-1]
}

// client is a browser-like client with its own cookies.
type client struct {
	t    testing.TB
	e    *event
	http *http.Client
	csrf string
}

func (e *event) client() *client {
	jar, err := cookiejar.New(nil)
	require.NoError(e.t, err)
	return &client{t: e.t, e: e, http: &http.Client{Jar: jar, Timeout: 10 * time.Second,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}}
}

// get fetches a path and returns the status and the body.
func (c *client) get(path string) (int, string, http.Header) {
	c.t.Helper()
	resp, err := c.http.Get(c.e.srv.URL + path)
	require.NoError(c.t, err)
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	require.NoError(c.t, err)
	return resp.StatusCode, string(b), resp.Header
}

// post sends a form.
func (c *client) post(path string, form url.Values) (int, string, http.Header) {
	c.t.Helper()
	resp, err := c.http.PostForm(c.e.srv.URL+path, form)
	require.NoError(c.t, err)
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	require.NoError(c.t, err)
	return resp.StatusCode, string(b), resp.Header
}

var csrfInput = regexp.MustCompile(`name="csrf" value="([^"]+)"`)

// login logs in through the form and keeps the console's CSRF token.
func (c *client) login(name, password string) {
	c.t.Helper()
	code, body, _ := c.get("/console/login")
	require.Equal(c.t, http.StatusOK, code)
	m := csrfInput.FindStringSubmatch(body)
	require.NotNil(c.t, m, "login form token")
	code, _, h := c.post("/console/login", url.Values{"csrf": {m[1]}, "name": {name}, "password": {password}})
	require.Equal(c.t, http.StatusSeeOther, code)
	require.Equal(c.t, "/console", h.Get("Location"))
	code, body, _ = c.get("/console")
	require.Equal(c.t, http.StatusOK, code)
	m = csrfInput.FindStringSubmatch(body)
	require.NotNil(c.t, m, "console token")
	c.csrf = m[1]
}

// act posts a console form with the CSRF token and a why.
func (c *client) act(path string, form url.Values) (int, string) {
	c.t.Helper()
	if form == nil {
		form = url.Values{}
	}
	if _, ok := form["csrf"]; !ok {
		form.Set("csrf", c.csrf)
	}
	if _, ok := form["why"]; !ok {
		form.Set("why", "test: "+path)
	}
	code, body, h := c.post(path, form)
	if code == http.StatusSeeOther {
		body = h.Get("Location")
	}
	return code, body
}

func unescapedLocation(loc string) string {
	u, err := url.QueryUnescape(loc)
	if err != nil {
		return loc
	}
	return strings.TrimPrefix(u, "/console?done=")
}
