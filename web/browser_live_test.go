package web

import (
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arbiter/arbiter"
	"arbiter/director"
	"arbiter/rules"
	"arbiter/store"
)

// choose picks an option of a select as a user does: the select has the
// focus, and the page hears the change.
func choose(t *testing.T, p *tab, sel, value string) {
	t.Helper()
	v := evalOK(t, p, fmt.Sprintf(`(() => { const s = document.querySelector(%q); s.focus(); s.value = %q;
		s.dispatchEvent(new Event("input", {bubbles: true})); s.dispatchEvent(new Event("change", {bubbles: true}));
		return s.value })()`, sel, value))
	require.Equal(t, value, v, sel)
}

// typing describes a control of the page: its value, whether it has the
// focus and where the caret is.
func typing(t *testing.T, p *tab, sel string) map[string]any {
	t.Helper()
	v := evalOK(t, p, fmt.Sprintf(`(() => { const c = document.querySelector(%q); if (!c) return {missing: true};
		const r = {value: c.value, focus: document.activeElement === c};
		if (r.focus && c.selectionStart !== undefined) r.caret = c.selectionStart;
		return r })()`, sel))
	m, ok := v.(map[string]any)
	require.True(t, ok, "%s: %v", sel, v)
	return m
}

// TestBrowserConsoleKeepsWhatTheArbiterTypes fills console forms in
// Chromium while the event goes on: moves, alerts, results, the pairing of
// the next round and a stream told to catch up all update the page in
// place, and every half-filled form keeps what was typed or chosen, its
// focus and its caret, until it is finished and stored.
func TestBrowserConsoleKeepsWhatTheArbiterTypes(t *testing.T) {
	p, shot := browserPage(t)
	cfg := testEvent()
	cfg.Tournaments[0] = swiss(4, 3)
	cfg.Tournaments[0].AutoPair = true
	e := newEventOf(t, cfg)
	base := e.srv.URL
	deputy := e.client()
	deputy.login("deputy", deputyPassword)
	browserLogin(t, p, base)
	live := `document.getElementById("status").classList.contains("on")`

	// Half a late entry on the tournament's console page: a rating, half
	// a point for the rounds missed, half the name.
	require.NoError(t, p.navigate(fmt.Sprintf("%s/console/tournaments/%d", base, e.chess)))
	require.NoError(t, p.waitTrue(live))
	evalOK(t, p, `window.__sameDocument = true`)
	form := fmt.Sprintf(`form[action="/console/tournaments/%d/players"]`, e.chess)
	field := func(f, name string) string { return f + ` [name="` + name + `"]` }
	require.NoError(t, p.do(chromedp.SendKeys(chromedp.CSS(field(form, "rating")), "2100")))
	choose(t, p, field(form, "missed"), "H")
	require.NoError(t, p.do(chromedp.SendKeys(chromedp.CSS(field(form, "name")), "Nils ")))

	// Moves come, the round ends and the next one is paired: the page
	// shows it.
	e.move("e2", "e4", rules.White, 0, 1)
	require.NoError(t, p.waitTrue(`window.arbiterSeen.some(u => u.kind === "move")`), "the page hears the moves")
	deputy.results(e.round(e.chess, 1))
	e.round(e.chess, 2)
	require.NoError(t, p.waitTrue(`[...document.querySelectorAll("main h3")].some(h => h.textContent.startsWith("Round 2"))`), "round 2 shows")
	require.NoError(t, p.waitTrue(fmt.Sprintf(`document.querySelector(%q).textContent.includes("late entry from round 3")`, form+" button")))
	// A stream too far behind is told to catch up: the page is read again.
	before := evalOK(t, p, `window.arbiterApplied.page`)
	e.site.feed.add(director.Update{Kind: "reload", Data: struct{}{}})
	require.NoError(t, p.waitTrue(fmt.Sprintf(`window.arbiterApplied.page > %v`, before)), "the page catches up")

	assert.Equal(t, true, evalOK(t, p, `window.__sameDocument === true`), "the page was not reloaded")
	assert.Equal(t, map[string]any{"value": "Nils ", "focus": true, "caret": float64(5)}, typing(t, p, field(form, "name")))
	assert.Equal(t, map[string]any{"value": "2100", "focus": false}, typing(t, p, field(form, "rating")))
	assert.Equal(t, map[string]any{"value": "H", "focus": false}, typing(t, p, field(form, "missed")))
	shot("console-tournament-typing.png")

	// The entry is finished where it was left, and stored.
	require.NoError(t, p.do(chromedp.KeyEvent("Berg")))
	require.NoError(t, p.do(chromedp.SendKeys(chromedp.CSS(field(form, "why")), "arrived after round 1")))
	assert.Equal(t, "player 5 Nils Berg registered", submit(t, p, fmt.Sprintf("/console/tournaments/%d/players", e.chess), nil))
	ps, err := e.db.Players(e.chess)
	require.NoError(t, err)
	require.Len(t, ps, 5)
	assert.Equal(t, store.Player{TournamentID: e.chess, ID: 5, Name: "Nils Berg", Rating: 2100, Joined: 3, Byes: map[int]string{1: "H", 2: "H"}}, ps[4])
	require.NoError(t, p.waitTrue(`document.querySelector('tr[data-player="5"]') !== null`), "the new player shows")
	assert.Equal(t, map[string]any{"value": "", "focus": false}, typing(t, p, field(form, "name")), "the form sent is emptied")
	// A refusal is told in the form, which keeps what was typed.
	refused := submit(t, p, fmt.Sprintf("/console/tournaments/%d/players", e.chess), map[string]string{"name": "Nils Berg", "why": "again"})
	assert.Contains(t, refused, `"Nils Berg" is already registered as player 5`)
	assert.True(t, strings.HasPrefix(refused, "refused: "), refused)
	assert.Equal(t, map[string]any{"value": "Nils Berg", "focus": false}, typing(t, p, field(form, "name")))

	// The console in round 2: a result chosen for the game without a
	// board, and half a reason for resolving an alert.
	r2 := e.round(e.chess, 2)
	var onTable, without uint64
	for _, pr := range r2.Pairings {
		if pr.Board == 1 {
			onTable = pr.GameID
		} else {
			without = pr.GameID
		}
	}
	e.waitFor("round 2 on the table", func() bool { l := e.live(); return l.GameID == onTable && l.Clock[0].Running })
	al := e.irregularity()
	require.NoError(t, p.navigate(base+"/console"))
	require.NoError(t, p.waitTrue(live))
	evalOK(t, p, `window.__sameDocument = true`)
	result := fmt.Sprintf(`form[action="/console/games/%d/result"]`, without)
	resolve := fmt.Sprintf(`form[action="/console/alerts/%d/resolve"]`, al.ID)
	choose(t, p, field(result, "result"), "0-1")
	choose(t, p, field(result, "reason"), "time")
	tableResult := fmt.Sprintf(`form[action="/console/games/%d/result"]`, onTable)
	choose(t, p, field(tableResult, "result"), "1-0")
	require.NoError(t, p.do(chromedp.SendKeys(chromedp.CSS(field(resolve, "why")), "pressed by mis")))

	// News: a move on the table, the same alert again, the table's game
	// decided by the deputy.
	e.move("e2", "e4", rules.White, 0, 1)
	require.NoError(t, p.waitTrue(`document.querySelector('.table-card[data-table="B1"]').innerText.includes("last e4")`), "the move shows")
	e.table.Input(e.ctx, arbiter.Event{Kind: arbiter.ClockPressed, Side: rules.White, At: e.d.Now()})
	e.waitFor("the alert's second time", func() bool {
		open, err := e.db.Alerts(true)
		return err == nil && len(open) == 1 && open[0].Count == 2
	})
	require.NoError(t, p.waitTrue(fmt.Sprintf(`document.querySelector('article[data-alert="%d"] .count').textContent === "×2"`, al.ID)), "the alert's count shows")
	code, body := deputy.act(fmt.Sprintf("/console/games/%d/result", onTable), url.Values{"result": {"1/2-1/2"}, "reason": {"agreement"}})
	require.Equal(t, http.StatusSeeOther, code, body)
	require.NoError(t, p.waitTrue(fmt.Sprintf(`document.querySelector('form[action="/console/games/%d/takeback"]') === null && document.querySelector('.table-card[data-table="B1"]').innerText.includes("finished")`, onTable)), "the result shows")

	assert.Equal(t, true, evalOK(t, p, `window.__sameDocument === true`), "the page was not reloaded")
	assert.Equal(t, map[string]any{"value": "0-1", "focus": false}, typing(t, p, field(result, "result")))
	assert.Equal(t, map[string]any{"value": "time", "focus": false}, typing(t, p, field(result, "reason")))
	assert.Equal(t, map[string]any{"value": "pressed by mis", "focus": true, "caret": float64(14)}, typing(t, p, field(resolve, "why")))
	// The result chosen for the table's game stays, marked as no longer
	// current, until it is put away.
	assert.Equal(t, map[string]any{"value": "1-0", "focus": false}, typing(t, p, field(tableResult, "result")))
	assert.Equal(t, true, evalOK(t, p, fmt.Sprintf(`document.querySelector(%q).classList.contains("stale")`, tableResult)))
	assert.Contains(t, evalOK(t, p, fmt.Sprintf(`document.querySelector(%q).innerText`, tableResult+" .stale-note")), "No longer current")
	shot("console-typing.png")
	require.NoError(t, p.do(chromedp.Click(chromedp.CSS(tableResult+" .stale-note button"))))
	assert.Equal(t, map[string]any{"missing": true}, typing(t, p, field(tableResult, "result")))
	assert.Equal(t, map[string]any{"value": "pressed by mis", "focus": false}, typing(t, p, field(resolve, "why")))
	require.NoError(t, p.do(chromedp.Focus(chromedp.CSS(field(resolve, "why")))))

	// The chosen result is sent as it was chosen; the round ends and the
	// next is paired, and the alert's half reason is still there.
	require.NoError(t, p.do(chromedp.KeyEvent("take, no penalty")))
	require.NoError(t, p.do(chromedp.SendKeys(chromedp.CSS(field(result, "why")), "the scoresheets agree")))
	assert.Equal(t, fmt.Sprintf("game %d: result 0-1 time", without), submit(t, p, fmt.Sprintf("/console/games/%d/result", without), nil))
	g, err := e.db.Game(without)
	require.NoError(t, err)
	assert.Equal(t, "0-1", g.Result)
	assert.Equal(t, "time", g.Reason)
	e.round(e.chess, 3)
	require.NoError(t, p.waitTrue(`document.querySelector("main").innerText.includes("round 3 of 3 in play")`), "round 3 shows")
	assert.Equal(t, map[string]any{"value": "pressed by mistake, no penalty", "focus": false}, typing(t, p, field(resolve, "why")))
	assert.Equal(t, fmt.Sprintf("alert %d resolved", al.ID), submit(t, p, fmt.Sprintf("/console/alerts/%d/resolve", al.ID), nil))
	acts, err := e.db.Actions(al.GameID)
	require.NoError(t, err)
	assert.Contains(t, fmt.Sprint(acts), "pressed by mistake, no penalty")
	assert.Equal(t, true, evalOK(t, p, `window.__sameDocument === true`), "the page was not reloaded")
	shot("console-after.png")
	axeCheck(t, p, "console-after")
}

