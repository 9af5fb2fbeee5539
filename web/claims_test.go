package web

import (
	"bytes"
	"fmt"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arbiter/director"
	"arbiter/rules"
	"arbiter/store"
)

// The console's offers and claims on the board game of the chess event.
func TestConsoleOffersAndClaims(t *testing.T) {
	e := newEvent(t)
	c := e.client()
	c.login("chief", "arbiter")
	gid := e.live().GameID
	path := func(what string) string { return fmt.Sprintf("/console/games/%d/%s", gid, what) }

	code, body, _ := c.get("/console")
	require.Equal(t, http.StatusOK, code)
	for _, what := range []string{"offer", "answer", "claim", "resign"} {
		assert.Contains(t, body, `action="`+path(what)+`"`, "the console has the %s form", what)
	}
	assert.NotContains(t, body, `action="`+path("declare")+`"`, "no declaration in chess")

	// Bad input is refused with what is wrong.
	code, body = c.act(path("offer"), url.Values{"side": {"third"}})
	assert.Equal(t, http.StatusBadRequest, code)
	assert.Contains(t, body, "want first or second")
	code, body = c.act(path("offer"), url.Values{"side": {"first"}, "kind": {"truce"}})
	assert.Equal(t, http.StatusBadRequest, code)
	assert.Contains(t, body, "want draw or jishogi")
	code, body = c.act(path("answer"), url.Values{"side": {"second"}, "answer": {"accept"}})
	assert.Equal(t, http.StatusBadRequest, code)
	assert.Contains(t, body, "no offer is open")
	for _, what := range []string{"jishogi", "declare"} {
		code, body = c.act(path(what), url.Values{"side": {"first"}})
		assert.Equal(t, http.StatusBadRequest, code, what)
		assert.Contains(t, body, "only in shogi", what)
	}

	// An incorrect claim: two minutes to the opponent, the game goes on.
	code, body = c.act(path("claim"), url.Values{"side": {"second"}})
	assert.Equal(t, http.StatusBadRequest, code, "Black is not to move")
	assert.Contains(t, body, "not to move")
	before := e.live().Clock[1].Millis
	code, loc := c.act(path("claim"), url.Values{"side": {"first"}, "move": {"Nf3"}})
	require.Equal(t, http.StatusSeeOther, code, loc)
	assert.Contains(t, unescapedLocation(loc), "incorrect")
	assert.Contains(t, unescapedLocation(loc), "the intended move Nf3 must be played")
	e.waitFor("the penalty", func() bool { return e.live().Clock[1].Millis > before+100_000 })
	assert.Empty(t, e.live().Result)

	// An offer declined, then one accepted.
	e.move("e2", "e4", rules.White, 0, 1)
	code, loc = c.act(path("offer"), url.Values{"side": {"first"}})
	require.Equal(t, http.StatusSeeOther, code, loc)
	_, body, _ = c.get("/console")
	assert.Contains(t, body, "<b>Open offer:</b> White offers draw")
	code, loc = c.act(path("answer"), url.Values{"side": {"second"}, "answer": {"decline"}})
	require.Equal(t, http.StatusSeeOther, code, loc)
	assert.Contains(t, unescapedLocation(loc), "declined")
	code, loc = c.act(path("offer"), url.Values{"side": {"white"}, "kind": {"draw"}})
	require.Equal(t, http.StatusSeeOther, code, loc)
	code, loc = c.act(path("answer"), url.Values{"side": {"black"}, "answer": {"accept"}, "why": {"agreed at the board"}})
	require.Equal(t, http.StatusSeeOther, code, loc)
	assert.Equal(t, fmt.Sprintf("game %d: second accepted; result 1/2-1/2 agreement", gid), unescapedLocation(loc))
	e.waitFor("the result", func() bool { return e.live().Result == "1/2-1/2" })
	g, err := e.db.Game(gid)
	require.NoError(t, err)
	assert.Equal(t, "agreement", g.Reason)

	acts, err := e.db.Actions(gid)
	require.NoError(t, err)
	whats := map[string]int{}
	for _, a := range acts {
		assert.Equal(t, "chief", a.Who)
		whats[a.What]++
	}
	assert.Equal(t, map[string]int{"draw-claim": 1, "draw-offer": 2, "draw-decline": 1, "draw-accept": 1}, whats)
}

func TestConsoleResign(t *testing.T) {
	e := newEvent(t)
	c := e.client()
	c.login("chief", "arbiter")
	gid := e.live().GameID
	code, loc := c.act(fmt.Sprintf("/console/games/%d/resign", gid), url.Values{"side": {"first"}, "why": {"White resigned, <b>signed</b>"}})
	require.Equal(t, http.StatusSeeOther, code, loc)
	e.waitFor("the result", func() bool { return e.live().Result == "0-1" })
	g, err := e.db.Game(gid)
	require.NoError(t, err)
	assert.Equal(t, "resignation", g.Reason)
	acts, err := e.db.Actions(gid)
	require.NoError(t, err)
	require.Len(t, acts, 1)
	assert.Equal(t, "resignation", acts[0].What)
	assert.Equal(t, "White resigned, <b>signed</b>", acts[0].Why)
	code, _ = c.act(fmt.Sprintf("/console/games/%d/resign", gid), url.Values{"side": {"second"}})
	assert.Equal(t, http.StatusConflict, code, "the game is over")
}

// The console's claim forms fit each game: jishogi and the declaration in
// shogi, no draw offer there; claims where the game has them.
func TestConsoleClaimFormsPerGame(t *testing.T) {
	for _, c := range []struct {
		game      string
		want, not []string
	}{
		{"chess", []string{"offer", "answer", "claim", "resign", `value="draw"`}, []string{"declare", "jishogi", `value="jishogi"`}},
		{"tavreli", []string{"offer", "claim", "resign"}, []string{"declare", "jishogi"}},
		{"kvaa", []string{"offer", "resign"}, []string{"claim", "declare", "jishogi"}},
		{"shogi", []string{"offer", "answer", "declare", "jishogi", "resign", `value="jishogi"`}, []string{"claim", `value="draw"`}},
	} {
		t.Run(c.game, func(t *testing.T) {
			l := director.Live{Table: "B9", Number: 9, GameID: 42, Game: c.game, First: evilScript, Second: "Bo", Health: "active", Offer: evilImg + " offers draw"}
			data := pageData{Event: "E", Page: "console", Data: map[string]any{
				"User": "chief", "CSRF": "tok", "Tables": []tableCard{card(l)}, "Reasons": resultReasons(),
				"Alerts": []store.Alert{}, "Unboarded": []store.Game{}, "Tournaments": []tourSummary{}, "Actions": []store.Action{},
			}}
			var buf bytes.Buffer
			require.NoError(t, mustParsePages().sets["console"].ExecuteTemplate(&buf, "layout", data))
			html := buf.String()
			for _, w := range c.want {
				if strings.HasPrefix(w, "value=") {
					assert.Contains(t, html, w)
					continue
				}
				assert.Contains(t, html, `action="/console/games/42/`+w+`"`)
			}
			for _, n := range c.not {
				if strings.HasPrefix(n, "value=") {
					assert.NotContains(t, html, n)
					continue
				}
				assert.NotContains(t, html, `action="/console/games/42/`+n+`"`)
			}
			assert.Contains(t, html, "<b>Open offer:</b>")
			assert.NotContains(t, html, evilScript)
			assert.NotContains(t, html, evilImg)
			for _, f := range regexp.MustCompile(`(?s)<form method="post".*?</form>`).FindAllString(html, -1) {
				assert.Contains(t, f, `name="csrf" value="tok"`)
			}
		})
	}
}
