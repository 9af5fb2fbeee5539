package certabo

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"maps"
	"time"

	"go.bug.st/serial"

	"arbiter/board"
	"arbiter/hardware/eboard"
	"arbiter/rules"
)

// DriverConfig configures the driver of Certabo boards: the ports and the
// daemon's hooks ([eboard.Config]), and how every board is read.
type DriverConfig struct {
	eboard.Config
	// Session tunes every board's session. Its Calibration, if set, is
	// what the event knew of the chips when the daemon started (from
	// [Setting.Calibration] as the daemon kept it).
	Session Config
	// Calibrated, if set, is told how the driver reads its boards
	// ([Config.ReplaySetting]) every time a board taught it new chips, so
	// that the daemon keeps it with the event: a restarted daemon knows
	// the pieces at once, and a replay reads them as the driver did.
	// It is called from a board's goroutine and must be quick.
	Calibrated func(setting []byte)
	// CalibrationFile, if set, keeps the chips learnt across the
	// daemon's runs: read by New (a file that does not exist yet is an
	// empty calibration; a damaged one is refused), and written again,
	// whole, every time a board teaches the driver new chips.
	CalibrationFile string
}

// New returns the driver of the Certabo boards on cfg's ports (opened
// with [OpenSerial] unless cfg.Open says otherwise). It delivers
// board.Event values and implements board.Display.
func New(cfg DriverConfig) (*eboard.Driver, error) {
	if cfg.Open == nil {
		cfg.Open = OpenSerial
	}
	sc := cfg.Session
	var pieces map[ID]rules.Piece
	if sc.Calibration != nil {
		pieces = sc.Calibration.snapshot()
	}
	if cfg.CalibrationFile != "" {
		kept, err := LoadCalibration(cfg.CalibrationFile)
		if err != nil {
			return nil, err
		}
		if pieces == nil {
			pieces = map[ID]rules.Piece{}
		}
		maps.Copy(pieces, kept.snapshot())
	}
	log := cfg.Logger
	if log == nil {
		log = slog.Default()
	}
	sc.Calibration = NewCalibration(pieces, func(c *Calibration) {
		if cfg.CalibrationFile != "" {
			if err := c.Save(cfg.CalibrationFile); err != nil {
				log.Error("certabo: keep the chips learnt", "err", err)
			}
		}
		if cfg.Calibrated != nil {
			cfg.Calibrated(sc.ReplaySetting())
		}
	})
	return eboard.NewDriver(eboard.Protocol{Name: Protocol, Setting: sc.ReplaySetting,
		NewSession: func(port string, w eboard.Wire) eboard.Session { return NewSession(sc, port, w) }}, cfg.Config)
}

// OpenSerial opens a Certabo board's port (its CP210x USB bridge) at
// 38400 baud, 8N1.
func OpenSerial(path string) (io.ReadWriteCloser, error) {
	p, err := eboard.OpenSerial(path, serial.Mode{BaudRate: 38400, DataBits: 8, Parity: serial.NoParity, StopBits: serial.OneStopBit}, false)
	if err != nil {
		return nil, fmt.Errorf("certabo: %w", err)
	}
	return p, nil
}

// Setting is how a live driver read its boards, kept with the event so
// that a replay of their raw logs reads them alike, and a restarted
// daemon knows the chips.
type Setting struct {
	LinkTimeout     time.Duration      `json:"link_timeout,omitempty"`
	CalibrateFrames int                `json:"calibrate_frames,omitempty"`
	Orientation     eboard.Orientation `json:"orientation,omitempty"`
	Calibration     *Calibration       `json:"calibration,omitempty"`
}

// ReplaySetting returns how sessions of c read their boards, the chips
// known included, for [board.ReplayConfig.Setting] of protocol
// [Protocol].
func (c Config) ReplaySetting() []byte {
	return eboard.MarshalSetting(Setting{LinkTimeout: c.LinkTimeout, CalibrateFrames: c.CalibrateFrames, Orientation: c.Orientation, Calibration: c.Calibration})
}

// ParseSetting reads a setting ReplaySetting wrote.
func ParseSetting(b []byte) (Config, error) {
	var s Setting
	if err := json.Unmarshal(b, &s); err != nil {
		return Config{}, fmt.Errorf("the certabo driver's setting: %w", err)
	}
	return s.config(), nil
}

// ConfigOf reads a replay's setting; a damaged one is reported through
// cfg.Bad and the defaults are used.
func ConfigOf(cfg board.ReplayConfig) Config {
	var s Setting
	if !eboard.UnmarshalSetting(cfg, Protocol, &s) {
		return Config{}
	}
	return s.config()
}

func (s Setting) config() Config {
	return Config{LinkTimeout: s.LinkTimeout, CalibrateFrames: s.CalibrateFrames, Orientation: s.Orientation, Calibration: s.Calibration}
}

// NewReplayer returns the replayer of one Certabo board's raw log, read
// as cfg.Setting says the live driver read it. Every Certabo board is
// alike: the replayer knows it from the start.
func NewReplayer(cfg board.ReplayConfig) *eboard.Replayer {
	sc := ConfigOf(cfg)
	return eboard.NewReplayer(cfg, func(port string, w eboard.Wire) eboard.Session { return NewSession(sc, port, w) }, nil)
}

// Probe listens to the port at path for timeout: a Certabo board streams
// its frames by itself, and the first whole frame says it is one (a
// CP210x bridge serves other devices too). Only the LEDs' "all off" is
// sent.
func Probe(ctx context.Context, path string, timeout time.Duration) (*board.Info, error) {
	return eboard.Probe(ctx, path, OpenSerial, func(port string, w eboard.Wire) eboard.Session {
		return NewSession(Config{}, port, w)
	}, timeout)
}
