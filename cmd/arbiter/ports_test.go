package main

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arbiter/director"
	"arbiter/internal/ptycable"
	"arbiter/rules"
	"arbiter/store"
)

// TestServeConfigChild is "arbiter serve --config" in a process of its
// own, for the tests that need two daemons.
func TestServeConfigChild(t *testing.T) {
	path := os.Getenv("ARBITER_SERVE_CONFIG")
	if path == "" {
		t.Skip("runs only as the child of a test")
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM) // as main
	defer stop()
	os.Exit(run(ctx, []string{"serve", "--config", path}))
}

// portAlerts returns the open alerts about ports of a daemon's database,
// by port.
func portAlerts(t *testing.T, db *store.DB) map[string]store.Alert {
	t.Helper()
	open, err := db.Alerts(true)
	require.NoError(t, err)
	out := map[string]store.Alert{}
	for _, a := range open {
		if a.Kind == director.AlertPort {
			out[a.Item] = a
		}
	}
	return out
}

// An organiser's configuration on pseudo-terminals: a board that
// answers, a port that answers nothing and a port that does not exist.
// The two ports in trouble are open alerts within seconds and reasons on
// /healthz; the missing port's alert ends when its board is plugged in
// and answers. A second daemon, with its own database and the same
// configuration, finds the ports held: it leaves the first daemon's
// board alone, and says which process holds it (issue 30: a second
// daemon took over two boards the first one was playing on).
func TestServePortsOnPTYs(t *testing.T) {
	if testing.Short() {
		t.Skip("runs two daemons on pseudo-terminals")
	}
	t.Parallel()
	dir := t.TempDir()
	chess, err := rules.New("chess", nil)
	require.NoError(t, err)
	boardA, silent, missing := filepath.Join(dir, "board-a"), filepath.Join(dir, "silent"), filepath.Join(dir, "ttyUSB9")
	simBoard(t, "TB-0042", boardA, chess.Start().View())
	m, s, err := ptycable.Open(silent) // a port nothing answers on
	require.NoError(t, err)
	t.Cleanup(func() { m.Close(); s.Close() })

	ports := fmt.Sprintf("boards:\n  scan: 200ms\n  ports:\n    - {path: %q}\n    - {path: %q}\n    - {path: %q}\n", boardA, silent, missing)
	first := organiserYAML(t, dir, "127.0.0.1:0", ports)
	firstPath := filepath.Join(dir, "first.yaml")
	require.NoError(t, os.WriteFile(firstPath, []byte(first), 0o600))

	// The first daemon, in a process of its own.
	cmd := exec.Command(os.Args[0], "-test.run=^TestServeConfigChild$", "-test.count=1")
	cmd.Env = append(os.Environ(), "ARBITER_SERVE_CONFIG="+firstPath)
	stdout, err := cmd.StdoutPipe()
	require.NoError(t, err)
	cmd.Stderr = io.Discard
	require.NoError(t, cmd.Start())
	stopped := false
	t.Cleanup(func() {
		if !stopped {
			_ = cmd.Process.Kill()
			_ = cmd.Wait()
		}
	})
	urlc := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			if m := regexp.MustCompile(`live at (http://\S+)`).FindStringSubmatch(sc.Text()); m != nil {
				urlc <- strings.Replace(m[1], "[::]", "127.0.0.1", 1)
			}
		}
	}()
	var url string
	select {
	case url = <-urlc:
	case <-time.After(30 * time.Second):
		t.Fatal("the first daemon did not come up")
	}

	// Within seconds: the missing port and the silent one are reasons on
	// /healthz; the answering board is not.
	var body string
	require.Eventually(t, func() bool {
		code, b := healthz(t, url)
		body = b
		return code == http.StatusServiceUnavailable && strings.Contains(b, "port "+missing+": does not exist") &&
			strings.Contains(b, "port "+silent+": no board has answered on it for 5s (protocol sensorboard)")
	}, 20*time.Second, 100*time.Millisecond, "the ports' trouble is not on /healthz: %s", body)
	assert.NotContains(t, body, boardA)
	require.Eventually(t, func() bool { return liveTable(t, url, "TB-0042").Health == "active" }, 10*time.Second, 50*time.Millisecond)

	// The second daemon: the same ports, its own database, in this
	// process.
	second := strings.Replace(first, filepath.Join(dir, "weekend.db"), filepath.Join(dir, "second.db"), 1)
	_, cfg2 := loadYAML(t, dir, "second.yaml", second)
	var d2 *director.Director
	started := make(chan struct{})
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	url2, _, errc := startServeWith(t, ctx, cfg2, serveOptions{started: func(d *director.Director) { d2 = d; close(started) }})
	<-started
	var held store.Alert
	require.Eventually(t, func() bool {
		held = portAlerts(t, d2.DB())[boardA]
		return held.ID != 0
	}, 20*time.Second, 50*time.Millisecond, "the second daemon does not say the port is held")
	assert.Contains(t, held.Message, fmt.Sprintf("is held by process %d", cmd.Process.Pid), "the holder is named")
	assert.Contains(t, held.Advice, "Stop the program named")
	require.Eventually(t, func() bool {
		_, body = healthz(t, url2)
		return strings.Contains(body, "port "+boardA+": serial port "+boardA) && strings.Contains(body, "port "+missing+": does not exist")
	}, 20*time.Second, 50*time.Millisecond, "the second daemon's /healthz: %s", body)
	assert.Contains(t, portAlerts(t, d2.DB()), missing)
	_, ok := d2.Table("TB-0042")
	assert.False(t, ok, "the second daemon left the first one's board alone")
	assert.Equal(t, "active", liveTable(t, url, "TB-0042").Health, "the first daemon still has its board")
	cancel()
	require.NoError(t, <-errc)

	// The missing board is plugged in: it answers, and its trouble is
	// over.
	simBoard(t, "TB-0043", missing, chess.Start().View())
	require.Eventually(t, func() bool {
		_, b := healthz(t, url)
		body = b
		return !strings.Contains(b, missing)
	}, 20*time.Second, 100*time.Millisecond, "the port's trouble did not end: %s", body)
	assert.Contains(t, body, silent, "the silent port is still in trouble")

	require.NoError(t, cmd.Process.Signal(syscall.SIGTERM))
	require.NoError(t, cmd.Wait())
	stopped = true
	db, err := store.Open(filepath.Join(dir, "weekend.db"), &store.Options{ReadOnly: true})
	require.NoError(t, err)
	defer db.Close()
	alerts := portAlerts(t, db)
	assert.Contains(t, alerts, silent)
	assert.NotContains(t, alerts, missing, "resolved when its board answered")
	assert.NotContains(t, alerts, boardA)
}
