package main

import (
	"archive/zip"
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.yaml.in/yaml/v3"
	"golang.org/x/crypto/bcrypt"

	"arbiter/internal/config"
	"arbiter/store"
)

// pushSink is a broadcast endpoint that counts what it is sent.
type pushSink struct {
	*httptest.Server
	mu     sync.Mutex
	bodies map[string][]string // path: bodies
}

func newPushSink(t *testing.T) *pushSink {
	t.Helper()
	s := &pushSink{bodies: map[string][]string{}}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		if r.Header.Get("Authorization") != "Bearer lip_weekend" {
			http.Error(w, "bad token", http.StatusUnauthorized)
			return
		}
		s.mu.Lock()
		s.bodies[r.URL.Path] = append(s.bodies[r.URL.Path], string(b))
		s.mu.Unlock()
		fmt.Fprintln(w, `{"games":[]}`)
	}))
	t.Cleanup(s.Close)
	return s
}

func (s *pushSink) count() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	n := 0
	for _, bs := range s.bodies {
		n += len(bs)
	}
	return n
}

// A rehearsal of an organiser's configuration as it is: simulated boards
// stand in for its ports (ours at a path, a DGT board, a pattern's), the
// assigned board on its table; the event's database is not touched and
// nothing is pushed to the broadcast endpoint unless asked; the report
// says, round by round, what an arbiter would meet.
func TestRehearseOrganiserConfig(t *testing.T) {
	if testing.Short() {
		t.Skip("plays an event through twice")
	}
	t.Parallel()
	dir := t.TempDir()
	sink := newPushSink(t)
	extra := fmt.Sprintf(`boards:
  ports:
    - {path: /dev/serial/by-id/usb-Arbiter_Board_TB-0042-if00}
    - {path: /dev/ttyACM7, protocol: dgt}
    - {glob: "/dev/ttyUSB*"}
  assign:
    - {board: TB-0042, tournament: "Weekend Rapid", table: 2}
backup: {dir: %q}
broadcast:
  push:
    - {url: %q, tournament: "Weekend Rapid", token: lip_weekend}
`, filepath.Join(dir, "backups"), sink.URL+"/api/broadcast/round/{round}/push")
	path := filepath.Join(dir, "weekend.yaml")
	require.NoError(t, os.WriteFile(path, []byte(organiserYAML(t, dir, "0.0.0.0:8080", extra)), 0o600))
	// The event's own database, already there: left as it is.
	eventDB := filepath.Join(dir, "weekend.db")
	db, err := store.Open(eventDB, nil)
	require.NoError(t, err)
	require.NoError(t, db.CreateGame(&store.Game{Game: "chess", First: "A", Second: "B"}))
	require.NoError(t, db.Close())
	before, err := os.ReadFile(eventDB)
	require.NoError(t, err)

	scratch := filepath.Join(dir, "scratch")
	code, out := runCLI(t, "rehearse", "--config", path, "--speed", "60", "--plies", "16", "--dir", scratch)
	require.Equal(t, exitOK, code, out)
	t.Logf("%s", out)
	after, err := os.ReadFile(eventDB)
	require.NoError(t, err)
	assert.True(t, bytes.Equal(before, after), "the event's database was touched")
	assert.NoDirExists(t, filepath.Join(dir, "backups"), "the event's backup folder was not used")
	assert.Zero(t, sink.count(), "nothing was pushed to the real endpoint")

	plain := squeeze(out)
	for _, want := range []string{
		"rehearsal of " + path + " in " + scratch + " (the event's database " + eventDB + " is not touched)",
		"arbiter: every tournament is complete",
		"rehearsal: 3 simulated boards: 1 of protocol dgt, 2 of protocol sensorboard", // the pattern's for the table left
		"Weekend Rapid round 1 paired: 3 boards, 0 byes; results",
		"Weekend Rapid round 3 paired: 3 boards, 0 byes; results",
		"ALERTS BY KIND",
		"Weekend Rapid rounds 1-3 15m+10s (15 min, +10 s/move), PGN 900+10; the clocks after the first move: ",
		"Weekend Rapid, after 3 rounds:",
		"PTS BH/C1 BH SB",
		"tie-breaks BH/C1, BH, SB: ",
		filepath.Join(scratch, "event.zip"),
		"broadcast.push[0] " + sink.URL + "/api/broadcast/round/{round}/push (Weekend Rapid): ",
		"of rounds 1, 2, 3, answered 200 OK (not sent: a rehearsal; --push sends it)",
	} {
		assert.Contains(t, plain, want)
	}
	assert.NotContains(t, plain, "BLOCKED")
	zr, err := zip.OpenReader(filepath.Join(scratch, "event.zip"))
	require.NoError(t, err)
	trf := 0
	for _, f := range zr.File {
		if strings.HasSuffix(f.Name, ".trf") {
			trf++
		}
	}
	zr.Close()
	assert.Equal(t, 1, trf, "the tournament's TRF report is exported")

	// The games were played on the stand-ins: the assigned board on its
	// table, the DGT board among them.
	rdb, err := store.Open(filepath.Join(scratch, "rehearsal.db"), &store.Options{ReadOnly: true})
	require.NoError(t, err)
	games, err := rdb.Games()
	require.NoError(t, err)
	boards := map[string]bool{}
	for _, g := range games {
		assert.NotEmpty(t, g.Result, "game %d", g.ID)
		boards[g.BoardID] = true
		if g.BoardID == "TB-0042" {
			assert.Equal(t, 2, g.BoardNo, "the assigned board plays on its table")
		}
	}
	require.NoError(t, rdb.Close())
	assert.True(t, boards["TB-0042"], "the assigned board played: %v", boards)
	dgt := false
	for b := range boards {
		dgt = dgt || strings.HasPrefix(b, "DGT-")
	}
	assert.True(t, dgt, "a DGT board stood in for the DGT port: %v", boards)

	// Asked to, it pushes to the real endpoint and reports its answers.
	code, out = runCLI(t, "rehearse", "--config", path, "--speed", "60", "--plies", "16", "--rounds", "1", "--push", "--dir", filepath.Join(dir, "pushed"))
	require.Equal(t, exitOK, code, out)
	assert.Contains(t, out, "every tournament has played 1 round")
	assert.Positive(t, sink.count(), "pushed with --push")
	assert.Regexp(t, `broadcast.push\[0\] .* answered 200 OK ×\d+`, out)
	after, err = os.ReadFile(eventDB)
	require.NoError(t, err)
	assert.True(t, bytes.Equal(before, after), "the event's database was touched")
}

