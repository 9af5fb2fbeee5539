package web

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"regexp"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arbiter/board"
	"arbiter/director"
	"arbiter/store"
)

// newTableless runs an event of one tournament played without sensor
// boards: the arbiter enters every result in the console.
func newTableless(t *testing.T, tc director.Tournament) (*event, uint64) {
	t.Helper()
	db, err := store.Open(filepath.Join(t.TempDir(), "event.db"), nil)
	require.NoError(t, err)
	cfg := testEvent()
	tc.AutoPair = true
	cfg.Tournaments = []director.Tournament{tc}
	d, err := director.New(cfg, db, slog.New(slog.DiscardHandler))
	require.NoError(t, err)
	e := &event{t: t, d: d, db: db}
	e.site = New(d, testConfig(), slog.New(slog.DiscardHandler))
	e.ctx, e.cancel = context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { _ = d.Run(e.ctx); close(done) }()
	e.srv = httptest.NewServer(e.site)
	t.Cleanup(func() {
		e.srv.CloseClientConnections()
		e.srv.Close()
		e.cancel()
		<-done
		db.Close()
	})
	return e, d.TournamentIDs()[0]
}

func swiss(players, rounds int) director.Tournament {
	tc := director.Tournament{Name: "Swiss <i>Open</i>", Game: "chess", System: "swiss-dutch", Rounds: rounds, TimeControl: "60m+30s", TieBreaks: []string{"BH", "SB"}}
	for i := range players {
		tc.Players = append(tc.Players, store.Player{Name: fmt.Sprintf("Player %c", 'A'+i), Rating: 2400 - 50*i})
	}
	return tc
}

// round waits for round n and returns it.
func (e *event) round(id uint64, n int) store.Round {
	var rs []store.Round
	e.waitFor(fmt.Sprintf("round %d", n), func() bool {
		var err error
		rs, err = e.db.Rounds(id)
		return err == nil && len(rs) >= n
	})
	return rs[n-1]
}

// results enters every missing result of a round in the console: the
// lower start number wins.
func (c *client) results(r store.Round) {
	c.t.Helper()
	for _, p := range r.Pairings {
		if p.GameID == 0 || p.Result != "" {
			continue
		}
		res := "1-0"
		if p.Second < p.First {
			res = "0-1"
		}
		code, body := c.act(fmt.Sprintf("/console/games/%d/result", p.GameID), url.Values{"result": {res}, "reason": {"arbiter"}})
		require.Equal(c.t, http.StatusSeeOther, code, body)
	}
}

func (e *event) actions(what string) []store.Action {
	all, err := e.db.Actions(0)
	require.NoError(e.t, err)
	var out []store.Action
	for _, a := range all {
		if a.What == what {
			out = append(out, a)
		}
	}
	return out
}

