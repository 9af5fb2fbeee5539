package eboard

import (
	"encoding/json"
	"fmt"

	"arbiter/board"
)

// MarshalSetting writes how a driver reads its boards (a struct of plain
// fields) for the event's database ([Driver.ReplaySetting]).
func MarshalSetting(v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		panic(fmt.Sprintf("eboard: a driver's setting %T does not marshal: %v", v, err)) // plain fields: cannot happen
	}
	return b
}

// UnmarshalSetting reads a replay's setting ([board.ReplayConfig.Setting])
// into v and reports whether it did: a damaged one is reported through
// cfg.Bad, naming the protocol, and leaves v alone (the defaults); none
// at all is no damage.
func UnmarshalSetting(cfg board.ReplayConfig, protocol string, v any) bool {
	if len(cfg.Setting) == 0 {
		return false
	}
	if err := json.Unmarshal(cfg.Setting, v); err != nil {
		if cfg.Bad != nil {
			cfg.Bad(0, 0, fmt.Errorf("the %s driver's setting %q: %w; replayed with the defaults", protocol, cfg.Setting, err))
		}
		return false
	}
	return true
}
