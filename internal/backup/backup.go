// Package backup takes consistent copies of a running event's database:
// through a unix socket beside the database, which the daemon serves and
// "arbiter db backup" uses when the daemon holds the file, and as
// automatic backups every few minutes into a folder, oldest pruned.
package backup

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	bolt "go.etcd.io/bbolt"

	"arbiter/store"
)

// SocketPath is where the daemon serving the database at dbPath listens
// for backup requests.
func SocketPath(dbPath string) string { return dbPath + ".backup.sock" }

// request is what a client sends; the daemon answers "ok SIZE\n" and SIZE
// bytes, or "error MESSAGE\n".
const request = "backup v1\n"

// Listen opens the backup socket of db (mode 0600: only the daemon's user
// may copy the event). A socket left by a daemon that died is replaced:
// the caller holds the database, so no live daemon can own it.
func Listen(db *store.DB) (net.Listener, error) {
	path := SocketPath(db.Path())
	if fi, err := os.Lstat(path); err == nil && fi.Mode()&os.ModeSocket != 0 {
		if err := os.Remove(path); err != nil {
			return nil, fmt.Errorf("backup socket: remove stale %s: %w", path, err)
		}
	}
	ln, err := net.Listen("unix", path)
	if err != nil {
		return nil, fmt.Errorf("backup socket: %w", err)
	}
	if err := os.Chmod(path, 0o600); err != nil {
		ln.Close()
		return nil, fmt.Errorf("backup socket: %w", err)
	}
	return ln, nil
}

// Serve answers backup requests on ln until ctx ends, then closes ln
// (which removes the socket file).
func Serve(ctx context.Context, ln net.Listener, db *store.DB, log *slog.Logger) {
	go func() {
		<-ctx.Done()
		ln.Close()
	}()
	for {
		conn, err := ln.Accept()
		if err != nil {
			if ctx.Err() == nil {
				log.Error("backup socket", "err", err)
			}
			return
		}
		go func() {
			defer conn.Close()
			if err := answer(conn, db); err != nil {
				log.Warn("backup request", "err", err)
				return
			}
			log.Info("backup copy sent")
		}()
	}
}

func answer(conn net.Conn, db *store.DB) error {
	_ = conn.SetReadDeadline(time.Now().Add(10 * time.Second))
	line, err := bufio.NewReader(io.LimitReader(conn, 64)).ReadString('\n')
	if err != nil || line != request {
		_, _ = io.WriteString(conn, "error unknown request\n")
		return fmt.Errorf("unknown request %q", line)
	}
	_ = conn.SetReadDeadline(time.Time{})
	w := bufio.NewWriterSize(conn, 1<<16)
	err = db.Bolt().View(func(tx *bolt.Tx) error {
		if _, err := fmt.Fprintf(w, "ok %d\n", tx.Size()); err != nil {
			return err
		}
		_, err := tx.WriteTo(w)
		return err
	})
	if err == nil {
		err = w.Flush()
	}
	return err
}

// ErrNoDaemon means no daemon answers on the socket.
var ErrNoDaemon = errors.New("no running daemon answers on the backup socket")

// Fetch asks the daemon serving dbPath for a consistent copy and writes
// it to dst atomically (a temporary file beside it, checked, synced and
// renamed); dst must not exist. Without a daemon it fails with an error
// wrapping ErrNoDaemon.
func Fetch(ctx context.Context, dbPath, dst string) error {
	if _, err := os.Stat(dst); err == nil {
		return fmt.Errorf("backup to %s: file exists", dst)
	}
	var d net.Dialer
	conn, err := d.DialContext(ctx, "unix", SocketPath(dbPath))
	if err != nil {
		return fmt.Errorf("%w (%v)", ErrNoDaemon, err)
	}
	defer conn.Close()
	if dl, ok := ctx.Deadline(); ok {
		_ = conn.SetDeadline(dl)
	}
	if _, err := io.WriteString(conn, request); err != nil {
		return fmt.Errorf("backup request: %w", err)
	}
	r := bufio.NewReaderSize(conn, 1<<16)
	head, err := r.ReadString('\n')
	if err != nil {
		return fmt.Errorf("backup answer: %w", err)
	}
	sizeText, ok := strings.CutPrefix(strings.TrimSuffix(head, "\n"), "ok ")
	if !ok {
		return fmt.Errorf("the daemon refused the backup: %s", strings.TrimSpace(head))
	}
	size, err := strconv.ParseInt(sizeText, 10, 64)
	if err != nil || size <= 0 {
		return fmt.Errorf("backup answer: bad size %q", sizeText)
	}
	return store.WriteChecked(dst, func(w io.Writer) error {
		n, err := io.Copy(w, io.LimitReader(r, size))
		if err == nil && n != size {
			err = fmt.Errorf("the copy ended after %d of %d bytes", n, size)
		}
		return err
	})
}

