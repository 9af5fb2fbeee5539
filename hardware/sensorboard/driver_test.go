package sensorboard

import (
	"os"
	"path/filepath"
	"testing"

	"arbiter/board"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.bug.st/serial/enumerator"
)

func TestNewChecksConfig(t *testing.T) {
	h := func(board.Event) {}
	tests := []struct {
		name string
		cfg  Config
		ok   bool
	}{
		{"no handler", Config{}, false},
		{"path", Config{Handler: h, Ports: []PortSpec{{Path: "/dev/ttyACM0"}}}, true},
		{"glob", Config{Handler: h, Ports: []PortSpec{{Glob: "/dev/ttyUSB*"}}}, true},
		{"bad glob", Config{Handler: h, Ports: []PortSpec{{Glob: "/dev/[tty"}}}, false},
		{"usb", Config{Handler: h, Ports: []PortSpec{{VID: "2341", PID: "0043"}}}, true},
		{"two ways", Config{Handler: h, Ports: []PortSpec{{Path: "/dev/x", Glob: "/dev/y*"}}}, false},
		{"nothing", Config{Handler: h, Ports: []PortSpec{{}}}, false},
	}
	for _, tc := range tests {
		_, err := New(tc.cfg)
		assert.Equal(t, tc.ok, err == nil, "%s: %v", tc.name, err)
	}
}

func TestPortSpecUSB(t *testing.T) {
	p := &enumerator.PortDetails{Name: "/dev/ttyACM0", IsUSB: true, VID: "2341", PID: "0043", SerialNumber: "A1"}
	assert.True(t, PortSpec{VID: "2341"}.matchUSB(p))
	assert.True(t, PortSpec{VID: "2341", PID: "0043", SerialNumber: "A1"}.matchUSB(p))
	assert.True(t, PortSpec{VID: "abcd"}.matchUSB(&enumerator.PortDetails{IsUSB: true, VID: "ABCD"}), "hex ids compare without case")
	assert.False(t, PortSpec{VID: "2341", PID: "0001"}.matchUSB(p))
	assert.False(t, PortSpec{SerialNumber: "B2"}.matchUSB(p))
	assert.False(t, PortSpec{VID: "2341"}.matchUSB(&enumerator.PortDetails{Name: "/dev/ttyS0"}))
}

func TestCandidates(t *testing.T) {
	dir := t.TempDir()
	for _, n := range []string{"board-1", "board-2", "other"} {
		require.NoError(t, os.WriteFile(filepath.Join(dir, n), nil, 0o600))
	}
	d, err := New(Config{Handler: func(board.Event) {}, Ports: []PortSpec{
		{Glob: filepath.Join(dir, "board-*")},
		{Path: filepath.Join(dir, "other")},
		{Path: filepath.Join(dir, "absent")},
		{Glob: filepath.Join(dir, "board-1")},
	}})
	require.NoError(t, err)
	assert.Equal(t, []string{filepath.Join(dir, "board-1"), filepath.Join(dir, "board-2"), filepath.Join(dir, "other")}, d.Candidates())
}