// A configuration whose ports hold fewer boards than a round has games
// (one board for three tables) rehearses to its end: the games on no
// board get their results as the arbiter enters them from the
// scoresheets, once the round's games on boards are over, and the report
// says so, round by round. The rehearsal waited for them for ever.
func TestRehearseFewerBoardsThanTables(t *testing.T) {
	if testing.Short() {
		t.Skip("plays an event through")
	}
	t.Parallel()
	dir := t.TempDir()
	path := filepath.Join(dir, "weekend.yaml")
	require.NoError(t, os.WriteFile(path, []byte(organiserYAML(t, dir, "0.0.0.0:8080", "boards:\n  ports:\n    - {path: /dev/ttyUSB9}\n")), 0o600))
	ctx, cancel := context.WithTimeout(t.Context(), 5*time.Minute)
	defer cancel()
	code, out := runCLIContext(t, ctx, "rehearse", "--config", path, "--speed", "60", "--plies", "12", "--dir", filepath.Join(dir, "scratch"))
	require.Equal(t, exitOK, code, out)
	plain := squeeze(out)
	assert.Contains(t, plain, "arbiter: every tournament is complete")
	assert.NotContains(t, plain, "the rehearsal stopped first")
	assert.Contains(t, plain, "rehearsal: 1 simulated board: 1 of protocol sensorboard")
	assert.Regexp(t, `rehearsal: [1-9]\d* moves played`, plain, "the game on the table was played on its board")
	assert.Contains(t, plain, "note: Weekend Rapid wants 3 boards a round and the ports hold 1: 2 games a round on no board, their results entered as an arbiter enters them from the scoresheets")
	// The board that stopped answering as the rehearsal stopped is no
	// alert an arbiter meets.
	alerts := plain[strings.Index(plain, "ALERTS BY KIND"):strings.Index(plain, "TIME CONTROLS")]
	assert.NotRegexp(t, `(?m)^link `, alerts)
	for _, round := range []string{"round 1", "round 2", "round 3"} {
		assert.Regexp(t, "Weekend Rapid "+round+" paired: 3 boards, 0 byes; results [^\n]*; 2 on no board, results entered by hand", plain)
	}
}