// Auto writes a backup of db into Dir every Every, named after the
// database and the time (event-20261125T143000Z.db), and keeps the Keep
// newest.
type Auto struct {
	DB    *store.DB
	Dir   string
	Every time.Duration
	Keep  int
	Now   func() time.Time
	Log   *slog.Logger
	// Failed is told the outcome of every backup (nil: it worked).
	Failed func(err error)
	// Metrics, when set, counts the backups.
	Metrics *Metrics
}

// Run backs up every a.Every until ctx ends. A tick taken late, in the
// second of the backup before it (whose name it would take; a loaded host
// with a backup every second), is skipped: that backup is not a second
// old.
func (a *Auto) Run(ctx context.Context) {
	t := time.NewTicker(a.Every)
	defer t.Stop()
	var last string
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			start := a.Now()
			if a.path(start) == last {
				a.Log.Debug("automatic backup skipped: the last one was taken this second", "file", last)
				continue
			}
			path, err := a.onceAt(start)
			if err != nil {
				a.Log.Error("automatic backup", "dir", a.Dir, "err", err)
			} else {
				a.Log.Info("automatic backup", "file", path)
				last = path
			}
			if a.Failed != nil {
				a.Failed(err)
			}
		}
	}
}

// Once writes one backup now and prunes old ones; it returns the file.
func (a *Auto) Once() (string, error) { return a.onceAt(a.Now()) }

// onceAt is Once, the backup named after start.
func (a *Auto) onceAt(start time.Time) (string, error) {
	path, err := a.once(start)
	a.Metrics.record(start, a.Now(), path, err)
	return path, err
}

func (a *Auto) once(start time.Time) (string, error) {
	if err := os.MkdirAll(a.Dir, 0o700); err != nil {
		return "", fmt.Errorf("backup folder: %w", err)
	}
	path := a.path(start)
	if err := a.DB.Backup(path); err != nil {
		return "", err
	}
	return path, a.prune(a.prefix())
}

// path is the file of a backup taken at t: the database's name and the
// second (event-20261125T143000Z.db).
func (a *Auto) path(t time.Time) string {
	return filepath.Join(a.Dir, a.prefix()+t.UTC().Format("20060102T150405Z")+".db")
}

func (a *Auto) prefix() string {
	return strings.TrimSuffix(filepath.Base(a.DB.Path()), filepath.Ext(a.DB.Path())) + "-"
}

// prune removes all but the Keep newest backups of this database (the
// names sort by time).
func (a *Auto) prune(prefix string) error {
	if a.Keep <= 0 {
		return nil
	}
	entries, err := os.ReadDir(a.Dir)
	if err != nil {
		return fmt.Errorf("prune backups: %w", err)
	}
	var ours []string
	for _, e := range entries {
		n := e.Name()
		if e.Type().IsRegular() && strings.HasPrefix(n, prefix) && strings.HasSuffix(n, "Z.db") {
			ours = append(ours, n)
		}
	}
	slices.Sort(ours)
	var errs []error
	for len(ours) > a.Keep {
		if err := os.Remove(filepath.Join(a.Dir, ours[0])); err != nil {
			errs = append(errs, err)
		}
		ours = ours[1:]
	}
	return errors.Join(errs...)
}
