package web

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arbiter/rules"
)

// TestBrowserPages opens every page type in headless Chromium on a
// desktop and on a phone: each is screenshotted, and none scrolls
// sideways on the phone. On the boards of every game the pieces are drawn
// from the embedded sets and a tower's caption stays readable; on the game
// viewer the keyboard steps through the game.
func TestBrowserPages(t *testing.T) {
	p, _ := browserPage(t)
	e := newEvent(t)
	gid := e.live().GameID
	e.move("e2", "e4", rules.White, 0, 1)
	base := e.srv.URL

	// The boards of every game, served beside the site's own files.
	boards := everyBoard(t)
	mux := http.NewServeMux()
	mux.Handle("GET /static/", e.site)
	mux.HandleFunc("GET /boards", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		_, _ = io.WriteString(w, boards)
	})
	bs := httptest.NewServer(mux)
	t.Cleanup(bs.Close)

	// The login page first, then the console's pages logged in.
	require.NoError(t, p.navigate(base+"/console/login"))
	login, err := p.screenshot()
	require.NoError(t, err)
	require.Greater(t, len(login), 2000)
	axeCheck(t, p, "login")
	browserLogin(t, p, base)
	pages := []struct{ name, url string }{
		{"event", base + "/"},
		{"live", base + "/live"},
		{"tournament", fmt.Sprintf("%s/tournaments/%d", base, e.chess)},
		{"standings", fmt.Sprintf("%s/tournaments/%d/standings", base, e.chess)},
		{"crosstable", fmt.Sprintf("%s/tournaments/%d/crosstable", base, e.chess)},
		{"player", fmt.Sprintf("%s/tournaments/%d/players/3", base, e.chess)},
		{"game", fmt.Sprintf("%s/games/%d", base, gid)},
		{"game-start", fmt.Sprintf("%s/games/%d?ply=0", base, gid)},
		{"scoresheet", fmt.Sprintf("%s/games/%d/scoresheet", base, gid)},
		{"error", base + "/games/999999"},
		{"print-pairings", fmt.Sprintf("%s/tournaments/%d/rounds/1/pairings", base, e.chess)},
		{"print-slips", fmt.Sprintf("%s/tournaments/%d/rounds/1/slips", base, e.chess)},
		{"print-standings", fmt.Sprintf("%s/tournaments/%d/print/standings", base, e.chess)},
		{"print-crosstable", fmt.Sprintf("%s/tournaments/%d/print/crosstable", base, e.chess)},
		{"console", base + "/console"},
		{"console-tournament", fmt.Sprintf("%s/console/tournaments/%d", base, e.chess)},
		{"console-tavreli", fmt.Sprintf("%s/console/tournaments/%d", base, e.tav)},
		{"boards", bs.URL + "/boards"},
	}
	dir := t.TempDir()
	keep := artifactDir(t)
	for _, vp := range []struct {
		name          string
		width, height int64
		mobile        bool
	}{{"desktop", 1280, 900, false}, {"phone", 375, 740, true}} {
		require.NoError(t, p.viewport(vp.width, vp.height, vp.mobile))
		for _, pg := range pages {
			name := pg.name + "-" + vp.name
			require.NoError(t, p.navigate(pg.url), name)
			require.NoError(t, p.waitTrue(`document.fonts.status === "loaded"`), name)
			png, err := p.screenshot()
			require.NoError(t, err, name)
			require.True(t, bytes.HasPrefix(png, []byte("\x89PNG")), "%s: a PNG", name)
			require.Greater(t, len(png), 2000, "%s: a page, not an empty image", name)
			for _, d := range append([]string{dir}, keep...) {
				require.NoError(t, os.WriteFile(filepath.Join(d, name+".png"), png, 0o644))
			}
			if vp.mobile {
				v, err := p.eval(`[document.documentElement.scrollWidth, document.documentElement.clientWidth]`)
				require.NoError(t, err)
				w := v.([]any)
				if !assert.LessOrEqual(t, w[0], w[1], "%s scrolls sideways (scroll width, viewport width)", name) {
					wide, _ := p.eval(`[...document.querySelectorAll("body *")].filter(e => e.getBoundingClientRect().right > document.documentElement.clientWidth + 0.5 && ![...e.children].some(c => c.getBoundingClientRect().right > document.documentElement.clientWidth + 0.5)).slice(0, 6).map(e => e.tagName + "." + e.className + " " + Math.round(e.getBoundingClientRect().right)).join("; ")`)
					t.Logf("%s: too wide: %v", name, wide)
				}
			}
			if pg.name == "boards" {
				checkBoards(t, p, name)
			}
			if !vp.mobile {
				axeCheck(t, p, pg.name)
			}
		}
	}
	require.NoError(t, p.do(chromedp.ResetViewport()))

	// The keyboard steps through the game from wherever the focus is.
	require.NoError(t, p.navigate(fmt.Sprintf("%s/games/%d", base, gid)))
	ply := func(want int) string {
		return fmt.Sprintf(`document.querySelector(".game-body").getAttribute("data-ply") === "%d"`, want)
	}
	require.NoError(t, p.waitTrue(ply(1)))
	assert.Equal(t, float64(2), evalOK(t, p, `document.querySelectorAll(".sq.last").length`), "the last move's squares")
	// The clocks are the largest text beside the board.
	clock := evalOK(t, p, `parseFloat(getComputedStyle(document.querySelector(".game-board .clock")).fontSize)`)
	assert.GreaterOrEqual(t, clock, float64(24), "the clocks are prominent")
	for _, step := range []struct {
		key  string
		code int64
		ply  int
	}{{"ArrowLeft", 37, 0}, {"ArrowRight", 39, 1}, {"Home", 36, 0}, {"End", 35, 1}} {
		require.NoError(t, p.key(step.key, step.code))
		require.NoError(t, p.waitTrue(ply(step.ply)), step.key)
	}
	require.NoError(t, p.waitTrue(`document.activeElement && document.activeElement.getAttribute("data-key") === "End"`),
		"the focus stays on the step link after the viewer is redrawn")
	assert.False(t, p.sawDialog(), "no hostile name ran as script")
}

