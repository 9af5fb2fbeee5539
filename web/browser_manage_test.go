package web

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// browserLogin logs the page in to the console as chief.
func browserLogin(t *testing.T, p *tab, base string) {
	t.Helper()
	require.NoError(t, p.navigate(base+"/console/login"))
	_, err := p.eval(`(() => {
		document.querySelector("input[name=name]").value = "chief";
		document.querySelector("input[name=password]").value = "arbiter";
		document.querySelector("form.login").submit();
		return true })()`)
	require.NoError(t, err)
	require.NoError(t, p.waitTrue(`location.pathname === "/console" && document.readyState === "complete"`))
}

// submit fills the fields of the form posting to action and submits it,
// then waits for the console's answer, shown on the page, which stays:
// the answer, or "refused: " and why.
func submit(t *testing.T, p *tab, action string, fields map[string]string) string {
	t.Helper()
	before := evalOK(t, p, `window.__sent = window.arbiterSent.answers`)
	js := fmt.Sprintf(`(() => { const f = document.querySelector('form[action=%q]'); if (!f) return "no form";`, action)
	for k, v := range fields {
		js += fmt.Sprintf(`f.querySelector('[name=%q]').value = %q;`, k, v)
	}
	js += `f.requestSubmit(); return "ok" })()`
	v, err := p.eval(js)
	require.NoError(t, err)
	require.Equal(t, "ok", v, action)
	require.NoError(t, p.waitTrue(fmt.Sprintf(`window.arbiterSent.answers > %v`, before)), action)
	assert.Equal(t, before, evalOK(t, p, `window.__sent`), "%s: the page was not reloaded", action)
	done, err := p.eval(fmt.Sprintf(`(() => { const e = document.querySelector('form[action=%q] > .error');
		return e ? "refused: " + e.innerText : document.getElementById("sent").innerText })()`, action))
	require.NoError(t, err)
	return fmt.Sprint(done)
}

// TestBrowserConsoleLifecycle drives the console in Chromium through a
// Swiss that cannot be paired a fourth time: the alert and the choices,
// pairings entered by hand, a late entry and a corrected result.
func TestBrowserConsoleLifecycle(t *testing.T) {
	p, shot := browserPage(t)
	e, id := newTableless(t, swiss(4, 4))
	c := e.client()
	c.login("chief", "arbiter")
	for n := 1; n <= 3; n++ {
		c.results(e.round(id, n))
	}
	e.waitFor("the block", func() bool { return e.d.Blocked(id) != "" })
	base := e.srv.URL
	browserLogin(t, p, base)
	v, err := p.eval(`document.querySelector("main").innerText`)
	require.NoError(t, err)
	assert.Contains(t, v, "round 4 cannot be paired")
	shot("console-blocked.png")
	axeCheck(t, p, "console-blocked")

	require.NoError(t, p.navigate(fmt.Sprintf("%s/console/tournaments/%d", base, id)))
	shot("console-tournament-blocked.png")
	axeCheck(t, p, "console-tournament-blocked")
	done := submit(t, p, fmt.Sprintf("/console/tournaments/%d/pair-manual", id), map[string]string{"pairings": "1 - 2\n3 - 4", "why": "no valid pairing: organiser's decision"})
	assert.Equal(t, fmt.Sprintf("tournament %d: next round paired by hand", id), done)
	require.NoError(t, p.navigate(fmt.Sprintf("%s/console/tournaments/%d", base, id)))
	v, err = p.eval(`document.querySelector("main").innerText`)
	require.NoError(t, err)
	assert.Contains(t, v, "paired by hand")
	assert.Contains(t, v, "C1: they met in round")
	shot("console-tournament-manual.png")
	axeCheck(t, p, "console-tournament-manual")

	done = submit(t, p, fmt.Sprintf("/console/tournaments/%d/players", id), map[string]string{"name": "Late Comer", "rating": "2100", "why": "arrived after round 3"})
	assert.Contains(t, done, "player 5 Late Comer registered")
	g := e.round(id, 1).Pairings[0].GameID
	require.NoError(t, p.navigate(fmt.Sprintf("%s/console/tournaments/%d", base, id)))
	done = submit(t, p, fmt.Sprintf("/console/games/%d/correct", g), map[string]string{"result": "1/2-1/2", "reason": "agreement", "why": "both scoresheets say draw"})
	assert.Contains(t, done, "result corrected")
	require.NoError(t, p.navigate(fmt.Sprintf("%s/console/tournaments/%d", base, id)))
	shot("console-tournament-players.png")
	assert.False(t, p.sawDialog(), "no hostile name ran as script")
}
