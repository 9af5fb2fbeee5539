package preflight

import (
	"context"
	"fmt"
	"time"

	"arbiter/board"
	"arbiter/internal/config"
)

// Watch looks at the configured ports while the daemon serves the event,
// without opening them (they are the drivers'): a port that does not
// exist, that this user may not open, a pattern or a USB identity that
// finds no device, and a device on which no board has answered for
// Grace are reported; a report ends when what it said is no longer so.
// A board answering ends it too, on the daemon's side (the director's
// PortAnswered). Another program holding a port is the driver's to
// report: it alone tries the port.
type Watch struct {
	// Ports are the configured ports.
	Ports []config.Port
	// Every is how often the ports are looked at (default 1 s).
	Every time.Duration
	// Grace is how long a port that opens may stay silent before it is
	// reported (default 10 s).
	Grace time.Duration
	// Answered reports whether a board has answered on a port (a path, or
	// a pattern or USB identity's name).
	Answered func(port string) bool
	// Report reports what is wrong with a port; Fine says that what was
	// reported is no longer so.
	Report func(port, problem, advice string)
	Fine   func(port, why string)
	// Now is the time (default time.Now).
	Now func() time.Time

	// states is what the watch last said of each port.
	states map[string]*portState
}

// portState is what the watch last said of a port.
type portState struct {
	problem string    // "" when nothing is reported
	opened  time.Time // since when it may be opened without an answer
}

// Run looks at the ports until ctx ends: at once, then every Every.
func (w *Watch) Run(ctx context.Context) {
	every := w.Every
	if every <= 0 {
		every = time.Second
	}
	tick := time.NewTicker(every)
	defer tick.Stop()
	for {
		w.Step()
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
	}
}

// Step looks at every port once, and says what changed since the last
// step. Run calls it; it is not safe for concurrent use.
func (w *Watch) Step() {
	if w.states == nil {
		w.states = map[string]*portState{}
	}
	states := w.states
	now := time.Now
	if w.Now != nil {
		now = w.Now
	}
	grace := w.Grace
	if grace <= 0 {
		grace = 10 * time.Second
	}
	say := func(port, problem, advice string) {
		st := states[port]
		if st == nil {
			st = &portState{}
			states[port] = st
		}
		switch {
		case problem == st.problem:
		case problem == "":
			w.Fine(port, "the port is there and may be opened")
		default:
			w.Report(port, problem, advice)
		}
		st.problem = problem
	}
	for _, p := range w.Ports {
		name := PortName(p)
		if w.Answered(name) {
			continue // a board answered: the rest is its table's
		}
		paths, err := Devices(p)
		switch {
		case err != nil:
			say(name, err.Error(), AdviceMissing)
			continue
		case len(paths) == 0 && p.Path == "":
			what := "no device matches the pattern"
			if p.Glob == "" {
				what = "no USB serial device of this identity is plugged in"
			}
			say(name, what, AdviceMissing)
			continue
		case p.Path == "":
			say(name, "", "") // found: each device for itself
		}
		for _, path := range paths {
			if w.Answered(path) {
				continue
			}
			problem, advice := Device(path)
			st := states[path]
			if problem != "" || st == nil || st.opened.IsZero() {
				if st == nil {
					st = &portState{}
					states[path] = st
				}
				st.opened = time.Time{}
				if problem == "" {
					st.opened = now()
				}
			}
			if problem == "" && now().Sub(st.opened) >= grace {
				problem, advice = fmt.Sprintf("no board has answered on it for %v (protocol %s)", grace, protocolName(p)), AdviceSilent
			}
			say(path, problem, advice)
		}
	}
}

// protocolName is the protocol of a port.
func protocolName(p config.Port) string {
	if proto, ok := board.Lookup(p.Protocol); ok {
		return proto.Name
	}
	return p.Protocol
}