// TestBrowserPublicPagesFollowResults keeps the public pages open in
// Chromium while games end and the next round is paired: the tournament's
// page shows the result, the event's page the new round, without a
// reload.
func TestBrowserPublicPagesFollowResults(t *testing.T) {
	p, _ := browserPage(t)
	e := newEvent(t)
	deputy := e.client()
	deputy.login("deputy", deputyPassword)
	open := func(path string) {
		t.Helper()
		require.NoError(t, p.navigate(e.srv.URL+path))
		require.NoError(t, p.waitTrue(`document.getElementById("status").classList.contains("on")`), path)
		evalOK(t, p, `window.__sameDocument = true`)
	}
	result := func(game uint64, res string) {
		t.Helper()
		code, body := deputy.act(fmt.Sprintf("/console/games/%d/result", game), url.Values{"result": {res}, "reason": {"resignation"}})
		require.Equal(t, http.StatusSeeOther, code, body)
	}
	r1 := e.round(e.chess, 1)

	open(fmt.Sprintf("/tournaments/%d", e.chess))
	result(r1.Pairings[0].GameID, "1-0")
	require.NoError(t, p.waitTrue(fmt.Sprintf(`document.querySelector('a[href="/games/%d"]').textContent === "1-0"`, r1.Pairings[0].GameID)), "the result shows")
	assert.Equal(t, true, evalOK(t, p, `window.__sameDocument === true`), "the tournament's page was not reloaded")

	open("/")
	result(r1.Pairings[1].GameID, "0-1")
	e.round(e.chess, 2)
	require.NoError(t, p.waitTrue(`document.querySelector("main .card").innerText.includes("round 2 in play")`), "the new round shows")
	assert.Equal(t, true, evalOK(t, p, `window.__sameDocument === true`), "the event's page was not reloaded")
}

