package main

import (
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arbiter/internal/config"
	"arbiter/store"
)

// roundInPlay reports whether the daemon at url has round n of tournament
// 1 with a move stored on one of its boards and a board without a result.
func roundInPlay(url string, n int) bool {
	var games []store.Game
	if getJSON(fmt.Sprintf("%s/api/v1/games?tournament=1&round=%d", url, n), &games) != nil {
		return false
	}
	moved, open := false, false
	for _, g := range games {
		var v struct {
			Moves []json.RawMessage `json:"moves"`
		}
		if getJSON(fmt.Sprintf("%s/api/v1/games/%d", url, g.ID), &v) == nil && len(v.Moves) > 0 {
			moved = true
		}
		open = open || g.Result == ""
	}
	return moved && open
}

func getJSON(url string, v any) error {
	resp, err := http.Get(url)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("%s: %s", url, resp.Status)
	}
	return json.NewDecoder(resp.Body).Decode(v)
}

// testHubRebuilt plays a Swiss in three halls (one board each) paired by a
// hub that is killed in the middle of round 2 and loses its database (and,
// with storeLost, its NATS store too). Started again as it was, the hub
// refuses to pair the event anew; with --rebuild it rebuilds the event
// from the stream (from the halls' streams and mirrors when its store is
// lost), round 2 in play included, says what it rebuilt, and plays the
// Swiss to its end: the hub then has every hall's moves once and in
// order, and its standings and TRF are those one daemon computes.
func testHubRebuilt(t *testing.T, storeLost bool) {
	dir, leaf := t.TempDir(), freeAddr(t)
	halls := []string{"east", "west", "north"}
	hubD := fedHub(t, dir, leaf, halls...)
	hubD.rounds, hubD.plies = 3, 40
	hub := serveProc(t, hubD, "--exit-when-done")
	hubURL := hub.url(t)
	waitListening(t, hub, leaf)
	hallProcs := map[string]*proc{}
	hallCfg := map[string]*config.Config{}
	for i, h := range halls {
		d := fedHall(t, dir, h, leaf, i+1, 1)
		d.rounds, d.plies = 3, 40
		hallProcs[h] = serveProc(t, d, "--exit-when-done")
		cfg, err := config.Load(d.file(t), nil)
		require.NoError(t, err)
		hallCfg[h] = cfg
	}
	hub.waitFor(t, func() bool { return roundInPlay(hubURL, 2) }, "round 2 is not in play at the hub")

	hub.kill(t)
	require.NoError(t, os.Remove(filepath.Join(dir, "hub.db")))
	if storeLost {
		// Started again as if new, the hub cannot tell: the halls, whose
		// rounds it does not have, tell it, and both sides say so.
		require.NoError(t, os.RemoveAll(filepath.Join(dir, "nats-hub")))
		fresh := serveProc(t, hubD)
		freshURL := fresh.url(t)
		says := []string{"hall east has 2 rounds of tournament 1, the hub ", "start it with --rebuild"}
		fresh.waitAlert(t, fedConsole(t, freshURL), freshURL, says...)
		eastURL := hallProcs["east"].url(t)
		hallProcs["east"].waitAlert(t, fedConsole(t, eastURL), eastURL, says...)
		require.Zero(t, fresh.stop(t))
		require.NoError(t, os.Remove(filepath.Join(dir, "hub.db")))
		require.NoError(t, os.RemoveAll(filepath.Join(dir, "nats-hub")))
	} else {
		again := serveProc(t, hubD)
		require.Equal(t, exitError, again.exit(t), "a hub that lost its database is refused")
		assert.Contains(t, again.log.String(), "the database was lost. Start the hub with --rebuild")
	}
	rebuilt := serveProc(t, hubD, "--rebuild", "--exit-when-done")
	rebuilt.waitOut(t, func(out string) bool {
		return containsAll(out, []string{"arbiter: the hub was rebuilt from the federation's streams: "})
	},
		"the hub does not say what it rebuilt")
	out := rebuilt.out.String()
	t.Log(out)
	assert.Contains(t, out, "2 rounds restored")
	if storeLost {
		assert.Contains(t, out, "the pairings and the roster taken back from hall ")
	}
	require.Zero(t, rebuilt.exit(t), "the rebuilt hub plays the Swiss to its end")
	assert.Contains(t, rebuilt.out.String(), "every tournament is complete")
	for _, h := range halls {
		require.Zero(t, hallProcs[h].exit(t), "hall %s ends once its games are at the hub", h)
	}
	hubCfg, err := config.Load(hubD.file(t), nil)
	require.NoError(t, err)
	requireHubIsOneDaemon(t, hubCfg, hallCfg, halls, dir)

	db, err := store.Open(filepath.Join(dir, "hub.db"), &store.Options{ReadOnly: true})
	require.NoError(t, err)
	defer db.Close()
	acts, err := db.Actions(0)
	require.NoError(t, err)
	assert.True(t, func() bool {
		for _, a := range acts {
			if a.What == "rebuild" && a.Who == "arbiter serve --rebuild" {
				return true
			}
		}
		return false
	}(), "the rebuild is in the hub's audit log")
}

// D7: the hub's database is lost, its NATS store kept.
func TestFederationHubRebuiltFromTheStream(t *testing.T) {
	if testing.Short() {
		t.Skip("plays a Swiss in a hub and three halls, as processes, and kills the hub")
	}
	t.Parallel()
	testHubRebuilt(t, false)
}

// D7b: the hub's database and its NATS store are lost.
func TestFederationHubRebuiltFromTheHalls(t *testing.T) {
	if testing.Short() {
		t.Skip("plays a Swiss in a hub and three halls, as processes, and kills the hub")
	}
	t.Parallel()
	testHubRebuilt(t, true)
}
