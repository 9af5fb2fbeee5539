package millennium

import (
	"context"
	"fmt"
	"io"
	"time"

	"go.bug.st/serial"

	"arbiter/board"
	"arbiter/hardware/eboard"
)

// DriverConfig configures the driver of ChessLink boards: the ports and
// the daemon's hooks ([eboard.Config]), and how every board is read.
type DriverConfig struct {
	eboard.Config
	Session Config
}

// New returns the driver of the ChessLink boards on cfg's ports (opened
// with [OpenSerial] unless cfg.Open says otherwise). It delivers
// board.Event values and implements board.Display.
func New(cfg DriverConfig) (*eboard.Driver, error) {
	if cfg.Open == nil {
		cfg.Open = OpenSerial
	}
	sc := cfg.Session
	return eboard.NewDriver(eboard.Protocol{Name: Protocol, Setting: sc.ReplaySetting,
		NewSession: func(port string, w eboard.Wire) eboard.Session { return NewSession(sc, port, w) }}, cfg.Config)
}

// OpenSerial opens a ChessLink board's port: USB serial (the Exclusive's
// and Performance's ChessLink module, the eONE) or a Bluetooth serial
// device, at 38400 baud. The protocol's 7 data bits with odd parity are
// sent as 8N1 with the parity bit made in software, as every open host
// does (and as Bluetooth needs); DTR is lowered.
func OpenSerial(path string) (io.ReadWriteCloser, error) {
	p, err := eboard.OpenSerial(path, serial.Mode{BaudRate: 38400, DataBits: 8, Parity: serial.NoParity, StopBits: serial.OneStopBit}, true)
	if err != nil {
		return nil, fmt.Errorf("millennium: %w", err)
	}
	return p, nil
}

// setting is how a live driver read its boards, kept with the event so
// that a replay of their raw logs reads them alike.
type setting struct {
	ScanTime    byte               `json:"scan_time,omitempty"`
	Reply       time.Duration      `json:"reply,omitempty"`
	Poll        time.Duration      `json:"poll,omitempty"`
	LinkTimeout time.Duration      `json:"link_timeout,omitempty"`
	Orientation eboard.Orientation `json:"orientation,omitempty"`
}

// ReplaySetting returns how sessions of c read their boards, for
// [board.ReplayConfig.Setting] of protocol [Protocol].
func (c Config) ReplaySetting() []byte {
	return eboard.MarshalSetting(setting{ScanTime: c.ScanTime, Reply: c.Reply, Poll: c.Poll, LinkTimeout: c.LinkTimeout, Orientation: c.Orientation})
}

// ConfigOf reads a replay's setting; a damaged one is reported through
// cfg.Bad and the defaults are used.
func ConfigOf(cfg board.ReplayConfig) Config {
	var s setting
	if !eboard.UnmarshalSetting(cfg, Protocol, &s) {
		s = setting{}
	}
	return Config{ScanTime: s.ScanTime, Reply: s.Reply, Poll: s.Poll, LinkTimeout: s.LinkTimeout, Orientation: s.Orientation}
}

// NewReplayer returns the replayer of one ChessLink board's raw log, read
// as cfg.Setting says the live driver read it.
func NewReplayer(cfg board.ReplayConfig) *eboard.Replayer {
	sc := ConfigOf(cfg)
	return eboard.NewReplayer(cfg, func(port string, w eboard.Wire) eboard.Session { return NewSession(sc, port, w) }, nil)
}

// Probe asks the port at path who it holds, within timeout: a ChessLink
// board answers its version and the id the host keeps in it (a board no
// host named is given one). It never sends anything a board of another
// kind would take for a command of its own beyond the protocol's V and R.
func Probe(ctx context.Context, path string, timeout time.Duration) (*board.Info, error) {
	return eboard.Probe(ctx, path, OpenSerial, func(port string, w eboard.Wire) eboard.Session {
		return NewSession(Config{}, port, w)
	}, timeout)
}
