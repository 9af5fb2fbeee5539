package preflight

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"golang.org/x/sys/unix"

	"arbiter/internal/config"
	"arbiter/store"
)

// GameBytes is what one game takes in the event's database, raw sensor
// log included: the demo's 46 games (about 60 moves each, read from our
// boards at the demo's fault rate) took 8 MB compacted and 16 MB in the
// live file, about 180 kB and 360 kB a game; this leaves room for longer
// games and slower hands (more heartbeats in the raw log).
const GameBytes = 256 << 10

// Games returns how many games the configured tournaments play: for each,
// a game per pair of players a round (a round robin has as many rounds
// as its players need), counting the players of a players_trf file.
func Games(cfg *config.Config) int {
	n := 0
	for _, t := range cfg.Tournaments {
		players := len(t.Players)
		if players == 0 && t.PlayersTRF != "" {
			players = trfPlayers(t.PlayersTRF)
		}
		rounds := t.Rounds
		switch t.System {
		case "round-robin":
			rounds = players - 1 + players%2
		case "double-round-robin":
			rounds = 2 * (players - 1 + players%2)
		}
		n += rounds * (players / 2)
	}
	return n
}

// trfPlayers counts the player records of a TRF file, 0 if it cannot be
// read (the configuration's validation says why).
func trfPlayers(path string) int {
	data, err := os.ReadFile(path)
	if err != nil {
		return 0
	}
	n := 0
	for line := range strings.SplitSeq(string(data), "\n") {
		if strings.HasPrefix(line, "001 ") {
			n++
		}
	}
	return n
}

// ExpectedSize is what the event's database is expected to grow to:
// its games at GameBytes each, and as much again for the database's own
// free pages, at least 16 MiB.
func ExpectedSize(cfg *config.Config) int64 {
	return max(16<<20, int64(Games(cfg))*GameBytes*2)
}

// Database checks the event's database: its folder is writable and its
// disk has room for the event; a file already there is an event's, and
// no daemon holds it (unless the daemon serves the event); and the backup
// folder (backup.dir), where there is one, is writable and has room for
// the copies it keeps.
func Database(_ context.Context, in Input) []Finding {
	cfg := in.Config
	path := cfg.Event.Database
	want := ExpectedSize(cfg)
	var out []Finding
	dir := filepath.Dir(path)
	if f, ok := writable(dir, "event.database", "the database's folder "+dir); !ok {
		out = append(out, f)
	} else {
		out = append(out, room("event.database", dir, want, fmt.Sprintf("%d games", Games(cfg))))
	}
	if !in.Serving {
		out = append(out, existing(path))
	}
	if cfg.Backup.Dir == "" {
		out = append(out, Finding{Item: "backup.dir", Level: OK, Text: "no automatic backups (arbiter db backup takes one at any time)"})
		return out
	}
	bdir := cfg.Backup.Dir
	probe := bdir
	if _, err := os.Stat(bdir); errors.Is(err, fs.ErrNotExist) {
		probe = filepath.Dir(bdir) // the daemon makes the folder
	}
	f, ok := writable(probe, "backup.dir", "the backup folder "+bdir)
	if !ok {
		return append(out, f)
	}
	keep := int64(max(cfg.Backup.Keep, 1))
	r := room("backup.dir", probe, want*keep, fmt.Sprintf("%d copies of the database kept, every %v", keep, cfg.Backup.Every))
	if r.Level == OK && sameDisk(dir, probe) {
		r.Level = Warning
		r.Text += "; on the same disk as the database"
		r.Advice = "A backup on the database's own disk does not survive that disk: put backup.dir on another disk or a USB stick."
	}
	return append(out, r)
}

// writable checks that a folder exists and a file can be made in it.
func writable(dir, item, what string) (Finding, bool) {
	st, err := os.Stat(dir)
	if err != nil {
		return Finding{Item: item, Level: Error, Text: fmt.Sprintf("%s: %v", what, err), Advice: "Create the folder, or give another one."}, false
	}
	if !st.IsDir() {
		return Finding{Item: item, Level: Error, Text: what + " is not a folder"}, false
	}
	f, err := os.CreateTemp(dir, ".arbiter-preflight-*")
	if err != nil {
		return Finding{Item: item, Level: Error, Text: fmt.Sprintf("%s is not writable: %v", what, err),
			Advice: "Give the daemon's user the folder (chown), or choose a folder it may write (under systemd: its StateDirectory, /var/lib/arbiter)."}, false
	}
	name := f.Name()
	f.Close()
	os.Remove(name)
	return Finding{}, true
}