// A Swiss that cannot be paired a fourth time: the console says so and
// why, and the arbiter pairs it by hand, seeing the criteria each board
// breaks; a result is corrected afterwards.
func TestConsoleNoPairingByHand(t *testing.T) {
	e, id := newTableless(t, swiss(4, 4))
	c := e.client()
	c.login("chief", "arbiter")
	for n := 1; n <= 3; n++ {
		c.results(e.round(id, n))
	}
	e.waitFor("the block", func() bool { return e.d.Blocked(id) != "" })
	_, body, _ := c.get("/console")
	assert.Contains(t, body, "round 4 cannot be paired")
	assert.Contains(t, body, "Decide: pair by hand, allow rematches, or end the tournament")
	assert.Contains(t, body, "no-pairing")
	assertEscaped(t, body)
	code, body := c.act(fmt.Sprintf("/console/tournaments/%d/pair", id), nil)
	assert.Equal(t, http.StatusConflict, code)
	assert.Contains(t, body, "no valid pairing for round 4")

	code, body, _ = c.get(fmt.Sprintf("/console/tournaments/%d", id))
	require.Equal(t, http.StatusOK, code)
	for _, want := range []string{"Pair round 4 by hand", "Pair round 4 allowing rematches (last resort)", "End the tournament after round 3", "Player A"} {
		assert.Contains(t, body, want)
	}
	assertEscaped(t, body)

	for _, bad := range []string{"", "1 - 1", "1 - 2\n2 - 3", "1 - 77", "1 versus 2"} {
		code, body = c.act(fmt.Sprintf("/console/tournaments/%d/pair-manual", id), url.Values{"pairings": {bad}})
		assert.Equal(t, http.StatusBadRequest, code, "%q: %s", bad, body)
	}
	assert.Empty(t, e.actions("pair-round-manual"), "refused pairings are not logged")
	code, body = c.act(fmt.Sprintf("/console/tournaments/%d/pair-manual", id), url.Values{"pairings": {"1 - 2\n3 - 4"}, "why": {"organiser's decision"}})
	require.Equal(t, http.StatusSeeOther, code, body)
	r4 := e.round(id, 4)
	assert.Equal(t, "manual", r4.How)
	_, body, _ = c.get(fmt.Sprintf("/console/tournaments/%d", id))
	assert.Contains(t, body, "paired by hand")
	assert.Regexp(t, regexp.MustCompile(`C1: they met in round \d`), body, "the console shows the criteria each hand-made board breaks")
	_, body, _ = c.get("/console")
	assert.NotContains(t, body, "cannot be paired", "the decision settled the alert")

	// While round 4 runs, neither rematches nor an early end are possible.
	code, _ = c.act(fmt.Sprintf("/console/tournaments/%d/pair-rematches", id), nil)
	assert.Equal(t, http.StatusConflict, code)
	code, _ = c.act(fmt.Sprintf("/console/tournaments/%d/end", id), nil)
	assert.Equal(t, http.StatusConflict, code)

	// A past result corrected: audited, the standings follow.
	g := e.round(id, 1).Pairings[0].GameID
	_, before, _ := c.get(fmt.Sprintf("/api/v1/tournaments/%d/standings", id))
	code, body = c.act(fmt.Sprintf("/console/games/%d/correct", g), url.Values{"result": {"1/2-1/2"}, "reason": {"agreement"}, "why": {"both scoresheets say draw"}})
	require.Equal(t, http.StatusSeeOther, code, body)
	code, _ = c.act(fmt.Sprintf("/console/games/%d/correct", g), url.Values{"result": {"1/2-1/2"}, "reason": {"agreement"}})
	assert.Equal(t, http.StatusBadRequest, code, "the same result again")
	code, _ = c.act(fmt.Sprintf("/console/games/%d/correct", r4.Pairings[0].GameID), url.Values{"result": {"1-0"}})
	assert.Equal(t, http.StatusConflict, code, "a game in play is not corrected")
	_, after, _ := c.get(fmt.Sprintf("/api/v1/tournaments/%d/standings", id))
	assert.NotEqual(t, before, after)
	require.Len(t, e.actions("correct-result"), 1)
	c.results(e.round(id, 4))
	select {
	case <-e.d.Done():
	case <-time.After(5 * time.Second):
		t.Fatal("the event did not complete")
	}
}

// The chief arbiter ends a blocked tournament after its last complete
// round; the console then shows it complete.
func TestConsoleEndTournament(t *testing.T) {
	e, id := newTableless(t, swiss(4, 4))
	c := e.client()
	c.login("chief", "arbiter")
	for n := 1; n <= 3; n++ {
		c.results(e.round(id, n))
	}
	e.waitFor("the block", func() bool { return e.d.Blocked(id) != "" })
	code, body := c.act(fmt.Sprintf("/console/tournaments/%d/end", id), url.Values{"why": {"no valid round 4"}})
	require.Equal(t, http.StatusSeeOther, code, body)
	select {
	case <-e.d.Done():
	case <-time.After(5 * time.Second):
		t.Fatal("the event did not complete")
	}
	_, body, _ = c.get("/console")
	assert.Contains(t, body, "round 3 of 3, complete")
	code, _ = c.act(fmt.Sprintf("/console/tournaments/%d/end", id), nil)
	assert.Equal(t, http.StatusConflict, code)
}

