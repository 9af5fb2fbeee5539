package main

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arbiter/internal/config"
	"arbiter/store"
)

// The demo plays two tournaments of the same game, each on boards of its
// own, to the end.
func TestDemoTwoTournamentsOfOneGame(t *testing.T) {
	if testing.Short() {
		t.Skip("runs a demo event")
	}
	t.Parallel()
	dir := t.TempDir()
	cfg, err := config.Parse([]byte(fmt.Sprintf(`event: {name: "Two Opens", database: %q}
http: {listen: "127.0.0.1:0"}
log: {level: warn}
demo: {enabled: true, speed: 40, plies: 20, dgt: false}
tournaments:
  - {name: "Open A", game: chess, system: round-robin, rounds: 1, auto_pair: true, players: [{name: A1}, {name: A2}, {name: A3}, {name: A4}]}
  - {name: "Open B", game: chess, system: round-robin, rounds: 1, auto_pair: true, players: [{name: B1}, {name: B2}]}
`, filepath.Join(dir, "event.db"))), "two.yaml", nil)
	require.NoError(t, err)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	_, out, errc := startServe(t, ctx, cfg, true)
	require.NoError(t, <-errc)
	require.NoError(t, ctx.Err(), "the event did not finish in time:\n%s", out.String())
	assert.Contains(t, out.String(), "every tournament is complete")

	db, err := store.Open(cfg.Event.Database, nil)
	require.NoError(t, err)
	defer db.Close()
	games, err := db.Games()
	require.NoError(t, err)
	boards := map[string]uint64{}
	played := map[uint64]int{}
	for _, g := range games {
		assert.NotEmpty(t, g.Result, "game %d", g.ID)
		played[g.TournamentID]++
		if other, ok := boards[g.BoardID]; ok {
			assert.Equal(t, other, g.TournamentID, "board %s plays for two tournaments", g.BoardID)
		}
		boards[g.BoardID] = g.TournamentID
	}
	assert.Len(t, played, 2, "both tournaments played")
}
