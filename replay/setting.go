package replay

import (
	"errors"

	"arbiter/board"
	"arbiter/store"
)

// SettingKey is the database setting under which the daemon keeps how a
// protocol's driver read its boards ([board.ReplayConfig.Setting]), so
// that a replay of their raw logs reads them alike.
func SettingKey(protocol string) string {
	if protocol == "" {
		protocol = board.ProtocolSensorboard
	}
	return "replay/" + protocol
}

// Setting returns how the daemon that wrote db read the boards of
// protocol, or nil when it kept nothing (the driver's defaults).
func Setting(db *store.DB, protocol string) ([]byte, error) {
	v, err := db.Setting(SettingKey(protocol))
	if errors.Is(err, store.ErrNotFound) {
		return nil, nil
	}
	return v, err
}
