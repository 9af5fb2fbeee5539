package web

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"arbiter/director"
	"arbiter/internal/shared"
	"arbiter/rules"
	_ "arbiter/rules/kvaa"
	_ "arbiter/rules/shogi"
	_ "arbiter/rules/tensor"
)

// htmlValidateVersion is the html-validate the tests install: pinned, so
// a new release's rules do not fail the build unannounced.
const htmlValidateVersion = "9.7.1"

// htmlValidate returns the html-validate command: ARBITER_HTML_VALIDATE,
// html-validate on the PATH, or one installed with npm into the user's
// cache. Without node it skips, and fails when CI is set: CI must check
// the pages.
func htmlValidate(t *testing.T) string {
	t.Helper()
	if p := os.Getenv("ARBITER_HTML_VALIDATE"); p != "" {
		return p
	}
	if p, err := exec.LookPath("html-validate"); err == nil {
		return p
	}
	if _, err := exec.LookPath("node"); err != nil {
		npmMissing(t, "node and npm are needed to run html-validate (or set ARBITER_HTML_VALIDATE)")
	}
	dir := npmPackage(t, "html-validate", htmlValidateVersion)
	return filepath.Join(dir, "node_modules", ".bin", "html-validate")
}

// npmMissing skips a test that needs a package from npm it cannot have,
// and fails it when CI is set: CI must run it.
func npmMissing(t *testing.T, format string, args ...any) {
	t.Helper()
	if shared.InCI() {
		t.Fatalf(format+" (CI is set: this check must run)", args...)
	}
	t.Skipf(format, args...)
}

// npmPackage returns the folder where the npm package name@version is
// installed, in the user's cache, installing it with npm the first time.
func npmPackage(t *testing.T, name, version string) string {
	t.Helper()
	cache, err := os.UserCacheDir()
	if err != nil {
		cache = os.TempDir()
	}
	dir := filepath.Join(cache, "arbiter", name+"-"+version)
	if _, err := os.Stat(filepath.Join(dir, "node_modules", name, "package.json")); err == nil {
		return dir
	}
	npm, err := exec.LookPath("npm")
	if err != nil {
		npmMissing(t, "npm is needed to install %s", name)
	}
	require.NoError(t, os.MkdirAll(dir, 0o755))
	out, err := exec.Command(npm, "install", "--prefix", dir, "--no-audit", "--no-fund", name+"@"+version).CombinedOutput()
	if err != nil {
		npmMissing(t, "npm install %s@%s: %v\n%s", name, version, err, out)
	}
	return dir
}

// validationReport is html-validate's JSON output, the parts we show.
type validationReport []struct {
	FilePath string `json:"filePath"`
	Messages []struct {
		RuleID   string `json:"ruleId"`
		Severity int    `json:"severity"`
		Message  string `json:"message"`
		Line     int    `json:"line"`
		Column   int    `json:"column"`
		Selector string `json:"selector"`
	} `json:"messages"`
}

// validateHTML runs html-validate bin (testdata/htmlvalidate.json) on pages,
// name to HTML, and fails the test with every error it reports.
func validateHTML(t *testing.T, bin string, pages map[string]string) {
	t.Helper()
	dir := t.TempDir()
	var files []string
	for name, html := range pages {
		f := filepath.Join(dir, name+".html")
		require.NoError(t, os.WriteFile(f, []byte(html), 0o644))
		files = append(files, f)
	}
	conf, err := filepath.Abs(filepath.Join("testdata", "htmlvalidate.json"))
	require.NoError(t, err)
	args := append([]string{"--config", conf, "--formatter", "json"}, files...)
	out, err := exec.Command(bin, args...).Output()
	var rep validationReport
	if jerr := json.Unmarshal(out, &rep); jerr != nil {
		require.NoError(t, err, "html-validate: %s", out)
		require.NoError(t, jerr, "html-validate output: %s", out)
	}
	var problems []string
	for _, f := range rep {
		for _, m := range f.Messages {
			if m.Severity >= 2 {
				problems = append(problems, fmt.Sprintf("%s:%d:%d %s: %s (%s)", filepath.Base(f.FilePath), m.Line, m.Column, m.RuleID, m.Message, m.Selector))
			}
		}
	}
	require.Empty(t, problems, "html-validate finds %d errors:\n%s", len(problems), strings.Join(problems, "\n"))
}

