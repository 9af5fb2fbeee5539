package main

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arbiter/internal/federation"
)

// The federation's preflight check links to a running hub with a hall's
// credentials, as the hall will, and compares the hub's roster with the
// hall's configuration: each mistake is a finding, with its level, before
// the hall is started.
func TestFederationPreflight(t *testing.T) {
	if testing.Short() {
		t.Skip("runs a hub as a process")
	}
	t.Parallel()
	f := newFedLink(t, "east")
	_, _ = f.start(t)
	own := func(name string, players []string) []federation.Tournament {
		return []federation.Tournament{{ID: 1, Name: name, Game: "chess", System: "swiss-dutch", Players: players}}
	}
	hall := func(password, addr string) federation.Config {
		return federation.Config{Role: federation.RoleHall, Hall: "east", HubURL: fmt.Sprintf("nats-leaf://east:%s@%s", password, addr), FirstBoard: 1}
	}
	swapped := append([]string{fedPlayers[1], fedPlayers[0]}, fedPlayers[2:]...)
	for _, tt := range []struct {
		name   string
		config federation.Config
		own    []federation.Tournament
		want   []federation.Level
		says   []string
	}{
		{"ready", hall("secret-of-east", f.leaf), own("Federated Open", fedPlayers),
			[]federation.Level{federation.LevelOK, federation.LevelOK}, []string{"linked to the hub with this hall's name and password", `"Federated Open": the hub's, with the same 6 players`}},
		{"wrong password", hall("guess", f.leaf), own("Federated Open", fedPlayers),
			[]federation.Level{federation.LevelError}, []string{"the hub refused this hall's name and password"}},
		{"client port", hall("secret-of-east", f.client), own("Federated Open", fedPlayers),
			[]federation.Level{federation.LevelError}, []string{"not its leaf port"}},
		{"players in another order", hall("secret-of-east", f.leaf), own("Federated Open", swapped),
			[]federation.Level{federation.LevelOK, federation.LevelWarning}, []string{"player 1 is Player 01 at the hub, Player 02 here", "this hall takes the hub's list"}},
		{"another tournament", hall("secret-of-east", f.leaf), own("Federated Open B", fedPlayers),
			[]federation.Level{federation.LevelOK, federation.LevelError}, []string{`"Federated Open B" (chess, swiss-dutch) in this hall's configuration`}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(t.Context(), fedWait)
			defer cancel()
			findings := federation.Preflight(ctx, tt.config, tt.own, 20*time.Second)
			text := federation.FindingsText(findings)
			levels := make([]federation.Level, len(findings))
			for i, f := range findings {
				levels[i] = f.Level
			}
			require.Equal(t, tt.want, levels, text)
			for _, s := range tt.says {
				assert.Contains(t, text, s)
			}
		})
	}

	// arbiter preflight runs the check, once, on the hall's and the
	// hub's own files: the hall links and finds its tournament at the
	// hub; the hub's leaf port is taken (by the hub running).
	t.Run("arbiter preflight", func(t *testing.T) {
		_, out := runCLI(t, "preflight", "--config", f.hall(t, "east", "secret-of-east", f.leaf, 1, 1).file(t))
		plain := squeeze(out)
		assert.Contains(t, plain, "ok federation hub_url linked to the hub with this hall's name and password", out)
		assert.Contains(t, plain, `ok federation tournament 1 "Federated Open": the hub's, with the same 6 players`, out)
		assert.Equal(t, 1, strings.Count(plain, "federation hub_url"), "the link is checked once: %s", out)

		code, out := runCLI(t, "preflight", "--config", f.hub.file(t))
		assert.Equal(t, exitConfig, code, out)
		assert.Contains(t, squeeze(out), "error federation leaf_listen cannot listen on "+f.leaf, out)
	})
}
