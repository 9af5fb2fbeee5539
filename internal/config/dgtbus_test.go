package config_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arbiter/hardware/dgt/driver"
	"arbiter/internal/config"
)

// A line of DGT boards in bus mode is a port with protocol dgt-bus, by
// path or glob, with the addresses of the boards expected on it.
func TestDGTBusPortAccepted(t *testing.T) {
	c, err := config.Parse([]byte(valid+"boards:\n  ports:\n    - {path: /dev/ttyUSB0, protocol: dgt-bus, addresses: [3618, 3619]}\n    - {glob: \"/dev/ttyS*\", protocol: dgt-bus}\n  dgt:\n    bus_poll: 500ms\n"), "test.yaml", nil)
	require.NoError(t, err)
	require.Len(t, c.Boards.Ports, 2)
	assert.Equal(t, driver.BusProtocol, c.Boards.Ports[0].Protocol)
	assert.Equal(t, []int{3618, 3619}, c.Boards.Ports[0].Keys.(*driver.BusPort).Addresses)
	assert.Empty(t, c.Boards.Ports[1].Keys.(*driver.BusPort).Addresses, "the boards are found by DGT's ping")
	assert.Equal(t, 500*time.Millisecond, c.Boards.SettingsOf(driver.BusProtocol).(*driver.Settings).BusPoll)
}

func TestDGTBusRefusals(t *testing.T) {
	for _, tc := range []struct {
		name, text, key string
		line            int
		why             []string
	}{
		{"bus by USB id", valid + "boards:\n  ports:\n    - {usb: {vid: \"2341\"}, protocol: dgt-bus}\n",
			"boards.ports[0].usb", 18, []string{"a DGT board is found by path or glob"}},
		{"addresses on a single board", valid + "boards:\n  ports:\n    - {path: /dev/ttyACM0, protocol: dgt, addresses: [5]}\n",
			"boards.ports[0].addresses", 18, []string{"[5]", "only a line of DGT boards in bus mode (protocol: dgt-bus)"}},
		{"addresses on our boards", valid + "boards:\n  ports:\n    - {path: /dev/ttyACM0, addresses: [5]}\n",
			"boards.ports[0].addresses", 18, []string{"protocol: dgt-bus"}},
		{"address 0", valid + "boards:\n  ports:\n    - {path: /dev/ttyUSB0, protocol: dgt-bus, addresses: [1, 0]}\n",
			"boards.ports[0].addresses[1]", 18, []string{`"0"`, "between 1 and 16383"}},
		{"address too large", valid + "boards:\n  ports:\n    - {path: /dev/ttyUSB0, protocol: dgt-bus, addresses: [16384]}\n",
			"boards.ports[0].addresses[0]", 18, []string{`"16384"`, "between 1 and 16383"}},
		{"address twice", valid + "boards:\n  ports:\n    - {path: /dev/ttyUSB0, protocol: dgt-bus, addresses: [7, 8, 7]}\n",
			"boards.ports[0].addresses[2]", 18, []string{"given twice (addresses[0] and [2])"}},
		{"address not a number", valid + "boards:\n  ports:\n    - {path: /dev/ttyUSB0, protocol: dgt-bus, addresses: [board7]}\n",
			"boards.ports[0].addresses[0]", 18, []string{`"board7"`}},
		{"bus protocol misspelt", valid + "boards:\n  ports:\n    - {path: /dev/ttyUSB0, protocol: dgtbus}\n",
			"boards.ports[0].protocol", 18, []string{`"dgtbus"`, "unknown protocol; known: sensorboard, dgt, dgt-bus"}},
		{"bus poll too quick", valid + "boards:\n  dgt:\n    bus_poll: 1ms\n", "boards.dgt.bus_poll", 18, []string{"between 50ms and 30s"}},
		{"bus poll too slow", valid + "boards:\n  dgt:\n    bus_poll: 1m\n", "boards.dgt.bus_poll", 18, []string{"between 50ms and 30s"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			want(t, problems(t, tc.text), tc.key, tc.line, tc.why...)
		})
	}
}
