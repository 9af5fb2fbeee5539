package driver

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arbiter/board"
	"arbiter/hardware/dgt"
)

// A driver's setting, kept with the event, gives the replay the live
// session and bus configuration; none gives the defaults, and a damaged
// one is reported and gives the defaults.
func TestReplaySetting(t *testing.T) {
	single := Config{Session: dgt.Config{Settle: 100 * time.Millisecond, WhiteRight: true}}
	s := settingOf(board.ReplayConfig{Setting: single.ReplaySetting()})
	assert.Equal(t, dgt.Config{Settle: 100 * time.Millisecond, WhiteRight: true}, s.session())

	bus := BusConfig{Poll: 500 * time.Millisecond, WhiteRight: true, Bus: dgt.BusConfig{Timeout: 40 * time.Millisecond, Tries: 2}}
	s = settingOf(board.ReplayConfig{Setting: bus.ReplaySetting()})
	assert.Equal(t, BusConfig{Poll: 500 * time.Millisecond, WhiteRight: true, Bus: dgt.BusConfig{Timeout: 40 * time.Millisecond, Tries: 2}}, s.bus())

	assert.Equal(t, setting{}, settingOf(board.ReplayConfig{}))

	var bad []error
	s = settingOf(board.ReplayConfig{Setting: []byte("{settle"), Bad: func(_ uint64, _ time.Duration, err error) { bad = append(bad, err) }})
	assert.Equal(t, setting{}, s)
	require.Len(t, bad, 1)
	assert.ErrorContains(t, bad[0], "the DGT driver's setting")
}
