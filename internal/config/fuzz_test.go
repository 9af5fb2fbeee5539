package config_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arbiter/configs"
	"arbiter/internal/config"
)

// checkLoaded is the property of every load: an *Error listing at least
// one problem, or a configuration that Validate accepts.
func checkLoaded(t *testing.T, c *config.Config, err error) {
	t.Helper()
	if err != nil {
		var ce *config.Error
		require.ErrorAs(t, err, &ce, "not a configuration error: %v", err)
		assert.NotEmpty(t, ce.Problems)
		return
	}
	require.NotNil(t, c)
	assert.Empty(t, c.Validate())
	_ = c.Warnings()
}

func FuzzParse(f *testing.F) {
	f.Add(configs.Default)
	f.Add([]byte(valid))
	for _, name := range []string{"broken.yaml", "typos.yaml", "types.yaml"} {
		data, err := os.ReadFile(filepath.Join("testdata", name))
		require.NoError(f, err)
		f.Add(data)
	}
	f.Add([]byte(""))
	f.Add([]byte("a: &a [x, x]\nb: &b [*a, *a]\nc: [*b, *b]\n"))
	f.Add([]byte("event:\n  <<: {name: x}\n  name: \"\\0\"\n"))
	f.Add([]byte("tournaments: x\nconsole: [1]\nhttp: 3\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		c, err := config.Parse(data, "fuzz.yaml", nil)
		checkLoaded(t, c, err)
	})
}

// FuzzEnvironment sets one variable of the configuration to an arbitrary
// value over the built-in demo.
func FuzzEnvironment(f *testing.F) {
	vars := []string{
		"ARBITER_EVENT_NAME", "ARBITER_EVENT_DATABASE", "ARBITER_HTTP_LISTEN", "ARBITER_LOG_LEVEL",
		"ARBITER_LOG_FORMAT", "ARBITER_BOARDS_BAUD", "ARBITER_BOARDS_SCAN", "ARBITER_BOARDS_PORTS",
		"ARBITER_DEMO_ENABLED", "ARBITER_DEMO_BOARDS", "ARBITER_DEMO_SPEED", "ARBITER_DEMO_FAULTS", "ARBITER_DEMO_SEED",
		"ARBITER_DEMO_PLIES", "ARBITER_TOURNAMENTS", "ARBITER_CONSOLE_USERS", "ARBITER_EVENT", "ARBITER_DEMO",
		"ARBITER_HTTP_LISTNE",
	}
	for i, v := range []string{"x", "0", "-1", "1e309", "2s", "[a, b]", "NaN", "\x00", "127.0.0.1:0", "debug"} {
		f.Add(uint8(i), v)
	}
	f.Fuzz(func(t *testing.T, which uint8, value string) {
		if strings.ContainsRune(value, 0) {
			t.Skip("no environment variable holds a NUL")
		}
		t.Setenv(vars[int(which)%len(vars)], value)
		c, err := config.Parse(configs.Default, "(built-in demo)", nil)
		checkLoaded(t, c, err)
	})
}
