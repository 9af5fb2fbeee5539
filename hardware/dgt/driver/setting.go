package driver

import (
	"encoding/json"
	"fmt"
	"time"

	"arbiter/board"
	"arbiter/hardware/dgt"
)

// setting is how a live driver read its DGT boards, kept with the event
// ([Config.ReplaySetting], [BusConfig.ReplaySetting]) so that a replay
// of their raw logs ([board.ReplayConfig.Setting]) reads them alike: a
// replay settled at another time, or with White at the other display,
// reads other moves.
type setting struct {
	Settle     time.Duration `json:"settle,omitempty"`
	WhiteRight bool          `json:"white_right,omitempty"`
	Poll       time.Duration `json:"poll,omitempty"`
	Timeout    time.Duration `json:"timeout,omitempty"`
	Tries      int           `json:"tries,omitempty"`
}

// ReplaySetting returns how the driver reads its boards, for
// [board.ReplayConfig.Setting] of protocol [Protocol].
func (c Config) ReplaySetting() []byte {
	return mustJSON(setting{Settle: c.Session.Settle, WhiteRight: c.Session.WhiteRight})
}

// ReplaySetting returns how the bus driver reads its boards, for
// [board.ReplayConfig.Setting] of protocol [BusProtocol].
func (c BusConfig) ReplaySetting() []byte {
	return mustJSON(setting{WhiteRight: c.WhiteRight, Poll: c.Poll, Timeout: c.Bus.Timeout, Tries: c.Bus.Tries})
}

// ReplaySetting returns how the driver reads its boards
// ([Config.ReplaySetting]).
func (d *Driver) ReplaySetting() []byte { return d.cfg.ReplaySetting() }

// ReplaySetting returns how the bus driver reads its boards
// ([BusConfig.ReplaySetting]).
func (b *Bus) ReplaySetting() []byte { return b.cfg.ReplaySetting() }

func mustJSON(s setting) []byte {
	b, err := json.Marshal(s)
	if err != nil {
		panic(err) // plain fields: cannot happen
	}
	return b
}

// settingOf reads a replay's setting; a damaged one is reported through
// cfg.Bad, and the defaults are used.
func settingOf(cfg board.ReplayConfig) setting {
	var s setting
	if len(cfg.Setting) == 0 {
		return s
	}
	if err := json.Unmarshal(cfg.Setting, &s); err != nil {
		if cfg.Bad != nil {
			cfg.Bad(0, 0, fmt.Errorf("the DGT driver's setting %q: %w; replayed with the defaults", cfg.Setting, err))
		}
		return setting{}
	}
	return s
}

func (s setting) session() dgt.Config { return dgt.Config{Settle: s.Settle, WhiteRight: s.WhiteRight} }

func (s setting) bus() BusConfig {
	return BusConfig{Poll: s.Poll, WhiteRight: s.WhiteRight, Bus: dgt.BusConfig{Timeout: s.Timeout, Tries: s.Tries}}
}
