package config_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/spf13/pflag"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arbiter/internal/config"
	_ "arbiter/rules/chess"
	_ "arbiter/rules/kvaa"
	_ "arbiter/rules/shogi"
	_ "arbiter/rules/tavreli"
	_ "arbiter/rules/tensor"
)

func TestEmbeddedDefault(t *testing.T) {
	c, err := config.Load("", nil)
	require.NoError(t, err)
	assert.Equal(t, "(built-in demo)", c.Source)
	assert.Equal(t, "127.0.0.1:8080", c.HTTP.Listen)
	var games []string
	for _, tc := range c.Tournaments {
		games = append(games, tc.Game)
	}
	assert.Equal(t, []string{"tavreli", "shogi", "kvaa", "tensor", "chess"}, games, "the demo plays every game")
	assert.Len(t, c.Tournaments[0].Players, 8)
	assert.Empty(t, c.Boards.Ports, "the demo uses simulated boards")
	assert.Empty(t, c.Warnings(), "every tournament of the demo can be paired to its end")
}

func TestEnvironmentAndFlagsOverride(t *testing.T) {
	t.Setenv("ARBITER_HTTP_LISTEN", "0.0.0.0:9000")
	t.Setenv("ARBITER_DEMO_SPEED", "2.5")
	t.Setenv("ARBITER_EVENT_DATABASE", "/tmp/env.db")
	fs := pflag.NewFlagSet("serve", pflag.ContinueOnError)
	fs.String("database", "", "")
	fs.String("listen", "", "")
	require.NoError(t, fs.Parse([]string{"--database=/tmp/flag.db"}))
	c, err := config.Load("", fs)
	require.NoError(t, err)
	assert.Equal(t, "0.0.0.0:9000", c.HTTP.Listen, "environment over the file")
	assert.Equal(t, 2.5, c.Demo.Speed)
	assert.Equal(t, "/tmp/flag.db", c.Event.Database, "flags over the environment")
}

// Simulated boards are only where a configuration asks for them
// (demo.enabled, which the built-in demo sets).
func TestDemoOnlyWhenAsked(t *testing.T) {
	c, err := config.Load("", nil)
	require.NoError(t, err)
	assert.True(t, c.Demo.Enabled, "the built-in demo has simulated boards")
	c, err = config.Parse([]byte("event: {name: x}\n"), "event.yaml", nil)
	require.NoError(t, err)
	assert.False(t, c.Demo.Enabled, "a file has none unless it says so")
	t.Setenv("ARBITER_DEMO_ENABLED", "true")
	c, err = config.Parse([]byte("event: {name: x}\n"), "event.yaml", nil)
	require.NoError(t, err)
	assert.True(t, c.Demo.Enabled, "or its environment")
}

func TestInvalidConfigListsEveryProblem(t *testing.T) {
	_, err := config.Load(filepath.Join("testdata", "broken.yaml"), nil)
	require.Error(t, err)
	assert.True(t, config.IsInvalid(err))
	var ce *config.Error
	require.ErrorAs(t, err, &ce)
	keys := map[string]bool{}
	for _, p := range ce.Problems {
		keys[p.Key] = true
	}
	for _, k := range []string{
		"event.name", "http.listen", "log.level", "boards.ports[0]", "boards.assign[0].tournament",
		"boards.assign[0].table", "demo.speed", "tournaments[0].game", "tournaments[0].system",
		"tournaments[0].rounds", "tournaments[0].time_control", "tournaments[0].touch_move", "tournaments[0].illegal_move",
		"tournaments[0].players[0].name", "tournaments[0].players[0].rating", "tournaments[1].name",
	} {
		assert.True(t, keys[k], "missing problem for %s in:\n%v", k, err)
	}
	assert.Contains(t, err.Error(), `tournaments[0].game = "checkers ": `)
}

func TestUnreadableFiles(t *testing.T) {
	_, err := config.Load(filepath.Join("testdata", "missing.yaml"), nil)
	assert.ErrorContains(t, err, "read configuration")
	bad := filepath.Join(t.TempDir(), "bad.yaml")
	require.NoError(t, os.WriteFile(bad, []byte("event: [unclosed\n"), 0o600))
	_, err = config.Load(bad, nil)
	assert.True(t, config.IsInvalid(err))
	assert.ErrorContains(t, err, "not valid YAML")
}

// A boolean key set only in the environment takes effect.
func TestSecureCookiesFromTheEnvironment(t *testing.T) {
	t.Setenv("ARBITER_HTTP_SECURE_COOKIES", "true")
	c, err := config.Load("", nil)
	require.NoError(t, err)
	assert.True(t, c.HTTP.SecureCookies)
}