// Players over the life of an event, from the console: a late entry, a
// withdrawal at once, re-admission, requested byes within the limit, a
// round's own time control.
func TestConsolePlayers(t *testing.T) {
	tc := swiss(6, 3)
	tc.HalfPointByes = 1
	e, id := newTableless(t, tc)
	c := e.client()
	c.login("chief", "arbiter")
	r1 := e.round(id, 1)
	base := fmt.Sprintf("/console/tournaments/%d", id)
	code, body := c.act(base+"/accelerate", url.Values{"accelerated": {"baku"}})
	assert.Equal(t, http.StatusBadRequest, code, "round 1 is paired: %s", body)
	assert.Contains(t, body, "acceleration is fixed")

	for _, bad := range []url.Values{{"name": {""}}, {"name": {"Player A"}}, {"name": {"Evil\u202eName"}}, {"name": {"X"}, "rating": {"9999"}}, {"name": {"Y"}, "missed": {"F"}}} {
		code, body := c.act(base+"/players", bad)
		assert.Equal(t, http.StatusBadRequest, code, "%v: %s", bad, body)
	}
	code, body = c.act(base+"/players", url.Values{"name": {"Late <b>Comer</b>"}, "rating": {"2500"}, "missed": {"H"}, "why": {"train late"}})
	require.Equal(t, http.StatusSeeOther, code, body)
	assert.Contains(t, unescapedLocation(body), "player 7 Late <b>Comer</b> registered")

	p := r1.Pairings[0]
	code, body = c.act(fmt.Sprintf("%s/players/%d/withdraw", base, p.First), url.Values{"when": {"now"}, "why": {"left the venue"}})
	require.Equal(t, http.StatusSeeOther, code, body)
	code, _ = c.act(fmt.Sprintf("%s/players/%d/withdraw", base, p.First), url.Values{"when": {"now"}})
	assert.Equal(t, http.StatusBadRequest, code, "already withdrawn")
	code, _ = c.act(fmt.Sprintf("%s/players/%d/withdraw", base, p.Second), url.Values{"when": {"tomorrow"}})
	assert.Equal(t, http.StatusBadRequest, code)
	code, _ = c.act(base+"/players/99/withdraw", nil)
	assert.Equal(t, http.StatusNotFound, code)
	g, err := e.db.Game(p.GameID)
	require.NoError(t, err)
	assert.Equal(t, "0-1", g.Result, "the withdrawn player's game is forfeited")

	_, body, _ = c.get(base)
	assert.Contains(t, body, "withdrawn from round 1")
	assert.Contains(t, body, "late entry from round 2")
	assertEscaped(t, body)
	assert.Contains(t, body, "Late &lt;b&gt;Comer&lt;/b&gt;")

	code, body = c.act(fmt.Sprintf("%s/players/%d/readmit", base, p.First), url.Values{"why": {"came back"}})
	require.Equal(t, http.StatusSeeOther, code, body)
	code, _ = c.act(fmt.Sprintf("%s/players/%d/readmit", base, p.First), nil)
	assert.Equal(t, http.StatusBadRequest, code, "not withdrawn any more")

	code, body = c.act(base+"/players/3/bye", url.Values{"round": {"2"}, "kind": {"H"}})
	require.Equal(t, http.StatusSeeOther, code, body)
	code, body = c.act(base+"/players/3/bye", url.Values{"round": {"3"}, "kind": {"H"}})
	assert.Equal(t, http.StatusBadRequest, code)
	assert.Contains(t, body, "allows 1 half-point byes")
	code, _ = c.act(base+"/players/3/bye", url.Values{"round": {"1"}, "kind": {"Z"}})
	assert.Equal(t, http.StatusBadRequest, code, "round 1 is paired")
	code, _ = c.act(base+"/players/3/bye", url.Values{"round": {"x"}, "kind": {"Z"}})
	assert.Equal(t, http.StatusBadRequest, code)

	code, body = c.act(base+"/rounds/3/timecontrol", url.Values{"timeControl": {"15m+10s"}})
	require.Equal(t, http.StatusSeeOther, code, body)
	code, _ = c.act(base+"/rounds/3/timecontrol", url.Values{"timeControl": {"fast"}})
	assert.Equal(t, http.StatusBadRequest, code)
	code, _ = c.act(base+"/rounds/1/timecontrol", url.Values{"timeControl": {"15m+10s"}})
	assert.Equal(t, http.StatusBadRequest, code, "round 1 is paired")

	c.results(e.round(id, 1))
	r2 := e.round(id, 2)
	var bye, late bool
	for _, pr := range r2.Pairings {
		if pr.First == 3 && pr.Second == 0 && pr.Result == "H" {
			bye = true
		}
		if pr.Second != 0 && (pr.First == 7 || pr.Second == 7) {
			late = true
		}
	}
	assert.True(t, bye, "player 3 has the half-point bye in round 2")
	assert.True(t, late, "the late entrant plays round 2")
	c.results(r2)
	r3 := e.round(id, 3)
	g3, err := e.db.Game(r3.Pairings[0].GameID)
	require.NoError(t, err)
	assert.Equal(t, "15m+10s", g3.TimeControl)
	for _, what := range []string{"add-player", "withdraw", "readmit", "request-bye", "round-time-control"} {
		assert.NotEmpty(t, e.actions(what), what)
	}

	// The moves of a game without a board, from its scoresheet: every
	// move must be legal, and a game is entered once.
	g4 := r3.Pairings[1].GameID
	code, body = c.act(fmt.Sprintf("/console/games/%d/moves", g4), url.Values{"moves": {"1. e4 e5 2. Nf3 Ke5"}})
	assert.Equal(t, http.StatusBadRequest, code)
	assert.Contains(t, body, "move 4 &#34;Ke5&#34;: ", "the error names the move")
	code, body = c.act(fmt.Sprintf("/console/games/%d/moves", g4), url.Values{"moves": {"1. e4 e5 2. Nf3 Nc6 3.Bb5 a6 1-0"}, "why": {"scoresheet"}})
	require.Equal(t, http.StatusSeeOther, code, body)
	moves, err := e.db.Moves(g4)
	require.NoError(t, err)
	require.Len(t, moves, 6)
	assert.Equal(t, "Bb5", moves[4].Notation)
	code, _ = c.act(fmt.Sprintf("/console/games/%d/moves", g4), url.Values{"moves": {"e4"}})
	assert.Equal(t, http.StatusBadRequest, code, "entered once")
	_, body, _ = c.get(fmt.Sprintf("/games/%d", g4))
	assert.Contains(t, body, "Bb5")

	// A table that does not exist has no waiting game.
	code, _ = c.act("/console/tables/NOPE/start", nil)
	assert.Equal(t, http.StatusNotFound, code)
}

