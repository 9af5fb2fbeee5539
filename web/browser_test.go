package web

import (
	"fmt"
	"os"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arbiter/rules"
)

// TestBrowser drives headless Chromium through the public pages and the
// console: the standings, a live game where a move appears without a
// reload, a login and the resolution of an alert. It skips when no
// Chromium is installed.
func TestBrowser(t *testing.T) {
	p, shot := browserPage(t)
	e := newEvent(t)
	base := e.srv.URL

	// The standings, hostile names shown as text and never run.
	require.NoError(t, p.navigate(fmt.Sprintf("%s/tournaments/%d/standings", base, e.chess)))
	v, err := p.eval(`document.querySelector("table.standings").innerText`)
	require.NoError(t, err)
	assert.Contains(t, v, evilScript)
	assert.Contains(t, v, evilImg)
	assert.Contains(t, v, "Carla")

	// The pairings printout as printed: the print stylesheet applied,
	// hostile names shown as text.
	require.NoError(t, p.navigate(fmt.Sprintf("%s/tournaments/%d/rounds/1/pairings", base, e.chess)))
	require.NoError(t, p.media("print"))
	v, err = p.eval(`document.querySelector("table.pairings").innerText`)
	require.NoError(t, err)
	assert.Contains(t, v, evilScript)
	assert.Contains(t, v, "White")
	v, err = p.eval(`getComputedStyle(document.querySelector(".back")).display`)
	require.NoError(t, err)
	assert.Equal(t, "none", v, "the print stylesheet hides the link back")
	shot("pairings-print.png")
	require.NoError(t, p.navigate(fmt.Sprintf("%s/tournaments/%d/rounds/1/slips", base, e.chess)))
	v, err = p.eval(`document.querySelectorAll(".slip").length`)
	require.NoError(t, err)
	assert.EqualValues(t, 2, v, "one slip per board")
	shot("slips-print.png")
	require.NoError(t, p.media(""))

	// A live game: the move appears without a reload.
	gid := e.live().GameID
	require.NoError(t, p.navigate(fmt.Sprintf("%s/games/%d", base, gid)))
	require.NoError(t, p.waitTrue(`document.getElementById("status").classList.contains("on")`), "the event stream connects")
	_, err = p.eval(`window.__sameDocument = true`)
	require.NoError(t, err)
	e.move("e2", "e4", rules.White, 0, 1)
	require.NoError(t, p.waitTrue(`document.querySelector("table.moves").innerText.includes("e4") && document.querySelector('.sq[aria-label="e4, white pawn"]') !== null`))
	v, err = p.eval(`window.__sameDocument === true`)
	require.NoError(t, err)
	assert.Equal(t, true, v, "the page was not reloaded")
	// The clock of the side to move ticks down in the browser.
	first, err := p.eval(`document.querySelector(".second-player .clock").textContent`)
	require.NoError(t, err)
	require.NoError(t, p.waitTrue(fmt.Sprintf(`document.querySelector(".second-player .clock").textContent !== %q`, first)))
	shot("game.png")

	// The console: log in and resolve an alert.
	al := e.irregularity()
	browserLogin(t, p, base)
	sel := fmt.Sprintf(`article[data-alert="%d"]`, al.ID)
	require.NoError(t, p.waitTrue(fmt.Sprintf(`document.querySelector(%q) !== null`, sel)))
	shot("console-alert.png")
	axeCheck(t, p, "console-alert")
	v = submit(t, p, fmt.Sprintf("/console/alerts/%d/resolve", al.ID), map[string]string{"why": "pressed by mistake, no penalty"})
	assert.Equal(t, fmt.Sprintf("alert %d resolved", al.ID), v)
	require.NoError(t, p.waitTrue(fmt.Sprintf(`document.querySelector(%q) === null`, sel)), "the resolved alert leaves the page")
	open, err := e.db.Alerts(true)
	require.NoError(t, err)
	assert.Empty(t, open)
	acts, err := e.db.Actions(al.GameID)
	require.NoError(t, err)
	assert.Contains(t, fmt.Sprint(acts), "pressed by mistake, no penalty")
	shot("console.png")

	assert.False(t, p.sawDialog(), "no hostile name ran as script")
}

// removeEventually removes a directory, retrying while other processes
// finish writing to it.
func removeEventually(t *testing.T, dir string) {
	var err error
	for range 40 {
		if err = os.RemoveAll(dir); err == nil {
			return
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Logf("could not remove %s: %v", dir, err)
}

// artifactDir returns where screenshots go: the test's artifact directory
// and, when ARBITER_ARTIFACTS is set, that directory too.
func artifactDir(t *testing.T) []string {
	dirs := []string{t.ArtifactDir()}
	if d := os.Getenv("ARBITER_ARTIFACTS"); d != "" {
		require.NoError(t, os.MkdirAll(d, 0o755))
		dirs = append(dirs, d)
	}
	return dirs
}
