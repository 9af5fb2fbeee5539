package config_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arbiter/internal/config"
)

const pushBase = `event: {name: Push test}
tournaments:
  - name: Open
    game: chess
    system: round-robin
    rounds: 3
    players: [{name: Ann}, {name: Bob}, {name: Cid}, {name: Dan}]
broadcast:
  push:
`

func loadPush(t *testing.T, entry string) (*config.Config, error) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "push.yaml")
	require.NoError(t, os.WriteFile(path, []byte(pushBase+entry), 0o600))
	return config.Load(path, nil)
}

func TestBroadcastPush(t *testing.T) {
	t.Setenv("ARBITER_TEST_PUSH_TOKEN", "from-env")
	c, err := loadPush(t, `    - {url: "https://lichess.org/api/broadcast/round/abcd1234/push", tournament: Open, round: 1, token: lip_x}
    - {url: "http://127.0.0.1:9/r/{round}", tournament: Open, token_env: ARBITER_TEST_PUSH_TOKEN, format: pgn}
`)
	require.NoError(t, err)
	require.Len(t, c.Broadcast.Push, 2)
	p := c.Broadcast.Push[0]
	assert.Equal(t, config.Push{URL: "https://lichess.org/api/broadcast/round/abcd1234/push", Tournament: "Open", Round: 1, Token: "lip_x"}, p)
	assert.Equal(t, "lip_x", p.PushToken())
	assert.Equal(t, "from-env", c.Broadcast.Push[1].PushToken())
}

// A token's variable that is not set is the daemon's problem only: the
// file loads (export and import read it), and PushTokenProblems names
// the key, its line and why, for serve to refuse.
func TestBroadcastPushTokenUnset(t *testing.T) {
	c, err := loadPush(t, `    - {url: "https://x/push", tournament: Open, round: 1, token_env: ARBITER_TEST_UNSET_TOKEN}
`)
	require.NoError(t, err)
	ps := c.PushTokenProblems()
	require.Len(t, ps, 1)
	assert.Equal(t, "broadcast.push[0].token_env", ps[0].Key)
	assert.Equal(t, 10, ps[0].Line)
	assert.Contains(t, ps[0].String(), "line 10: broadcast.push[0].token_env = \"ARBITER_TEST_UNSET_TOKEN\": the environment variable is not set")
	t.Setenv("ARBITER_TEST_UNSET_TOKEN", "lip_y")
	assert.Empty(t, c.PushTokenProblems())
}

func TestBroadcastPushProblems(t *testing.T) {
	tests := []struct {
		name, entry, key, says string
	}{
		{"not http", `    - {url: "ftp://x/{round}", tournament: Open}`, "broadcast.push[0].url", "http:// or https://"},
		{"no host", `    - {url: "https:///{round}", tournament: Open}`, "broadcast.push[0].url", "http:// or https://"},
		{"every round to one address", `    - {url: "https://x/push", tournament: Open}`, "broadcast.push[0].url", "{round}"},
		{"unknown tournament", `    - {url: "https://x/push", tournament: Closed, round: 1}`, "broadcast.push[0].tournament", "no tournament"},
		{"bad round", `    - {url: "https://x/push", tournament: Open, round: -1}`, "broadcast.push[0].round", "between 1 and 99"},
		{"both tokens", `    - {url: "https://x/push", tournament: Open, round: 1, token: a, token_env: HOME}`, "broadcast.push[0].token", "not both"},
		{"typo", `    - {url: "https://x/push", tournament: Open, round: 1, tokn: zz}`, "broadcast.push[0].tokn", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := loadPush(t, tt.entry+"\n")
			require.Error(t, err)
			assert.Contains(t, err.Error(), tt.key)
			assert.Contains(t, err.Error(), tt.says)
			assert.NotContains(t, err.Error(), `"a"`, "a token never shows in an error")
		})
	}
}