// Many alerts resolved at once; a refused action is not logged as done.
func TestConsoleBulkAlertsAndRefusals(t *testing.T) {
	e := newEvent(t)
	c := e.client()
	c.login("chief", "arbiter")
	gid := e.live().GameID
	// An alert from the board names the table and its players, and says
	// what to do.
	al := e.irregularity()
	_, body, _ := c.get("/console")
	assert.Contains(t, body, "table 1 (board B1): ")
	assert.Contains(t, body, `<p class="advice">Look at the evidence`)
	assert.Equal(t, "table 1 (board B1): "+e.live().First+" – "+e.live().Second, al.Where)
	a1 := store.Alert{GameID: gid, BoardID: "B1", Kind: "irregularity", Message: "one"}
	a2 := store.Alert{BoardID: "B2", Kind: "link", Message: "two"}
	require.NoError(t, e.db.AddAlert(&a1))
	require.NoError(t, e.db.AddAlert(&a2))
	_, body, _ = c.get("/console")
	assert.Contains(t, body, `form="bulk"`)
	code, _ := c.act("/console/alerts/resolve", url.Values{"alert": {"x"}})
	assert.Equal(t, http.StatusBadRequest, code)
	code, _ = c.act("/console/alerts/resolve", nil)
	assert.Equal(t, http.StatusBadRequest, code)
	code, body = c.act("/console/alerts/resolve", url.Values{"alert": {fmt.Sprint(a1.ID), fmt.Sprint(a2.ID)}, "why": {"handled"}})
	require.Equal(t, http.StatusSeeOther, code, body)
	open, err := e.db.Alerts(true)
	require.NoError(t, err)
	assert.Empty(t, open)

	// Resume on running clocks is refused, and not listed as done.
	code, _ = c.act(fmt.Sprintf("/console/games/%d/resume", gid), nil)
	assert.Equal(t, http.StatusConflict, code)
	assert.Empty(t, e.actions("resume"), "a refused resume is not in the log")
	code, _ = c.act(fmt.Sprintf("/console/games/%d/result", gid), url.Values{"result": {"1-0"}, "reason": {"resignation"}})
	require.Equal(t, http.StatusSeeOther, code)
	code, _ = c.act(fmt.Sprintf("/console/games/%d/result", gid), url.Values{"result": {"0-1"}})
	assert.Equal(t, http.StatusConflict, code)
	assert.Len(t, e.actions("set-result"), 1, "the refused second result is not in the log")
}