// room checks the free space of the disk of dir against want bytes.
func room(item, dir string, want int64, why string) Finding {
	var st unix.Statfs_t
	if err := unix.Statfs(dir, &st); err != nil {
		return Finding{Item: item, Level: Warning, Text: fmt.Sprintf("the free space of %s cannot be read: %v", dir, err)}
	}
	free := int64(st.Bavail) * int64(st.Bsize)
	text := fmt.Sprintf("%s is writable, %s free; the event needs about %s (%s)", dir, bytesText(free), bytesText(want), why)
	switch {
	case free < want:
		return Finding{Item: item, Level: Error, Text: text, Advice: "Free some space on that disk, or give a folder on a larger one."}
	case free < 3*want:
		return Finding{Item: item, Level: Warning, Text: text + "; little room beyond it",
			Advice: "A full disk stops the moves from being stored: free some space before the event."}
	}
	return Finding{Item: item, Level: OK, Text: text}
}

// existing checks the database file, if there is one: an event's, not
// damaged, and held by no daemon.
func existing(path string) Finding {
	if _, err := os.Stat(path); errors.Is(err, fs.ErrNotExist) {
		return Finding{Item: path, Level: OK, Text: "a new event: the database is created at the first start"}
	}
	db, err := store.Open(path, &store.Options{ReadOnly: true, LockTimeout: 200 * time.Millisecond})
	switch {
	case errors.Is(err, store.ErrLocked):
		return Finding{Item: path, Level: Warning, Text: "a daemon holds the database: the event runs",
			Advice: "Run preflight before the daemon starts, or give it the running event's configuration only to check the rest."}
	case errors.Is(err, store.ErrEmpty) || errors.Is(err, store.ErrCorrupt):
		return Finding{Item: path, Level: Error, Text: err.Error(),
			Advice: "Restore the latest backup (README, \"Restoring a backup\"), or remove the file to start a new event."}
	case errors.Is(err, store.ErrForeign):
		return Finding{Item: path, Level: Error, Text: err.Error(),
			Advice: "The file is another program's: give event.database another name, or restore the event's latest backup (README, \"Restoring a backup\")."}
	case errors.Is(err, store.ErrTooNew):
		return Finding{Item: path, Level: Error, Text: err.Error(), Advice: "Run the arbiter that wrote it, or a newer one."}
	case err != nil:
		return Finding{Item: path, Level: Error, Text: err.Error()}
	}
	defer db.Close()
	tours, _ := db.Tournaments()
	games, _ := db.Games()
	return Finding{Item: path, Level: OK, Text: fmt.Sprintf("an event already there (%d tournaments, %d games): serve goes on with it", len(tours), len(games))}
}

// sameDisk reports whether two folders are on the same file system.
func sameDisk(a, b string) bool {
	sa, erra := os.Stat(a)
	sb, errb := os.Stat(b)
	if erra != nil || errb != nil {
		return false
	}
	da, oka := sa.Sys().(*syscall.Stat_t)
	db, okb := sb.Sys().(*syscall.Stat_t)
	return oka && okb && da.Dev == db.Dev
}

// bytesText writes a size for people: "12 MB", "3.4 GB".
func bytesText(n int64) string {
	const unit = 1000
	if n < unit {
		return fmt.Sprintf("%d B", n)
	}
	div, exp := int64(unit), 0
	for m := n / unit; m >= unit; m /= unit {
		div *= unit
		exp++
	}
	v := float64(n) / float64(div)
	if v >= 10 {
		return fmt.Sprintf("%.0f %cB", v, "kMGTPE"[exp])
	}
	return fmt.Sprintf("%.1f %cB", v, "kMGTPE"[exp])
}