// TestPagesValidate runs html-validate on every page type: the public
// pages, the console, the printouts and the error page.
func TestPagesValidate(t *testing.T) {
	if testing.Short() {
		t.Skip("html-validate is run in the full tests")
	}
	bin := htmlValidate(t)
	e := newEvent(t)
	gid := e.live().GameID
	e.move("e2", "e4", rules.White, 0, 1)
	pub := e.client()
	pages := map[string]string{}
	get := func(c *client, name, path string, status int) {
		t.Helper()
		code, body, _ := c.get(path)
		require.Equal(t, status, code, path)
		pages[name] = body
	}
	get(pub, "event", "/", 200)
	get(pub, "live", "/live", 200)
	get(pub, "tournament", fmt.Sprintf("/tournaments/%d", e.chess), 200)
	get(pub, "standings", fmt.Sprintf("/tournaments/%d/standings", e.chess), 200)
	get(pub, "crosstable", fmt.Sprintf("/tournaments/%d/crosstable", e.chess), 200)
	get(pub, "player", fmt.Sprintf("/tournaments/%d/players/3", e.chess), 200)
	get(pub, "game", fmt.Sprintf("/games/%d", gid), 200)
	get(pub, "game-start", fmt.Sprintf("/games/%d?ply=0", gid), 200)
	get(pub, "error", "/games/999999", 404)
	get(pub, "print-pairings", fmt.Sprintf("/tournaments/%d/rounds/1/pairings", e.chess), 200)
	get(pub, "print-slips", fmt.Sprintf("/tournaments/%d/rounds/1/slips", e.chess), 200)
	get(pub, "print-standings", fmt.Sprintf("/tournaments/%d/print/standings", e.chess), 200)
	get(pub, "print-crosstable", fmt.Sprintf("/tournaments/%d/print/crosstable", e.chess), 200)
	get(pub, "login", "/console/login", 200)
	arb := e.client()
	arb.login("chief", "arbiter")
	get(arb, "console", "/console", 200)
	get(arb, "console-tournament", fmt.Sprintf("/console/tournaments/%d", e.chess), 200)
	get(arb, "console-tavreli", fmt.Sprintf("/console/tournaments/%d", e.tav), 200)
	pages["boards"] = everyBoard(t)
	validateHTML(t, bin, pages)
}

// everyBoard renders the live page with a table of every game: a Tavreli
// tower, shogi hands with a promoted piece, Kvaa's zones and Tensor's
// monsters.
func everyBoard(t *testing.T) string {
	t.Helper()
	positions := map[string]string{
		"tavreli": "",
		"shogi":   "lnsgkgsnl/1r5b1/pppppp1pp/9/9/9/PP1PPP+P1P/1B5R1/LNSGKGSNL b 2Pp 1",
		"kvaa":    "",
		"tensor":  "",
		"chess":   "",
	}
	var cards []tableCard
	for _, game := range []string{"chess", "tensor", "tavreli", "shogi", "kvaa"} {
		g, err := rules.New(game, nil)
		require.NoError(t, err)
		pos := g.Start()
		if text := positions[game]; text != "" {
			pos, err = g.ParsePosition(text)
			require.NoError(t, err)
		}
		v := director.NewBoardView(g, pos)
		if game == "tavreli" {
			// A tower of three on e4.
			for i, sq := range v.Squares {
				if sq.Name == "e4" {
					v.Squares[i].Stack = []string{"P(H)", "p(N)", "Q"}
				}
			}
		}
		l := director.Live{Table: "T-" + game, Number: len(cards) + 1, GameID: uint64(len(cards) + 1), Game: game, First: "A", Second: "B",
			View: v, Turn: g.SideName(rules.First), Health: "active"}
		cards = append(cards, card(l))
	}
	var buf bytes.Buffer
	require.NoError(t, mustParsePages().sets["live"].ExecuteTemplate(&buf, "layout", pageData{Event: "Boards", Page: "live", Data: cards}))
	return buf.String()
}