// yamlBlocks returns the YAML blocks of a Markdown text, dedented.
func yamlBlocks(md string) []string {
	var out []string
	for _, m := range regexp.MustCompile("(?ms)^( *)```yaml\n(.*?)^ *```").FindAllStringSubmatch(md, -1) {
		indent := len(m[1])
		var lines []string
		for _, l := range strings.Split(m[2], "\n") {
			lines = append(lines, l[min(indent, len(l)-len(strings.TrimLeft(l, " "))):])
		}
		out = append(out, strings.Join(lines, "\n"))
	}
	return out
}

// overlay returns base with the sections of part in place of its own
// ("the event's configuration plus" a README's snippet).
func overlay(t *testing.T, base, part []byte) []byte {
	t.Helper()
	var b, p map[string]any
	require.NoError(t, yaml.Unmarshal(base, &b))
	require.NoError(t, yaml.Unmarshal(part, &p))
	for k, v := range p {
		b[k] = v
	}
	out, err := yaml.Marshal(b)
	require.NoError(t, err)
	return out
}

// Every configuration shipped under configs/ and every configuration in
// the README rehearses: the README's snippets (backups, a hub, a hall)
// as an event's configuration (an organiser's, without boards) plus the
// snippet, the files it names (certificates) made for the test.
func TestRehearseShippedAndREADMEConfigs(t *testing.T) {
	if testing.Short() {
		t.Skip("rehearses every configuration")
	}
	t.Parallel()
	type cfgFile struct{ name, text string }
	var cfgs []cfgFile
	shipped, err := filepath.Glob(filepath.Join("..", "..", "configs", "*.yaml"))
	require.NoError(t, err)
	require.NotEmpty(t, shipped)
	for _, p := range shipped {
		text, err := os.ReadFile(p)
		require.NoError(t, err)
		cfgs = append(cfgs, cfgFile{"configs/" + filepath.Base(p), string(text)})
	}
	readme, err := os.ReadFile(filepath.Join("..", "..", "README.md"))
	require.NoError(t, err)
	blocks := yamlBlocks(string(readme))
	require.GreaterOrEqual(t, len(blocks), 3, "the README's backup, hub and hall snippets")
	files := t.TempDir()
	base := []byte(organiserYAML(t, files, "127.0.0.1:8080", ""))
	hash, err := bcrypt.GenerateFromPassword([]byte("secret-of-a-hall"), bcrypt.MinCost)
	require.NoError(t, err)
	hallHash := string(hash)
	for i, b := range blocks {
		// The files a snippet names are the venue's: made here.
		b = regexp.MustCompile(`/etc/arbiter/[\w.-]+`).ReplaceAllStringFunc(b, func(p string) string {
			local := filepath.Join(files, filepath.Base(p))
			require.NoError(t, os.WriteFile(local, []byte("test"), 0o600))
			return local
		})
		// A hash the README leaves out ("$2a$10$…") is the reader's own.
		b = strings.ReplaceAll(b, "$2a$10$…", hallHash)
		text := b // a whole configuration, or a snippet added to one
		if !strings.Contains(b, "tournaments:") {
			text = string(overlay(t, base, []byte(b)))
		}
		cfgs = append(cfgs, cfgFile{fmt.Sprintf("README block %d", i+1), text})
	}
	for _, c := range cfgs {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			path := filepath.Join(dir, "event.yaml")
			require.NoError(t, os.WriteFile(path, []byte(c.text), 0o600))
			code, out := runCLI(t, "rehearse", "--config", path, "--rounds", "1", "--speed", "60", "--plies", "12", "--dir", filepath.Join(dir, "scratch"))
			require.Equal(t, exitOK, code, "%s:\n%s\n%s", c.name, c.text, out)
			assert.Contains(t, out, "every tournament has played 1 round")
			assert.Contains(t, out, "STANDINGS")
			assert.NotContains(t, out, "BLOCKED")
			if regexp.MustCompile(`(?m)^federation:`).MatchString(c.text) {
				assert.Regexp(t, `note: federation \(role (hub|hall)\) left out`, out)
			}
			cfg, err := config.Load(path, nil)
			require.NoError(t, err)
			assert.NoFileExists(t, cfg.Event.Database, "the event's database is not created")
		})
	}
}
