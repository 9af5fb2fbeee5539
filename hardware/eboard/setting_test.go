package eboard_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arbiter/board"
	"arbiter/hardware/eboard"
)

// A replay reads the setting a driver kept; a damaged one is reported,
// naming the protocol, and read as the defaults.
func TestSetting(t *testing.T) {
	type setting struct {
		Scan time.Duration `json:"scan"`
	}
	kept := eboard.MarshalSetting(setting{Scan: time.Second})
	var bad []error
	cfg := board.ReplayConfig{Bad: func(_ uint64, _ time.Duration, err error) { bad = append(bad, err) }}
	var s setting
	cfg.Setting = kept
	require.True(t, eboard.UnmarshalSetting(cfg, "test", &s))
	assert.Equal(t, time.Second, s.Scan)
	cfg.Setting = nil
	assert.False(t, eboard.UnmarshalSetting(cfg, "test", &s), "none kept")
	assert.Empty(t, bad)
	cfg.Setting = []byte(`{"scan": "soon"}`)
	assert.False(t, eboard.UnmarshalSetting(cfg, "test", &s))
	require.Len(t, bad, 1)
	assert.ErrorContains(t, bad[0], "the test driver's setting")
}
