package config_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arbiter/hardware/dgt/driver"
	"arbiter/hardware/sensorboard/plug"
	"arbiter/internal/config"
)

// The protocols' keys are the configuration's own: known to the check
// for unknown keys, with their suggestions and lines, decoded with the
// file's types, settable from the environment, and validated where they
// came from.
func TestProtocolKeysAreKeysOfTheFile(t *testing.T) {
	ps := problems(t, valid+"boards:\n  baud: 0\n  dgt:\n    setle: 1s\n    bus_poll: soon\n")
	want(t, ps, "boards.baud", 17, `"0"`, "must be positive")
	want(t, ps, "boards.dgt.setle", 19, "unknown key", "did you mean settle?")
	want(t, ps, "boards.dgt.bus_poll", 20, `"soon"`)
	assert.Len(t, ps, 3, "%v", ps)

	ps = problems(t, valid+"boards:\n  ports:\n    - {path: /dev/ttyUSB0, protocol: dgt-bus, adresses: [1]}\n")
	want(t, ps, "boards.ports[0].adresses", 18, "unknown key", "did you mean addresses?")

	t.Setenv("ARBITER_BOARDS_BAUD", "9600")
	t.Setenv("ARBITER_BOARDS_DGT_SETTLE", "400ms")
	c, err := config.Parse([]byte(valid), "test.yaml", nil)
	require.NoError(t, err)
	assert.Equal(t, 9600, c.Boards.SettingsOf("").(*plug.Settings).Baud)
	assert.Equal(t, 400*time.Millisecond, c.Boards.SettingsOf(driver.Protocol).(*driver.Settings).Settle)
	assert.Same(t, c.Boards.SettingsOf(driver.Protocol), c.Boards.SettingsOf(driver.BusProtocol),
		"the DGT protocols share boards.dgt")

	t.Setenv("ARBITER_BOARDS_DGT_SETTLE", "1m")
	ps = problems(t, valid)
	require.Contains(t, ps, "boards.dgt.settle")
	assert.Equal(t, "environment ARBITER_BOARDS_DGT_SETTLE", ps["boards.dgt.settle"].From)
}

// Without a file's word, every protocol's settings are its defaults.
func TestProtocolSettingsDefaults(t *testing.T) {
	c, err := config.Parse([]byte(valid), "test.yaml", nil)
	require.NoError(t, err)
	assert.Equal(t, plug.DefaultBaud, c.Boards.SettingsOf("sensorboard").(*plug.Settings).Baud)
	assert.Equal(t, driver.Settings{}, *c.Boards.SettingsOf(driver.Protocol).(*driver.Settings))
	assert.Nil(t, c.Boards.SettingsOf("smoke-signals"))
}
