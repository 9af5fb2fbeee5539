package director

import (
	"fmt"
	"path/filepath"
	"slices"
	"time"

	"arbiter/store"
)

// The venue's trouble: what is wrong with the configured serial ports,
// and what the checks at start found wrong with the rest (the database's
// folder, the backup folder, a broadcast endpoint). Each item in trouble
// is one open alert, brought up to date as its trouble changes, and a
// reason the daemon is not healthy, until the trouble is over: a board
// answers on the port, or the check finds the item right again.
//
// A port that does not exist, cannot be opened or answers nothing is
// reported by the daemon's watch of the configured ports
// (internal/preflight); a port its driver cannot have (another program
// holds it) by the driver, as a board event of kind board.EventError
// naming the port and no board.

// Alert kinds of the venue's trouble.
const (
	// AlertPort: a configured serial port does not exist, cannot be
	// opened, is held by another program, or answers nothing.
	AlertPort = "port"
	// AlertVenue: a check at start found a setting wrong (the database's
	// folder, the backup folder, a broadcast endpoint).
	AlertVenue = "venue"
)

// PortSource says who found a port's trouble: the driver, which has
// tried the port, knows better than a look at the device.
type PortSource uint8

// Who found a port's trouble.
const (
	// PortWatch: the daemon's look at the device (it does not exist, its
	// permissions, no board answering on it).
	PortWatch PortSource = iota + 1
	// PortDriver: the driver that tried the port (another program holds
	// it).
	PortDriver
)

// trouble is what is wrong with one item of the venue now.
type trouble struct {
	source  PortSource // for a port
	message string
	since   time.Time
}

// troubleKey names an item in trouble: the alert's kind and its item.
type troubleKey struct{ kind, item string }

// portAdvice is what to do about a port a driver cannot have.
const portAdvice = "Stop the program named (or take the port out of boards.ports): the daemon takes the port once it is free. " +
	"Another daemon of arbiter on this machine holds the ports of its own configuration: give each daemon its own boards."

// PortTrouble raises, or brings up to date, the open alert about a
// configured serial port (a device path, or a pattern or USB identity
// that finds none): message says what is wrong, advice what to do. A
// watch's report does not replace a driver's (a port another program
// holds also answers nothing). Reporting the same trouble again changes
// nothing.
func (d *Director) PortTrouble(port string, source PortSource, message, advice string) {
	d.raiseTrouble(troubleKey{AlertPort, port}, "port "+port, source, message, advice)
}

// PortFine ends the trouble the watch reported of port (it exists now,
// or may be opened now), and resolves its alert; a driver's report stays
// until a board answers.
func (d *Director) PortFine(port, why string) {
	d.portMu.Lock()
	defer d.portMu.Unlock()
	k := troubleKey{AlertPort, port}
	if tr, ok := d.troubles[k]; ok && tr.source == PortWatch {
		d.resolveLocked([]troubleKey{k}, why)
	}
}

// VenueTrouble raises, or brings up to date, the open alert about an
// item a check at start found wrong (event.database, backup.dir,
// broadcast.push[0]).
func (d *Director) VenueTrouble(item, message, advice string) {
	d.raiseTrouble(troubleKey{AlertVenue, item}, item, 0, message, advice)
}

// VenueFine ends the trouble of an item a check finds right again.
func (d *Director) VenueFine(item, why string) {
	d.portMu.Lock()
	defer d.portMu.Unlock()
	k := troubleKey{AlertVenue, item}
	if _, ok := d.troubles[k]; ok {
		d.resolveLocked([]troubleKey{k}, why)
	}
}

// raiseTrouble records the trouble of k and raises its alert, unless it
// is the same trouble, or a watch's report of a port a driver has
// reported. The alert is stored before the trouble is told (Troubles),
// under portMu.
func (d *Director) raiseTrouble(k troubleKey, where string, source PortSource, message, advice string) {
	d.portMu.Lock()
	defer d.portMu.Unlock()
	old, had := d.troubles[k]
	if had && (old.message == message || old.source == PortDriver && source == PortWatch) {
		return
	}
	since := d.wall()
	if had {
		since = old.since
	}
	d.raise(store.Alert{Kind: k.kind, Item: k.item, Where: where, Message: message, Advice: advice, At: d.wall()})
	if d.troubles == nil {
		d.troubles = map[troubleKey]trouble{}
	}
	d.troubles[k] = trouble{source: source, message: message, since: since}
	d.log.Warn("venue trouble", "item", where, "problem", message)
}

// Troubles returns what is wrong with each item of the venue in trouble
// now, as "port /dev/ttyUSB9: does not exist (since 14:02)", sorted.
func (d *Director) Troubles() []string {
	d.portMu.Lock()
	defer d.portMu.Unlock()
	var out []string
	for k, tr := range d.troubles {
		item := k.item
		if k.kind == AlertPort {
			item = "port " + item
		}
		out = append(out, fmt.Sprintf("%s: %s (since %s)", item, tr.message, tr.since.Local().Format("15:04:05")))
	}
	slices.Sort(out)
	return out
}

// PortAnswered reports whether a board has said who it is on port (a
// path, or a pattern that matches the board's path) since the director
// started.
func (d *Director) PortAnswered(port string) bool {
	d.portMu.Lock()
	defer d.portMu.Unlock()
	for p := range d.answered {
		if p == port || matches(port, p) {
			return true
		}
	}
	return false
}

// portAnswered takes a board's hello on port: the trouble of that port,
// and of a pattern that matches it, is over, and its alerts resolved.
func (d *Director) portAnswered(port string) {
	if port == "" {
		return
	}
	d.portMu.Lock()
	defer d.portMu.Unlock()
	if d.answered == nil {
		d.answered = map[string]bool{}
	}
	d.answered[port] = true
	var over []troubleKey
	for k := range d.troubles {
		if k.kind == AlertPort && (k.item == port || matches(k.item, port)) {
			over = append(over, k)
		}
	}
	if len(over) > 0 {
		d.resolveLocked(over, "a board answered on "+port)
		d.log.Info("port answers", "port", port)
	}
}

// resolveLocked ends the trouble of the items, for why: their open
// alerts are resolved, then they are no longer in trouble. Called with
// portMu held, so that Troubles (and /healthz) and the alerts agree.
func (d *Director) resolveLocked(keys []troubleKey, why string) {
	for _, k := range keys {
		delete(d.troubles, k)
	}
	open, err := d.db.Alerts(true)
	if err != nil {
		d.log.Error("read alerts", "err", err)
		return
	}
	var ids []uint64
	for _, a := range open {
		if slices.Contains(keys, troubleKey{a.Kind, a.Item}) {
			ids = append(ids, a.ID)
		}
	}
	if len(ids) == 0 {
		return
	}
	if err := d.db.ResolveAlerts(ids, &store.Action{Who: "daemon", What: "resolve-alert", Why: why,
		Data: fmt.Sprintf("%d alerts", len(ids)), At: d.wall()}); err != nil {
		d.log.Error("resolve alerts", "err", err)
		return
	}
	d.hub.Publish(Update{Kind: "alert", At: d.wall()})
}

// matches reports whether path matches pattern, a glob of
// boards.ports; a path that is no pattern matches nothing.
func matches(pattern, path string) bool {
	ok, err := filepath.Match(pattern, path)
	return err == nil && ok
}
