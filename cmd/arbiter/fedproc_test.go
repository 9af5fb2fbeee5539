package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/cookiejar"
	neturl "net/url"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"golang.org/x/crypto/bcrypt"

	"arbiter/store"
)

// The federation's tests through serve run each daemon as a process of its
// own, as an operator runs them from the README: this test binary, started
// again as "arbiter" with the arguments in ARBITER_FED_CHILD, a YAML file
// for each daemon, its log on its standard error.

// TestFedChild is a daemon a federation test started: this test binary
// running "arbiter" with the arguments in ARBITER_FED_CHILD (a JSON list),
// stopped by SIGTERM as the real one is.
func TestFedChild(t *testing.T) {
	env := os.Getenv("ARBITER_FED_CHILD")
	if env == "" {
		t.Skip("runs only as a daemon started by a federation test")
	}
	var args []string
	if err := json.Unmarshal([]byte(env), &args); err != nil {
		fmt.Fprintln(os.Stderr, "ARBITER_FED_CHILD:", err)
		os.Exit(exitUsage)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	os.Exit(run(ctx, args))
}

// fedWait is how long a federation test waits for what a daemon must do
// by itself: generous, for a loaded machine; a test that passes waits only
// as long as it takes.
const fedWait = 2 * time.Minute

// proc is a daemon running as a process of its own.
type proc struct {
	name string
	cmd  *exec.Cmd
	out  *syncBuffer // standard output: what the operator is told
	log  *syncBuffer // standard error: the log
	done chan struct{}
	code int // once done
}

// startProc runs "arbiter args..." as a process named name (for messages);
// it is killed at the end of the test if still running.
func startProc(t *testing.T, name string, args ...string) *proc {
	t.Helper()
	data, err := json.Marshal(args)
	require.NoError(t, err)
	cmd := exec.Command(os.Args[0], "-test.run=^TestFedChild$", "-test.count=1")
	cmd.Env = append(os.Environ(), "ARBITER_FED_CHILD="+string(data))
	p := &proc{name: name, cmd: cmd, out: &syncBuffer{}, log: &syncBuffer{}, done: make(chan struct{})}
	stdout, err := cmd.StdoutPipe()
	require.NoError(t, err)
	cmd.Stderr = p.log
	require.NoError(t, cmd.Start())
	copied := make(chan struct{})
	go func() {
		_, _ = io.Copy(p.out, bufio.NewReader(stdout))
		close(copied)
	}()
	go func() {
		<-copied
		_ = cmd.Wait()
		p.code = cmd.ProcessState.ExitCode()
		close(p.done)
	}()
	t.Cleanup(func() {
		select {
		case <-p.done:
		default:
			_ = cmd.Process.Kill()
			<-p.done
		}
		if t.Failed() {
			t.Logf("%s's output:\n%s\n%s's log:\n%s", name, p.out.String(), name, tail(filterLog(p.log.String()), 60))
		}
	})
	return p
}

// tail is the last n lines of s.
func tail(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}

// url waits for the daemon to serve its pages and returns their address.
func (p *proc) url(t *testing.T) string {
	t.Helper()
	var url string
	p.waitOut(t, func(out string) bool {
		m := regexp.MustCompile(`live at (http://\S+)/`).FindStringSubmatch(out)
		if m != nil {
			url = m[1]
		}
		return m != nil
	}, "%s does not serve its pages", p.name)
	return url
}

// waitOut waits for the daemon's output to satisfy ok.
func (p *proc) waitOut(t *testing.T, ok func(string) bool, msg string, args ...any) {
	t.Helper()
	p.waitFor(t, func() bool { return ok(p.out.String()) }, msg, args...)
}

// waitLog waits for a line of the daemon's log to match re, and returns
// the line.
func (p *proc) waitLog(t *testing.T, re string, msg string, args ...any) string {
	t.Helper()
	rx := regexp.MustCompile(re)
	var line string
	p.waitFor(t, func() bool {
		line = rx.FindString(p.log.String())
		return line != ""
	}, msg, args...)
	return line
}

// waitFor waits up to fedWait for ok, failing the test with msg if the
// daemon ended first or ok never held.
func (p *proc) waitFor(t *testing.T, ok func() bool, msg string, args ...any) {
	t.Helper()
	deadline := time.Now().Add(fedWait)
	for !ok() {
		select {
		case <-p.done:
			if ok() {
				return
			}
			t.Fatalf("%s ended (exit %d) before: %s", p.name, p.code, fmt.Sprintf(msg, args...))
		case <-time.After(20 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			t.Fatalf("after %v: %s", fedWait, fmt.Sprintf(msg, args...))
		}
	}
}

// exit waits for the daemon to end by itself and returns its exit code.
func (p *proc) exit(t *testing.T) int {
	t.Helper()
	select {
	case <-p.done:
		return p.code
	case <-time.After(fedWait):
		t.Fatalf("%s did not end within %v", p.name, fedWait)
		return -1
	}
}

// stop ends the daemon as Ctrl-C does and returns its exit code.
func (p *proc) stop(t *testing.T) int {
	t.Helper()
	select {
	case <-p.done:
		return p.code
	default:
	}
	require.NoError(t, p.cmd.Process.Signal(syscall.SIGTERM))
	return p.exit(t)
}

// kill ends the daemon with SIGKILL, as a crash or a pulled plug does.
func (p *proc) kill(t *testing.T) {
	t.Helper()
	_ = p.cmd.Process.Signal(syscall.SIGKILL)
	<-p.done
}

// fedDaemon is one daemon of a federated test event: the event's Swiss and
// the daemon's federation section, written as the YAML an operator writes
// from the README.
type fedDaemon struct {
	name string // "hub" or the hall's name
	dir  string // where its database, NATS store and file go
	// tournament and players are the Swiss's name and its players in
	// order (empty: the event's).
	tournament string
	players    []string
	rounds     int
	// boards are the demo's simulated boards (a hall's); plies bound a
	// game.
	boards, plies int
	autoPair      bool
	// federation is the federation section's keys, one "key: value" a
	// line.
	federation []string
}

// fedPlayers are the players of the test event's Swiss.
var fedPlayers = []string{"Player 01", "Player 02", "Player 03", "Player 04", "Player 05", "Player 06"}

// file writes the daemon's configuration and returns its path.
func (e fedDaemon) file(t *testing.T) string {
	t.Helper()
	if e.tournament == "" {
		e.tournament = "Federated Open"
	}
	if e.players == nil {
		e.players = fedPlayers
	}
	if e.rounds == 0 {
		e.rounds = 2
	}
	if e.plies == 0 {
		e.plies = 12
	}
	var b strings.Builder
	fmt.Fprintf(&b, "event: {name: Federated test, database: %q}\n", filepath.Join(e.dir, e.name+".db"))
	b.WriteString("http: {listen: \"127.0.0.1:0\"}\nlog: {level: info}\n")
	b.WriteString("console: {users: [{name: chief, password: arbiter}]}\n")
	fmt.Fprintf(&b, "demo: {enabled: %t, boards: %d, speed: 40, plies: %d, dgt: false, faults: 0}\n", e.boards > 0, e.boards, e.plies)
	fmt.Fprintf(&b, "tournaments:\n  - name: %q\n    game: chess\n    system: swiss-dutch\n    rounds: %d\n", e.tournament, e.rounds)
	fmt.Fprintf(&b, "    time_control: \"15m+10s\"\n    auto_pair: %t\n    players:\n", e.autoPair)
	for _, p := range e.players {
		fmt.Fprintf(&b, "      - {name: %q}\n", p)
	}
	b.WriteString("federation:\n")
	for _, kv := range e.federation {
		fmt.Fprintf(&b, "  %s\n", kv)
	}
	require.NoError(t, os.MkdirAll(e.dir, 0o700))
	path := filepath.Join(e.dir, e.name+".yaml")
	require.NoError(t, os.WriteFile(path, []byte(b.String()), 0o600))
	return path
}

// fedHub is the hub of a test event in dir, its leaf port at leaf, for
// halls each with its password "secret-of-<hall>" (stored as its bcrypt
// hash).
func fedHub(t *testing.T, dir, leaf string, halls ...string) fedDaemon {
	t.Helper()
	fed := []string{"role: hub", "listen: " + freeAddr(t), fmt.Sprintf("store_dir: %q", filepath.Join(dir, "nats-hub")),
		"leaf_listen: " + leaf, "halls: [" + strings.Join(halls, ", ") + "]", "hall_passwords:"}
	for _, h := range halls {
		hash, err := bcrypt.GenerateFromPassword([]byte("secret-of-"+h), bcrypt.MinCost)
		require.NoError(t, err)
		fed = append(fed, fmt.Sprintf("  %s: %q", h, hash))
	}
	return fedDaemon{name: "hub", dir: dir, autoPair: true, federation: fed}
}

// fedHall is hall h of a test event in dir, linked to the hub's leaf port
// at leaf with its password, playing boards boards from first.
func fedHall(t *testing.T, dir, h, leaf string, first, boards int) fedDaemon {
	t.Helper()
	return fedDaemon{name: h, dir: dir, boards: boards, autoPair: true, federation: []string{"role: hall", "hall: " + h,
		"listen: " + freeAddr(t), fmt.Sprintf("store_dir: %q", filepath.Join(dir, "nats-"+h)),
		fmt.Sprintf("hub_url: %q", hallURL(h, leaf)), fmt.Sprintf("first_board: %d", first)}}
}

// serveProc starts "arbiter serve --config" with the daemon's file.
func serveProc(t *testing.T, e fedDaemon, flags ...string) *proc {
	t.Helper()
	return startProc(t, e.name, append([]string{"serve", "--config", e.file(t)}, flags...)...)
}

// waitListening waits for something to listen at addr (a hub's leaf
// port), so that a hall started next links at once rather than after the
// NATS server's back-off.
func waitListening(t *testing.T, p *proc, addr string) {
	t.Helper()
	p.waitFor(t, func() bool {
		c, err := net.DialTimeout("tcp", addr, time.Second)
		if err == nil {
			c.Close()
		}
		return err == nil
	}, "nothing listens at %s", addr)
}

// fedConsole logs in to the console of the daemon at url as the test event's
// arbiter, and returns the client that holds the session.
func fedConsole(t *testing.T, url string) *http.Client {
	t.Helper()
	jar, err := cookiejar.New(nil)
	require.NoError(t, err)
	c := &http.Client{Jar: jar, Timeout: 30 * time.Second}
	resp, err := c.Get(url + "/console/login")
	require.NoError(t, err)
	resp.Body.Close()
	u, err := neturl.Parse(url + "/console/login")
	require.NoError(t, err)
	var csrf string
	for _, k := range jar.Cookies(u) {
		if k.Name == "arbiter_login" {
			csrf = k.Value
		}
	}
	require.NotEmpty(t, csrf, "the login form's cookie")
	resp, err = c.PostForm(url+"/console/login", neturl.Values{"name": {"chief"}, "password": {"arbiter"}, "csrf": {csrf}})
	require.NoError(t, err)
	resp.Body.Close()
	require.Equal(t, http.StatusOK, resp.StatusCode, "login")
	return c
}

// waitAlert waits for an open alert of the daemon at url whose message
// holds all of says, and returns it.
func (p *proc) waitAlert(t *testing.T, c *http.Client, url string, says ...string) store.Alert {
	t.Helper()
	var found store.Alert
	var last []store.Alert
	p.waitFor(t, func() bool {
		resp, err := c.Get(url + "/api/v1/console/alerts")
		if err != nil {
			return false
		}
		defer resp.Body.Close()
		if json.NewDecoder(resp.Body).Decode(&last) != nil {
			return false
		}
		for _, a := range last {
			if containsAll(a.Message, says) {
				found = a
				return true
			}
		}
		return false
	}, "%s has no open alert saying %q (%d open)", p.name, says, len(last))
	return found
}

// waitUnhealthy waits for the daemon's /healthz to answer 503 with a
// reason that holds all of says.
func (p *proc) waitUnhealthy(t *testing.T, url string, says ...string) string {
	t.Helper()
	var body string
	p.waitFor(t, func() bool {
		code, b := healthz(t, url+"/")
		body = b
		return code == http.StatusServiceUnavailable && containsAll(b, says)
	}, "%s's /healthz does not say %q (last: %s)", p.name, says, body)
	return body
}

func containsAll(s string, subs []string) bool {
	for _, sub := range subs {
		if !strings.Contains(s, sub) {
			return false
		}
	}
	return true
}

// filterLog leaves out of a daemon's log the lines of a link that fails
// again every second, but for the first and last of each.
func filterLog(log string) string {
	var out []string
	repeats := map[string]int{}
	lines := strings.Split(log, "\n")
	key := func(line string) string {
		_, msg, _ := strings.Cut(line, " level=")
		return regexp.MustCompile(`lid:\d+|attempt \d+|\d+\.\d+\.\d+\.\d+:\d+`).ReplaceAllString(msg, "")
	}
	for _, line := range lines {
		repeats[key(line)]++
	}
	seen := map[string]int{}
	for _, line := range lines {
		k := key(line)
		seen[k]++
		if n := repeats[k]; n > 2 && seen[k] > 1 && seen[k] < n {
			continue
		}
		out = append(out, line)
	}
	return strings.Join(out, "\n")
}
