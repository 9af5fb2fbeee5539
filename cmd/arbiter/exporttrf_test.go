package main

import (
	"context"
	"log/slog"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arbiter/director"
	"arbiter/internal/config"
	"arbiter/rules"
	"arbiter/store"
)

// TestExportTRFStandings: `arbiter standings` on the TRF that `arbiter
// export` writes shows the tournament's tie-breaks, computed for a round
// robin, and the header the configuration gives. The configuration's
// broadcast push takes its token from a variable that is not set here:
// export needs no token.
func TestExportTRFStandings(t *testing.T) {
	dir := t.TempDir()
	cfgPath := importConfig(t, dir, `  - name: "Masters"
    game: "chess"
    system: "round-robin"
    rounds: 3
    tiebreaks: ["SB", "WIN"]
    players: [{name: "Anna Berg", rating: 2500}, {name: "Boris Chen", rating: 2400}, {name: "Carla Diaz"}, {name: "Dag Eriksen"}]
broadcast:
  push:
    - {url: "https://lichess.org/api/broadcast/round/abcd1234/push", tournament: "Masters", round: 1, token_env: ARBITER_TEST_UNSET_PUSH_TOKEN}
`)
	cfg, err := config.Load(cfgPath, nil)
	require.NoError(t, err)
	db, err := store.Open(cfg.Event.Database, nil)
	require.NoError(t, err)
	d, err := director.New(directorConfig(cfg), db, slog.New(slog.DiscardHandler))
	require.NoError(t, err)
	for round := 1; round <= 3; round++ {
		require.NoError(t, d.PairNextRound(context.Background(), 1, "test", ""))
		rounds, err := db.Rounds(1)
		require.NoError(t, err)
		for _, p := range rounds[round-1].Pairings {
			o := rules.Win(rules.First, rules.Resignation)
			if p.Board == 2 {
				o = rules.Draw(rules.Agreement)
			}
			require.NoError(t, db.SetResult(p.GameID, o.Result.String(), o.Reason.String(), time.Time{}, nil))
		}
	}
	require.NoError(t, db.Close())

	out := filepath.Join(dir, "masters.trf")
	code, _ := runCLI(t, "export", "--database", cfg.Event.Database, "--config", cfgPath, "--tournament", "1", "-o", out)
	require.Equal(t, exitOK, code)
	code, text := runCLI(t, "standings", out)
	require.Equal(t, exitOK, code)
	head := strings.SplitN(text, "\n", 2)[0]
	assert.Contains(t, head, "SB", text)
	assert.Contains(t, head, "WIN", text)
}