// TestBrowserConsoleLoggedOut ends the arbiter's session while a form is
// being filled: the page says it cannot be brought up to date, the form
// sent is refused with the reason, and what was typed stays.
func TestBrowserConsoleLoggedOut(t *testing.T) {
	p, _ := browserPage(t)
	e := newEvent(t)
	al := e.irregularity()
	browserLogin(t, p, e.srv.URL)
	require.NoError(t, p.waitTrue(`document.getElementById("status").classList.contains("on")`))
	resolve := fmt.Sprintf(`form[action="/console/alerts/%d/resolve"] [name="why"]`, al.ID)
	require.NoError(t, p.do(chromedp.SendKeys(chromedp.CSS(resolve), "pressed by mistake")))
	_, err := chromedp.Call(p.ctx, network.ClearBrowserCookies, cdp.Empty{})
	require.NoError(t, err)
	e.site.feed.add(director.Update{Kind: "reload", Data: struct{}{}})
	require.NoError(t, p.waitTrue(`(document.getElementById("news") || {}).textContent === "This page could not be brought up to date: the server sent another page (logged out?). It tries again with the next news."`))
	done := submit(t, p, fmt.Sprintf("/console/alerts/%d/resolve", al.ID), nil)
	assert.Equal(t, "refused: log in to the arbiter console first", done)
	assert.Equal(t, map[string]any{"value": "pressed by mistake", "focus": true, "caret": float64(18)}, typing(t, p, resolve))
	open, err := e.db.Alerts(true)
	require.NoError(t, err)
	assert.Len(t, open, 1, "the alert is still open")
}
