package board

import (
	"cmp"
	"context"
	"fmt"
	"log/slog"
	"reflect"
	"slices"
	"sync"
	"time"
)

// Protocol is a board protocol as its package registers it ([Register]):
// everything the daemon needs to configure, run, replay, probe and
// simulate the protocol's boards, so that nothing above this package
// names a protocol. Name, Title, Start and Replayer are required; the
// rest is optional.
type Protocol struct {
	// Name is the protocol's name in configurations
	// (boards.ports[].protocol) and in the raw log ([Info.Protocol]).
	Name string
	// Title says in a few words what one port of the protocol holds, for
	// listings and messages ("a DGT e-board").
	Title string

	// Section is the key under boards of the protocol's own section of
	// settings (boards.dgt); empty, its keys are keys of boards itself
	// (boards.baud). Two protocols of one package may share a section:
	// they give the same Section and Settings of the same type, and are
	// given the same value.
	Section string
	// Settings returns the protocol's settings with their defaults: a
	// pointer to a struct whose fields, tagged `mapstructure:"key"`, are
	// the section's keys. The configuration decodes the file's section
	// onto it (a key it does not list is refused with the nearest known
	// one), and its Check is validated with the rest of the
	// configuration. Nil: the protocol has no settings.
	Settings func() Settings
	// PortKeys returns an empty value of the protocol's own keys of a
	// boards.ports[] entry (a DGT bus line's addresses), decoded like
	// Settings from every entry. Nil: a port names only its protocol and
	// where it is.
	PortKeys func() PortSettings
	// CheckPort checks a boards.ports[] entry of the protocol beyond its
	// keys (a DGT board cannot be found by USB identity); nil accepts
	// every entry the configuration accepts.
	CheckPort func(Port) []KeyProblem

	// Start makes the protocol's driver for the ports that name it; the
	// daemon then runs it ([Driver.Run]) and sends it what the boards
	// show. An error means the setup cannot run (a bad pattern).
	Start func(Setup) (Driver, error)
	// Replayer returns a fresh replayer of one board's raw log
	// ([NewReplayer]): records written under Name by Setup.Raw.
	Replayer func(ReplayConfig) Replayer
	// Probe opens the serial port at path, does the protocol's handshake
	// and says who answered: one board, or each board of a bus line. An
	// error says why none did (the port cannot be opened, no answer
	// within cfg.Timeout). Nil: the protocol cannot be probed.
	Probe func(ctx context.Context, path string, cfg ProbeConfig) ([]Info, error)
	// Simulate makes a simulated board of the protocol on a
	// pseudo-terminal, for the demo and rehearsals: the daemon reads it
	// through its Port as a real board, and simulated people play on it
	// ([Simulated]). Nil: the protocol has no simulator.
	Simulate func(SimConfig) (Simulated, error)
}

// KeyProblem is one thing wrong with a protocol's settings: the key (from
// the section, or the port entry: "settle", "addresses[1]"), the value as
// written, and why it is refused.
type KeyProblem struct {
	Key, Value, Why string
}

// Settings are a protocol's section of settings ([Protocol.Settings]).
type Settings interface {
	// Check returns every problem of the settings.
	Check() []KeyProblem
}

// PortSettings are a protocol's own keys of a port entry
// ([Protocol.PortKeys]).
type PortSettings interface {
	// Check returns every problem of the keys on an entry of protocol,
	// which may be another protocol's: such keys belong only to the
	// protocol that defines them, and Check says so when they are set
	// on another's port.
	Check(protocol string) []KeyProblem
}

// BoardCounter is implemented by the keys of a port entry that say how
// many boards the port holds, where that is more than one and known in
// advance (a DGT bus line's listed addresses): rehearsals put that many
// simulated boards behind the port.
type BoardCounter interface {
	// Boards returns how many boards the port holds; 0 when the keys do
	// not say.
	Boards() int
}

// BoardsOf returns how many boards a port entry holds, as far as the
// entry says: its keys' count ([BoardCounter]), else 1 for a path; 0 for
// a pattern or a USB identity, which find as many boards as are plugged
// in.
func BoardsOf(p Port) int {
	if c, ok := p.Keys.(BoardCounter); ok {
		if n := c.Boards(); n > 0 {
			return n
		}
	}
	if p.Path != "" {
		return 1
	}
	return 0
}

// USB identifies a USB serial device; empty fields match anything.
type USB struct {
	VID, PID, Serial string
}

// Port is one boards.ports[] entry: where boards of its protocol are
// found (exactly one of Path, Glob or USB), and its protocol's own keys.
type Port struct {
	Path string // a device, e.g. /dev/serial/by-id/usb-...
	Glob string // a pattern for filepath.Glob, e.g. /dev/ttyACM*
	USB  USB
	// Keys are the protocol's own keys of the entry ([Protocol.PortKeys]),
	// nil for a protocol without any.
	Keys PortSettings
}

// Setup is what a protocol's driver is started with ([Protocol.Start]).
type Setup struct {
	// Ports are the entries of boards.ports that name the protocol.
	Ports []Port
	// Settings are the protocol's settings ([Protocol.Settings]), with the
	// defaults where the configuration gives nothing; nil without.
	Settings Settings
	// Scan is how often patterns are read again and failed ports retried
	// (boards.scan).
	Scan time.Duration
	// Now is the host's monotonic clock: every event's instant comes from
	// it.
	Now func() time.Duration
	// Handler receives every event, from the board's goroutine.
	Handler func(Event)
	// Raw, if set, appends one record of a board's raw log under the
	// protocol's name and returns its number (0: none), which the events
	// the record causes carry as RawSeq. It is called from the port's
	// goroutine, is quick and does not call the driver; r.Data is valid
	// only during the call.
	Raw func(board string, r Record) uint64
	// Logger receives the driver's diagnostics.
	Logger *slog.Logger
}

// Driver is a protocol's running driver: it delivers the events of its
// boards to [Setup.Handler] and shows the daemon's messages on them. A
// driver whose boards keep their own log implements [Recaller] too. Its
// methods are safe for concurrent use.
type Driver interface {
	Display
	// Run runs the driver until ctx ends.
	Run(ctx context.Context) error
	// Owns reports whether the driver has met the board with id.
	Owns(board string) bool
	// ReplaySetting returns how the driver reads its boards, serialised
	// for the event's database, so that a replay reads their raw logs
	// alike ([ReplayConfig.Setting]); nil when it reads them as its
	// replayer does by default.
	ReplaySetting() []byte
}

// ProbeConfig tunes a [Protocol.Probe].
type ProbeConfig struct {
	// Timeout bounds the wait for the handshake.
	Timeout time.Duration
	// Settings are the protocol's settings (its serial speed, for one),
	// nil for its defaults.
	Settings Settings
}

var protocols = struct {
	sync.RWMutex
	m map[string]Protocol
}{m: map[string]Protocol{}}

// Register makes a board protocol known to the daemon: its package calls
// it from init, and a program gets the protocol by importing the package.
// It panics on a protocol without a name, a title, a driver or a
// replayer, on a name registered twice, and on a shared section whose
// settings differ in type.
func Register(p Protocol) {
	if p.Name == "" || p.Title == "" || p.Start == nil || p.Replayer == nil {
		panic(fmt.Sprintf("board: protocol %q registered without its name, title, driver or replayer", p.Name))
	}
	protocols.Lock()
	defer protocols.Unlock()
	if _, dup := protocols.m[p.Name]; dup {
		panic(fmt.Sprintf("board: protocol %q registered twice", p.Name))
	}
	if p.Settings != nil {
		for _, q := range protocols.m {
			if q.Settings != nil && q.Section == p.Section &&
				reflect.TypeOf(q.Settings()) != reflect.TypeOf(p.Settings()) {
				panic(fmt.Sprintf("board: protocols %q and %q share section %q with settings of types %T and %T",
					q.Name, p.Name, p.Section, q.Settings(), p.Settings()))
			}
		}
	}
	protocols.m[p.Name] = p
}

// Lookup returns the registered protocol of that name; an empty name is
// [ProtocolSensorboard], the protocol of a port that names none.
func Lookup(name string) (Protocol, bool) {
	if name == "" {
		name = ProtocolSensorboard
	}
	protocols.RLock()
	defer protocols.RUnlock()
	p, ok := protocols.m[name]
	return p, ok
}

// Protocols returns the registered protocols: [ProtocolSensorboard], the
// default, first, then the others by name.
func Protocols() []Protocol {
	protocols.RLock()
	out := make([]Protocol, 0, len(protocols.m))
	for _, p := range protocols.m {
		out = append(out, p)
	}
	protocols.RUnlock()
	slices.SortFunc(out, func(a, b Protocol) int {
		if (a.Name == ProtocolSensorboard) != (b.Name == ProtocolSensorboard) {
			if a.Name == ProtocolSensorboard {
				return -1
			}
			return 1
		}
		return cmp.Compare(a.Name, b.Name)
	})
	return out
}

// ProtocolNames returns the names of [Protocols], in their order.
func ProtocolNames() []string {
	ps := Protocols()
	out := make([]string, len(ps))
	for i, p := range ps {
		out[i] = p.Name
	}
	return out
}
