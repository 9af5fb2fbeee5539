package driver

import (
	"fmt"
	"strconv"
	"time"

	"arbiter/board"
	"arbiter/hardware/dgt"
)

// The package registers two protocols with the board registry: single
// DGT e-boards ([Protocol]) and lines of DGT e-boards in bus mode
// ([BusProtocol]). They share the settings of boards.dgt ([Settings]);
// a bus line's entry of boards.ports may list its boards' addresses
// ([BusPort]). Neither finds its boards by USB identity: the DGT protocol
// gives none, so a port names a path or a glob.
func init() {
	settings := func() board.Settings { return &Settings{} }
	board.Register(board.Protocol{
		Name:      Protocol,
		Title:     "a DGT e-board",
		Section:   "dgt",
		Settings:  settings,
		CheckPort: checkPort,
		Start:     startSingle,
		Replayer:  func(cfg board.ReplayConfig) board.Replayer { return newBoardReplayer(cfg) },
		Probe:     probeSingle,
		Simulate:  simulateSingle,
	})
	board.Register(board.Protocol{
		Name:      BusProtocol,
		Title:     "a line of DGT e-boards in bus mode",
		Section:   "dgt",
		Settings:  settings,
		PortKeys:  func() board.PortSettings { return &BusPort{} },
		CheckPort: checkPort,
		Start:     startBus,
		Replayer:  func(cfg board.ReplayConfig) board.Replayer { return NewBusReplayer(settingOf(cfg).bus(), cfg) },
		Probe:     probeBus,
		Simulate:  simulateBus,
	})
}

// Settings are the section boards.dgt of both DGT protocols.
type Settings struct {
	// WhiteRight seats White at the clock's right display (default: the
	// left one).
	WhiteRight bool `mapstructure:"white_right"`
	// Settle is how long a board's field updates must be quiet before its
	// position is taken (0: 250 ms, DGT's USB scan time; Bluetooth boards
	// scan at half speed and want 500 ms or more).
	Settle time.Duration `mapstructure:"settle"`
	// BusPoll is how often every board of a bus line (protocol dgt-bus)
	// is asked for its changes (0: 2 s, DGT's "every few seconds").
	BusPoll time.Duration `mapstructure:"bus_poll"`
}

// Check implements [board.Settings].
func (s *Settings) Check() []board.KeyProblem {
	var ps []board.KeyProblem
	if s.Settle < 0 || s.Settle > 5*time.Second {
		ps = append(ps, board.KeyProblem{Key: "settle", Value: s.Settle.String(), Why: "must be between 0 and 5s"})
	}
	if p := s.BusPoll; p != 0 && (p < 50*time.Millisecond || p > 30*time.Second) {
		ps = append(ps, board.KeyProblem{Key: "bus_poll", Value: p.String(), Why: "must be 0 (2s) or between 50ms and 30s"})
	}
	return ps
}

// settingsOf returns the DGT settings of a setup (the defaults without).
func settingsOf(s board.Settings) Settings {
	if s, ok := s.(*Settings); ok {
		return *s
	}
	return Settings{}
}

// MaxBusAddress is the highest DGT bus address (14 bits); 0 addresses
// every board and is no board's own.
const MaxBusAddress = 1<<14 - 1

// BusPort is a bus line's own key of its boards.ports[] entry.
type BusPort struct {
	// Addresses are the bus addresses of the boards expected on the line
	// (1 to MaxBusAddress); the boards not listed that answer DGT's ping
	// join too.
	Addresses []int `mapstructure:"addresses"`
}

// Boards implements [board.BoardCounter]: a line holds the boards it
// lists (and any others that answer the ping).
func (p *BusPort) Boards() int { return len(p.Addresses) }

// Check implements [board.PortSettings]: only a dgt-bus line has bus
// addresses, each a board's own address, none given twice.
func (p *BusPort) Check(protocol string) []board.KeyProblem {
	if len(p.Addresses) == 0 {
		return nil
	}
	if protocol != BusProtocol {
		return []board.KeyProblem{{Key: "addresses", Value: fmt.Sprint(p.Addresses),
			Why: "only a line of DGT boards in bus mode (protocol: " + BusProtocol + ") has bus addresses"}}
	}
	var ps []board.KeyProblem
	first := map[int]int{}
	for j, a := range p.Addresses {
		k := fmt.Sprintf("addresses[%d]", j)
		switch prev, seen := first[a]; {
		case a < 1 || a > MaxBusAddress:
			ps = append(ps, board.KeyProblem{Key: k, Value: strconv.Itoa(a), Why: fmt.Sprintf("a bus address is between 1 and %d", MaxBusAddress)})
		case seen:
			ps = append(ps, board.KeyProblem{Key: k, Value: strconv.Itoa(a), Why: fmt.Sprintf("given twice (addresses[%d] and [%d])", prev, j)})
		default:
			first[a] = j
		}
	}
	return ps
}

// checkPort refuses a DGT port found by USB identity.
func checkPort(p board.Port) []board.KeyProblem {
	if p.USB != (board.USB{}) {
		return []board.KeyProblem{{Key: "usb", Value: fmt.Sprintf("%+v", p.USB), Why: "a DGT board is found by path or glob"}}
	}
	return nil
}

// raw returns a driver's raw-log callback writing through s.Raw, or nil.
func raw(s board.Setup) func(string, board.Record) {
	if s.Raw == nil {
		return nil
	}
	return func(id string, r board.Record) { s.Raw(id, r) }
}

// startSingle makes the driver of the DGT boards on the ports of s.
func startSingle(s board.Setup) (board.Driver, error) {
	set := settingsOf(s.Settings)
	cfg := Config{Scan: s.Scan, Session: dgt.Config{Settle: set.Settle, WhiteRight: set.WhiteRight},
		Now: s.Now, Handler: s.Handler, Raw: raw(s), Logger: s.Logger}
	for _, p := range s.Ports {
		if p.Path != "" {
			cfg.Paths = append(cfg.Paths, p.Path)
		} else {
			cfg.Globs = append(cfg.Globs, p.Glob)
		}
	}
	d, err := New(cfg)
	if err != nil {
		return nil, err
	}
	return d, nil
}

// startBus makes the driver of the bus lines on the ports of s.
func startBus(s board.Setup) (board.Driver, error) {
	set := settingsOf(s.Settings)
	cfg := BusConfig{Scan: s.Scan, Poll: set.BusPoll, WhiteRight: set.WhiteRight,
		Now: s.Now, Handler: s.Handler, Raw: raw(s), Logger: s.Logger}
	for _, p := range s.Ports {
		l := Line{Path: p.Path, Glob: p.Glob}
		if k, ok := p.Keys.(*BusPort); ok {
			for _, a := range k.Addresses {
				l.Addresses = append(l.Addresses, uint16(a))
			}
		}
		cfg.Lines = append(cfg.Lines, l)
	}
	b, err := NewBus(cfg)
	if err != nil {
		return nil, err
	}
	return b, nil
}
