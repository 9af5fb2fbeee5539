// Package preflight checks a venue before (and while) an event runs on
// it: what the configuration names must be there and work, and "arbiter
// preflight" says item by item what it found, as "nginx -t" does for a
// web server. The configuration's own validation comes first
// (internal/config); these checks look at the world it names:
//
//   - each configured serial port ([Ports]): it exists, this user may
//     open it (the dialout group and the udev rule), no other program
//     holds it, a board answers the handshake of its protocol (through
//     the board registry: its id, firmware and what it senses), and
//     where boards.assign sends it;
//   - the event's database ([Database]): its folder is writable, the
//     disk has room for the event, the file (if there) is an event's
//     and no daemon holds it; the backup folder likewise;
//   - the broadcast pushes ([Broadcast]): each endpoint answers and
//     accepts its token, without anything being published.
//
// The checks are functions of an [Input] returning [Finding]s, one a
// line; the daemon's command line lists them in order ([Check]), so that
// another check is one more function. While the daemon serves the event
// ([Input.Serving]), the ports are its drivers' and are not opened here:
// [Watch] looks at them instead, every few seconds, and reports a port
// that does not exist, cannot be opened or answers nothing.
package preflight

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"strings"
	"text/tabwriter"
	"time"

	"arbiter/internal/config"
)

// Level says how a finding bears on the event.
type Level uint8

// Levels of a finding.
const (
	// OK: the item is ready.
	OK Level = iota
	// Warning: the event can run, but the item deserves a look.
	Warning
	// Error: the event cannot run as configured until the item is put
	// right.
	Error
)

func (l Level) String() string {
	switch l {
	case OK:
		return "ok"
	case Warning:
		return "warning"
	case Error:
		return "error"
	}
	return fmt.Sprintf("level(%d)", uint8(l))
}

// Finding is one line of a preflight: an item (a port, the database, a
// push), what was found, and for a warning or an error what to do.
type Finding struct {
	// Check names the check that found it ("ports", "database").
	Check string
	// Item names what was checked, as the configuration names it
	// ("/dev/ttyUSB0", "event.database", "broadcast.push[0]").
	Item  string
	Level Level
	// Text says what was found.
	Text string
	// Advice says what to do about a warning or an error.
	Advice string
}

func (f Finding) String() string {
	s := fmt.Sprintf("%s %s %s: %s", f.Level, f.Check, f.Item, f.Text)
	if f.Advice != "" {
		s += " (" + f.Advice + ")"
	}
	return s
}

// Input is what the checks look at.
type Input struct {
	// Config is the validated configuration.
	Config *config.Config
	// Serving says the daemon runs the event: its drivers hold the ports
	// (which are not opened here) and it holds the database.
	Serving bool
	// Timeout bounds each port's handshake and each request to an
	// endpoint (default 3 s).
	Timeout time.Duration
	// Client sends the requests to broadcast endpoints (default: a client
	// with Timeout).
	Client *http.Client
}

func (in Input) timeout() time.Duration {
	if in.Timeout > 0 {
		return in.Timeout
	}
	return 3 * time.Second
}

func (in Input) client() *http.Client {
	if in.Client != nil {
		return in.Client
	}
	return &http.Client{Timeout: in.timeout()}
}

// Check is one check: its name, and the function that looks.
type Check struct {
	Name string
	Run  func(ctx context.Context, in Input) []Finding
}

// Run runs the checks in order and returns their findings, each with its
// check's name.
func Run(ctx context.Context, in Input, checks []Check) []Finding {
	var out []Finding
	for _, c := range checks {
		for _, f := range c.Run(ctx, in) {
			if f.Check == "" {
				f.Check = c.Name
			}
			out = append(out, f)
		}
	}
	return out
}

// Worst returns the highest level among fs (OK for none).
func Worst(fs []Finding) Level {
	worst := OK
	for _, f := range fs {
		worst = max(worst, f.Level)
	}
	return worst
}

// Write writes the findings one a line, aligned: level, check, item,
// what was found and, on the next line, what to do.
func Write(w io.Writer, fs []Finding) error {
	tw := tabwriter.NewWriter(w, 2, 4, 2, ' ', 0)
	for _, f := range fs {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", f.Level, f.Check, f.Item, oneLine(f.Text))
		if f.Advice != "" && f.Level != OK {
			fmt.Fprintf(tw, "\t\t\t→ %s\n", oneLine(f.Advice))
		}
	}
	return tw.Flush()
}

// oneLine keeps a text on its line.
func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }
