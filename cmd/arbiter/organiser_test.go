package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/crypto/bcrypt"

	"arbiter/director"
	"arbiter/internal/config"
)

// organiserYAML is an organiser's own configuration, as one writes it for
// a club's weekend: real players, a bcrypt login, the venue's network; the
// database in dir, and boards (the ports section, "" for none) as given.
// The players are those of the demo's chess Swiss, so that a test can
// tell a simulated game by them.
func organiserYAML(t testing.TB, dir, listen, boards string) string {
	t.Helper()
	hash, err := bcrypt.GenerateFromPassword([]byte("Kasparov-1985!"), bcrypt.MinCost)
	require.NoError(t, err)
	return fmt.Sprintf(`event:
  name: "Nordic Club Weekend"
  database: %q
  city: "Trondheim"
  federation: "NOR"
  chief_arbiter: "IA Kari Nordmann"
http:
  listen: %q
console:
  users:
    - {name: "kari", password: %q}
log: {level: warn}
%stournaments:
  - name: "Weekend Rapid"
    game: chess
    system: swiss-dutch
    rounds: 3
    time_control: "15m+10s"
    tiebreaks: ["BH/C1", "BH", "SB"]
    auto_pair: true
    players:
      - {name: "Jan Kowalski", rating: 2250, federation: POL}
      - {name: "Sofia Rossi", rating: 2190, federation: ITA}
      - {name: "Lucas Martin", rating: 2110, federation: FRA}
      - {name: "Eva Horváth", rating: 2040, federation: HUN}
      - {name: "Nils Berg", rating: 1980, federation: NOR}
      - {name: "Ana Silva", rating: 1930, federation: POR}
`, filepath.Join(dir, "weekend.db"), listen, hash, boards)
}

// loadYAML writes text as dir/name and loads it as serve would.
func loadYAML(t testing.TB, dir, name, text string) (string, *config.Config) {
	t.Helper()
	path := filepath.Join(dir, name)
	require.NoError(t, os.WriteFile(path, []byte(text), 0o600))
	cfg, err := config.Load(path, nil)
	require.NoError(t, err)
	return path, cfg
}

// An organiser's configuration without boards.ports, on the venue's
// network with a real login, runs no simulated board: round 1 is paired
// and its games wait for their results (or their moves from the
// scoresheets) in the console, on no table, with no move played (issue
// 30: two testers saw random games stored under their players' names).
func TestOrganiserConfigPlaysNoSimulatedGame(t *testing.T) {
	dir := t.TempDir()
	_, cfg := loadYAML(t, dir, "weekend.yaml", organiserYAML(t, dir, "0.0.0.0:0", ""))
	assert.False(t, cfg.Demo.Enabled)
	var d *director.Director
	started := make(chan struct{})
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	url, out, errc := startServeWith(t, ctx, cfg, serveOptions{started: func(dd *director.Director) { d = dd; close(started) }})
	<-started
	assert.Equal(t, "ok\n", get(t, url+"healthz"))
	id := d.TournamentIDs()[0]
	var rounds int
	require.Eventually(t, func() bool {
		rs, err := d.DB().Rounds(id)
		rounds = len(rs)
		return err == nil && rounds == 1
	}, 10*time.Second, 20*time.Millisecond, "round 1 was not paired")
	assert.Empty(t, d.Tables(), "no board, simulated or not")
	rs, err := d.DB().Rounds(id)
	require.NoError(t, err)
	for _, p := range rs[0].Pairings {
		g, err := d.DB().Game(p.GameID)
		require.NoError(t, err)
		assert.Empty(t, g.BoardID, "game %d waits for its result, on no board", g.ID)
		moves, err := d.DB().Moves(g.ID)
		require.NoError(t, err)
		assert.Empty(t, moves)
	}
	cancel()
	require.NoError(t, <-errc)
	assert.NotContains(t, out.String(), "demo:", "no demo ran")
}

// Simulated boards (demo.enabled) are refused where real logins meet them
// on the venue's network, naming both settings, and beside real boards:
// exit 3, before anything is opened.
func TestDemoRefusedBesideRealLogins(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		name, listen, boards string
		want                 []string
	}{
		{"on the venue's network", "0.0.0.0:0", "demo: {enabled: true}\n", []string{"demo.enabled", "http.listen = 0.0.0.0:0", "arbiter rehearse"}},
		{"beside real boards", "127.0.0.1:0", "demo: {enabled: true}\nboards:\n  ports: [{path: /dev/ttyUSB0}]\n", []string{"demo.enabled", "boards.ports", "arbiter rehearse"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path, _ := loadYAML(t, dir, "event.yaml", organiserYAML(t, dir, tc.listen, tc.boards))
			code, _, err := serveCLI(t, "serve", "--config", path)
			assert.Equal(t, exitConfig, code)
			for _, w := range tc.want {
				assert.ErrorContains(t, err, w)
			}
			assert.NoFileExists(t, filepath.Join(dir, "weekend.db"), "nothing opened")
		})
	}
	// The environment too: the built-in demo on the venue's network.
	t.Setenv("ARBITER_HTTP_LISTEN", "0.0.0.0:0")
	code, _, err := serveCLI(t, "serve", "--database", filepath.Join(dir, "demo.db"))
	assert.Equal(t, exitConfig, code)
	assert.ErrorContains(t, err, "demo.enabled")
	assert.ErrorContains(t, err, "http.listen = 0.0.0.0:0")
	assert.NoFileExists(t, filepath.Join(dir, "demo.db"))
}
