package configs_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arbiter/internal/broadcast"
)

// TestSystemdUnitVerifies checks the shipped unit with systemd-analyze
// verify, which also warns (without failing) about unknown keys and bad
// values: any message fails the test. The binary path is replaced by one
// that exists, since verify checks it.
func TestSystemdUnitVerifies(t *testing.T) {
	unit, err := os.ReadFile("arbiter.service")
	require.NoError(t, err)
	text := string(unit)
	for _, want := range []string{"DynamicUser=yes", "SupplementaryGroups=dialout arbiter-config", "StateDirectory=arbiter",
		"ProtectSystem=strict", "--database %S/arbiter/event.db", "ExecReload=/bin/kill -HUP $MAINPID",
		// Every kind of serial board the README supports: USB, RS-232 and
		// Bluetooth (DGT boards on /dev/rfcomm*).
		"DeviceAllow=char-ttyACM rw", "DeviceAllow=char-ttyUSB rw", "DeviceAllow=char-ttyS rw", "DeviceAllow=char-rfcomm rw",
		// The configuration is readable by the throwaway user's group.
		"install -m 0640 -g arbiter-config my-event.yaml /etc/arbiter/arbiter.yaml"} {
		assert.Contains(t, text, want)
	}
	// A stop lets the daemon flush its broadcast pushes and close the
	// database before systemd kills it.
	m := regexp.MustCompile(`(?m)^TimeoutStopSec=(\S+)$`).FindStringSubmatch(text)
	require.NotNil(t, m, "TimeoutStopSec")
	stop, err := time.ParseDuration(m[1])
	require.NoError(t, err)
	assert.GreaterOrEqual(t, stop, broadcast.DefaultFlushWait+10*time.Second, "TimeoutStopSec leaves the flush and the close no time")
	analyze, err := exec.LookPath("systemd-analyze")
	if err != nil {
		t.Skip("systemd-analyze is not installed: the unit is not verified here")
	}
	self, err := os.Executable()
	require.NoError(t, err)
	path := filepath.Join(t.TempDir(), "arbiter.service")
	require.NoError(t, os.WriteFile(path, []byte(strings.ReplaceAll(text, "/usr/local/bin/arbiter", self)), 0o644))
	out, err := exec.Command(analyze, "verify", path).CombinedOutput()
	require.NoError(t, err, "%s", out)
	assert.Empty(t, strings.TrimSpace(string(out)), "systemd-analyze verify has something to say")
}

// TestUdevRule checks the shipped rule with udevadm verify where udev
// has it (systemd 254 and later), and on its own terms everywhere: every
// rule line sets the serial group and ends at the rule file's label.
func TestUdevRule(t *testing.T) {
	rules, err := os.ReadFile("70-arbiter-boards.rules")
	require.NoError(t, err)
	matches := 0
	for i, line := range strings.Split(string(rules), "\n") {
		if line == "" || strings.HasPrefix(line, "#") || strings.HasPrefix(line, "LABEL=") {
			continue
		}
		assert.Contains(t, line, `GOTO="arbiter_boards_end"`, "line %d", i+1)
		if strings.Contains(line, "ATTRS{") {
			matches++
			assert.Contains(t, line, `GROUP="dialout"`, "line %d", i+1)
			assert.Contains(t, line, `ENV{ID_MM_DEVICE_IGNORE}="1"`, "line %d", i+1)
		}
	}
	assert.Equal(t, 4, matches, "our boards and three ways to name a DGT board")
	assert.Contains(t, string(rules), "\nLABEL=\"arbiter_boards_end\"\n")

	udevadm, err := exec.LookPath("udevadm")
	if err != nil {
		t.Skip("udevadm is not installed: the rule is not verified here")
	}
	if out, err := exec.Command(udevadm, "verify", "--help").CombinedOutput(); err != nil {
		t.Skipf("this udevadm cannot verify rules (systemd 254 or later can): %s", strings.TrimSpace(string(out)))
	}
	out, err := exec.Command(udevadm, "verify", "70-arbiter-boards.rules").CombinedOutput()
	require.NoError(t, err, "%s", out)
}
