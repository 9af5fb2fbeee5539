package main

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arbiter/director"
	"arbiter/rules"
	"arbiter/store"
)

// arbiter preflight on an organiser's configuration: one line per item,
// exit 3 while a port is missing, 0 once every item is ready; the
// built-in demo is ready too, its demo login a warning.
func TestPreflightCommand(t *testing.T) {
	dir := t.TempDir()
	chess, err := rules.New("chess", nil)
	require.NoError(t, err)
	board := filepath.Join(dir, "board-a")
	simBoard(t, "TB-0042", board, chess.Start().View())
	missing := filepath.Join(dir, "ttyUSB9")
	ports := fmt.Sprintf("boards:\n  ports:\n    - {path: %q}\n    - {path: %q}\n  assign:\n    - {board: TB-0042, tournament: Weekend Rapid, table: 1}\n", board, missing)
	path := filepath.Join(dir, "weekend.yaml")
	require.NoError(t, os.WriteFile(path, []byte(organiserYAML(t, dir, "0.0.0.0:8080", ports)), 0o600))

	code, out, err := serveCLI(t, "preflight", "--config", path)
	assert.Equal(t, exitConfig, code)
	assert.ErrorContains(t, err, "preflight: 1 error, 0 warnings")
	for _, want := range []string{
		"configuration " + path + ": valid",
		"ok ports " + board,
		"sensorboard: board TB-0042, firmware sim-1, 8x8, stack heights",
		"boards.assign: Weekend Rapid, table 1",
		"error ports " + missing,
		"does not exist",
		"→ Plug the board in",
		"ok database event.database",
		"the event needs about 17 MB (9 games)",
		"a new event: the database is created at the first start",
		"ok console console.users",
		"1 login (kari), every password stored as a hash, none the demo's",
	} {
		assert.Contains(t, squeeze(out), want)
	}
	assert.NoFileExists(t, filepath.Join(dir, "weekend.db"), "preflight creates nothing")

	simBoard(t, "TB-0043", missing, chess.Start().View())
	code, out, err = serveCLI(t, "preflight", "--config", path)
	assert.Equal(t, exitOK, code, "%v\n%s", err, out)
	assert.Contains(t, out, "board TB-0043")
	assert.Contains(t, out, "not in boards.assign: takes a free table of Weekend Rapid")
	assert.Contains(t, out, "preflight: ready (0 warnings)")

	code, out, err = serveCLI(t, "preflight", "--database", filepath.Join(dir, "demo.db"))
	assert.Equal(t, exitOK, code, "%v\n%s", err, out)
	assert.Contains(t, out, "the demo's simulated boards play (demo.enabled)")
	assert.Contains(t, squeeze(out), `warning console console.users[0].password`)
	assert.Contains(t, out, `has the demo password "arbiter"`)
}

// squeeze makes every run of blanks in the lines of out one space, so
// that a test need not know the columns' widths.
func squeeze(out string) string {
	lines := strings.Split(out, "\n")
	for i, l := range lines {
		lines[i] = strings.Join(strings.Fields(l), " ")
	}
	return strings.Join(lines, "\n")
}

// A check at start that finds an error (a broadcast endpoint that does
// not answer) makes an open alert and a reason on /healthz, until the
// check finds the item right again.
func TestServeChecksAtStart(t *testing.T) {
	dir := t.TempDir()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	addr := ln.Addr().String()
	require.NoError(t, ln.Close()) // nothing answers there, for now
	push := fmt.Sprintf("broadcast:\n  push:\n    - {url: \"http://%s/api/broadcast/round/AbCd1234/push\", tournament: Weekend Rapid, round: 1, token: lip_owner}\n", addr)
	_, cfg := loadYAML(t, dir, "weekend.yaml", organiserYAML(t, dir, "127.0.0.1:0", push))
	var d *director.Director
	started := make(chan struct{})
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	url, _, errc := startServeWith(t, ctx, cfg, serveOptions{recheck: 200 * time.Millisecond,
		started: func(dd *director.Director) { d = dd; close(started) }})
	<-started
	var body string
	require.Eventually(t, func() bool {
		code, b := healthz(t, url)
		body = b
		return code == http.StatusServiceUnavailable && strings.Contains(b, "broadcast.push[0]: "+addr+" does not answer")
	}, 20*time.Second, 50*time.Millisecond, "not on /healthz: %s", body)
	open, err := d.DB().Alerts(true)
	require.NoError(t, err)
	var venue []store.Alert
	for _, a := range open {
		if a.Kind == director.AlertVenue {
			venue = append(venue, a)
		}
	}
	require.Len(t, venue, 1)
	assert.Equal(t, "broadcast.push[0]", venue[0].Item)
	assert.Contains(t, venue[0].Advice, "internet connection")

	// The endpoint answers now, and accepts the token.
	ln, err = net.Listen("tcp", addr)
	require.NoError(t, err)
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/api/broadcast/my-rounds" && r.Header.Get("Authorization") == "Bearer lip_owner" {
			fmt.Fprintln(w, `{"round":{"id":"AbCd1234","name":"Round 1"},"tour":{"name":"Weekend"},"study":{"writeable":true}}`)
			return
		}
		w.WriteHeader(http.StatusOK) // the pushes
	})}
	go srv.Serve(ln)
	defer srv.Close()
	require.Eventually(t, func() bool {
		code, b := healthz(t, url)
		body = b
		return code == http.StatusOK
	}, 20*time.Second, 50*time.Millisecond, "still on /healthz: %s", body)
	open, err = d.DB().Alerts(true)
	require.NoError(t, err)
	for _, a := range open {
		assert.NotEqual(t, director.AlertVenue, a.Kind, "resolved: %s", a.Message)
	}
	cancel()
	require.NoError(t, <-errc)
}