// checkBoards checks the boards page: pieces drawn from the embedded SVG
// sets, and a Tavreli tower's caption no smaller than 10px.
func checkBoards(t *testing.T, p *tab, name string) {
	t.Helper()
	for _, sel := range []string{".g-chess .pc.kP.first", ".g-chess .pc.kK.second", ".g-tensor .pc.kT.first", ".g-kvaa .pc.kC.second", ".g-shogi .pc.kK"} {
		v := evalOK(t, p, fmt.Sprintf(`getComputedStyle(document.querySelector(%q)).backgroundImage`, sel))
		assert.Regexp(t, `/static/pieces/\w+\.svg`, v, "%s: %s drawn from the set", name, sel)
	}
	loaded := evalOK(t, p, `performance.getEntriesByType("resource").filter(e => e.name.includes("/static/pieces/")).length`)
	assert.GreaterOrEqual(t, loaded, float64(10), "%s: the piece images load", name)
	size := evalOK(t, p, `Math.min(...[...document.querySelectorAll(".sq.tower .stack li, .sq.tower .height, .pc .mark")].map(e => parseFloat(getComputedStyle(e).fontSize)))`)
	assert.GreaterOrEqual(t, size, float64(10), "%s: the tower's caption is readable", name)
	// Pieces in hand and in reserve are drawn as large as on a small board.
	small := evalOK(t, p, `Math.min(...[...document.querySelectorAll(".zone .pc")].map(e => e.getBoundingClientRect().width))`)
	assert.GreaterOrEqual(t, small, float64(24), "%s: the pieces off the board are drawn full size", name)
	// A promoted shogi piece is red, and gote's pieces point at sente.
	assert.Equal(t, "rgb(179, 38, 30)", evalOK(t, p, `getComputedStyle(document.querySelector(".g-shogi .pc.back")).color`))
	assert.Contains(t, evalOK(t, p, `getComputedStyle(document.querySelector(".g-shogi .pc.second")).transform`), "matrix(-1")
}
