package config_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"arbiter/internal/config"
)

// One port is one board's (or one bus line's): listed twice, by one
// protocol or two, the two drivers would take it in turn, and the
// second would wait for a port the first holds, silently. The second
// entry is refused, naming the first.
func TestPortListedTwiceRefused(t *testing.T) {
	for _, tc := range []struct {
		name, ports, key string
		line             int
		why              []string
	}{
		{"a path, two protocols", "    - {path: /dev/ttyUSB0, protocol: dgt}\n    - {path: /dev/ttyUSB0}\n",
			"boards.ports[1].path", 19, []string{`"/dev/ttyUSB0"`, "listed twice (boards.ports[0] and [1])"}},
		{"a path spelt two ways", "    - {path: /dev/ttyACM0}\n    - {path: /dev/ttyUSB0}\n    - {path: /dev//ttyACM0/, protocol: dgt}\n",
			"boards.ports[2].path", 20, []string{"listed twice (boards.ports[0] and [2])"}},
		{"a pattern", "    - {glob: \"/dev/ttyUSB*\"}\n    - {glob: \"/dev/ttyUSB*\", protocol: dgt}\n",
			"boards.ports[1].glob", 19, []string{"listed twice (boards.ports[0] and [1])"}},
		{"a USB device", "    - {usb: {vid: \"2341\", serial: \"A1\"}}\n    - {usb: {vid: \"2341\", serial: \"A1\"}}\n",
			"boards.ports[1].usb", 19, []string{"listed twice (boards.ports[0] and [1])"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			want(t, problems(t, valid+"boards:\n  ports:\n"+tc.ports), tc.key, tc.line, tc.why...)
		})
	}
	// Two boards on two ports, and a path beside a pattern that does not
	// match it, are fine.
	_, err := config.Parse([]byte(valid+"boards:\n  ports:\n    - {path: /dev/ttyUSB0, protocol: dgt}\n    - {path: /dev/ttyUSB1}\n    - {glob: \"/dev/ttyACM*\"}\n"), "test.yaml", nil)
	require.NoError(t, err)
}
