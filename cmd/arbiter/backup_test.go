package main

import (
	"context"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arbiter/store"
)

// healthz returns the status and body of /healthz.
func healthz(t *testing.T, url string) (int, string) {
	t.Helper()
	resp, err := http.Get(url + "healthz")
	require.NoError(t, err)
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	return resp.StatusCode, string(body)
}

func movesSoFar(t *testing.T, url string) bool {
	return regexp.MustCompile(`(?m)^arbiter_moves_total ([2-9]\d|\d{3,})`).MatchString(get(t, url+"metrics"))
}

// While the daemon plays, "db backup" gets a consistent copy from it, and
// automatic backups appear and are pruned; the copy restores: it checks
// clean and the daemon serves the event from it.
func TestBackupWhileServing(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the demo event twice")
	}
	t.Parallel()
	cfg := fastDemo(t, 2, 40)
	dir := t.TempDir()
	cfg.Backup.Dir = filepath.Join(dir, "auto")
	cfg.Backup.Every = time.Second
	cfg.Backup.Keep = 2
	ctx, stop := context.WithTimeout(context.Background(), 2*time.Minute)
	defer stop()
	url, _, errc := startServe(t, ctx, cfg, false)
	require.Eventually(t, func() bool { return movesSoFar(t, url) }, time.Minute, 50*time.Millisecond)

	copyPath := filepath.Join(dir, "copy.db")
	code, out := runCLI(t, "db", "backup", "--database", cfg.Event.Database, copyPath)
	require.Equal(t, exitOK, code, out)
	assert.Contains(t, out, "from the running daemon")
	code, _ = runCLI(t, "db", "backup", "--database", cfg.Event.Database, copyPath)
	assert.NotEqual(t, exitOK, code, "an existing file is not overwritten")

	// Automatic backups: written, checked, the oldest pruned.
	var autos []string
	require.Eventually(t, func() bool {
		autos, _ = filepath.Glob(filepath.Join(cfg.Backup.Dir, "*.db"))
		return len(autos) >= 2
	}, 20*time.Second, 100*time.Millisecond)
	time.Sleep(2500 * time.Millisecond) // more backups: the oldest go
	// /metrics tells a dashboard that backups are taken, and which build
	// takes them.
	metrics := get(t, url+"metrics")
	assert.Regexp(t, `(?m)^arbiter_backups_total\{result="ok"\} [1-9]`, metrics)
	assert.Regexp(t, `(?m)^arbiter_backups_total\{result="failed"\} 0$`, metrics)
	assert.Regexp(t, `(?m)^arbiter_backup_last_success_timestamp_seconds [1-9]`, metrics)
	assert.Regexp(t, `(?m)^arbiter_backup_last_size_bytes [1-9]`, metrics)
	assert.Regexp(t, `(?m)^arbiter_build_info\{built="[^"]+",goversion="go1\.[^"]+",revision="[^"]+",version="[^"]+"\} 1$`, metrics)
	fi, err := os.Stat(cfg.Event.Database + ".backup.sock")
	require.NoError(t, err)
	assert.Equal(t, os.FileMode(0o600), fi.Mode().Perm())
	stop()
	require.NoError(t, <-errc)
	// Counted once the daemon has stopped: while it runs, a backup being
	// written (its temporary file) or not yet pruned may be seen.
	autos, _ = filepath.Glob(filepath.Join(cfg.Backup.Dir, "*"))
	assert.Len(t, autos, 2, "backup.keep is 2, and no temporary file is left: %v", autos)
	_, err = os.Stat(cfg.Event.Database + ".backup.sock")
	assert.True(t, os.IsNotExist(err), "the socket is removed at the end")

	// Restore as the README says: the daemon stopped, the copy put in
	// the event file's place, checked, served.
	restored := filepath.Join(dir, "restored.db")
	data, err := os.ReadFile(copyPath)
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(restored, data, 0o600))
	code, out = runCLI(t, "db", "check", "--database", restored)
	require.Equal(t, exitOK, code, out)
	cfg.Event.Database = restored
	cfg.Backup.Dir = ""
	ctx2, stop2 := context.WithTimeout(context.Background(), 2*time.Minute)
	defer stop2()
	url, _, errc = startServe(t, ctx2, cfg, false)
	status, body := healthz(t, url)
	assert.Equal(t, http.StatusOK, status, body)
	require.Eventually(t, func() bool { return movesSoFar(t, url) }, time.Minute, 50*time.Millisecond, "play goes on from the backup")
	stop2()
	require.NoError(t, <-errc)
}

// A full disk during play: health says so, the console is alerted, no move
// is announced (or acknowledged to its board) that is not stored, and play
// resumes by itself once the disk takes writes again.
func TestDiskFullDuringPlay(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the demo event")
	}
	var mu sync.Mutex
	var db *store.DB
	cfg := fastDemo(t, 2, 60)
	ctx, stop := context.WithTimeout(context.Background(), 2*time.Minute)
	defer stop()
	url, _, errc := startServeWith(t, ctx, cfg, serveOptions{opened: func(d *store.DB) { mu.Lock(); db = d; mu.Unlock() }})
	streamCtx, cancelStream := context.WithCancel(ctx)
	defer cancelStream()
	kinds := make(chan string, 1024)
	moves := liveMoves(t, streamCtx, url, kinds)
	announced := map[[2]uint64]store.Move{}
	collect := func(d time.Duration) int {
		n := 0
		end := time.After(d)
		for {
			select {
			case m := <-moves:
				announced[[2]uint64{m.GameID, uint64(m.Ply)}] = m
				n++
			case <-end:
				return n
			}
		}
	}
	select {
	case m := <-moves:
		announced[[2]uint64{m.GameID, uint64(m.Ply)}] = m
	case <-time.After(60 * time.Second):
		t.Fatal("no moves before the fault")
	}
	collect(time.Second)

	mu.Lock()
	db.InjectWriteFault(func() error { return syscall.ENOSPC })
	mu.Unlock()
	for len(kinds) > 0 {
		<-kinds
	}
	require.Eventually(t, func() bool {
		status, body := healthz(t, url)
		return status == http.StatusServiceUnavailable && strings.Contains(body, "no space left")
	}, 20*time.Second, 50*time.Millisecond, "health does not report the full disk")
	collect(2 * time.Second)
	alerted := false
	for len(kinds) > 0 {
		if <-kinds == "alert" {
			alerted = true
		}
	}
	assert.True(t, alerted, "the console was not alerted")

	mu.Lock()
	db.InjectWriteFault(nil)
	mu.Unlock()
	require.Eventually(t, func() bool {
		status, _ := healthz(t, url)
		return status == http.StatusOK
	}, 20*time.Second, 50*time.Millisecond, "health does not recover")
	select {
	case m := <-moves:
		announced[[2]uint64{m.GameID, uint64(m.Ply)}] = m
	case <-time.After(30 * time.Second):
		t.Fatal("play did not resume")
	}
	collect(time.Second)
	stop()
	require.NoError(t, <-errc)

	check, err := store.Open(cfg.Event.Database, &store.Options{ReadOnly: true})
	require.NoError(t, err)
	defer check.Close()
	require.NoError(t, check.Check())
	for key, want := range announced {
		ms, err := check.Moves(key[0])
		require.NoError(t, err)
		require.GreaterOrEqual(t, len(ms), int(key[1]), "game %d: announced ply %d is not stored", key[0], key[1])
		assert.Equal(t, want.Notation, ms[key[1]-1].Notation)
	}
}