// Baku acceleration is set before round 1, and the engine pairs with it.
func TestConsoleAccelerate(t *testing.T) {
	tc := swiss(8, 4)
	tc.AutoPair = false
	db, err := store.Open(filepath.Join(t.TempDir(), "event.db"), nil)
	require.NoError(t, err)
	defer db.Close()
	cfg := testEvent()
	cfg.Tournaments = []director.Tournament{tc}
	d, err := director.New(cfg, db, slog.New(slog.DiscardHandler))
	require.NoError(t, err)
	e := &event{t: t, d: d, db: db}
	e.site = New(d, testConfig(), slog.New(slog.DiscardHandler))
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { _ = d.Run(ctx); close(done) }()
	defer func() { cancel(); <-done }()
	e.srv = httptest.NewServer(e.site)
	defer e.srv.Close()
	id := d.TournamentIDs()[0]
	c := e.client()
	c.login("chief", "arbiter")
	code, _ := c.act(fmt.Sprintf("/console/tournaments/%d/accelerate", id), url.Values{"accelerated": {"swiss-cheese"}})
	assert.Equal(t, http.StatusBadRequest, code)
	_, body, _ := c.get(fmt.Sprintf("/console/tournaments/%d", id))
	assert.Contains(t, body, "Baku acceleration")
	code, body = c.act(fmt.Sprintf("/console/tournaments/%d/accelerate", id), url.Values{"accelerated": {"baku"}, "why": {"big rating spread"}})
	require.Equal(t, http.StatusSeeOther, code, body)
	code, body = c.act(fmt.Sprintf("/console/tournaments/%d/pair", id), nil)
	require.Equal(t, http.StatusSeeOther, code, body)
	r1 := e.round(id, 1)
	// Baku round 1 of 8: group A (1-4) and B (5-8) are paired apart.
	for _, p := range r1.Pairings {
		assert.Equal(t, p.First <= 4, p.Second <= 4, "board %d: %d-%d crosses the groups", p.Board, p.First, p.Second)
	}
	require.Len(t, e.actions("accelerate"), 1)
}

// A configured port in trouble is an alert, and is listed with the
// tables until a board answers on it.
func TestConsolePortsWithoutABoard(t *testing.T) {
	e := newEvent(t)
	c := e.client()
	c.login("chief", "arbiter")
	_, body, _ := c.get("/console")
	assert.NotContains(t, body, "Ports without a board")
	e.d.PortTrouble("/dev/ttyUSB9", director.PortWatch, "does not exist", "Plug the board in.")
	e.d.PortTrouble("/dev/ttyUSB0", director.PortDriver, "held by process 4242 (minicom)", "Stop the program named.")
	_, body, _ = c.get("/console")
	assert.Contains(t, body, "Ports without a board")
	assert.Regexp(t, `<code>/dev/ttyUSB0</code>: held by process 4242 \(minicom\)[^<]*<small>since \d\d:\d\d:\d\d</small>`, body)
	assert.Contains(t, body, "<code>/dev/ttyUSB9</code>: does not exist")
	assert.Contains(t, body, "port /dev/ttyUSB9 · ", "the alert names the port")
	e.d.BoardEvent(e.ctx, board.Event{Kind: board.EventHello, Board: "B9", Port: "/dev/ttyUSB9",
		Info: &board.Info{ID: "B9", Caps: board.CapHeight, Width: 8, Height: 8, Cells: 64}})
	_, body, _ = c.get("/console")
	assert.NotContains(t, body, "<code>/dev/ttyUSB9</code>", "a board answered on it")
	assert.Contains(t, body, "<code>/dev/ttyUSB0</code>")
}
