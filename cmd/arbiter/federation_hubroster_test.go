package main

import (
	"net/http"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arbiter/store"
)

// The roster is the hub's (D2): a hall whose file lists the players in
// another order says so at once, in an alert there and on the hub, takes
// the hub's list and seats at the board the players the hub paired there,
// by the hub's start numbers; its /healthz stays ok, since it plays.
func TestFederationHallTakesTheHubsPlayers(t *testing.T) {
	if testing.Short() {
		t.Skip("plays a round in a hub and a hall, as processes")
	}
	t.Parallel()
	dir, leaf := t.TempDir(), freeAddr(t)
	hubD := fedHub(t, dir, leaf, "east")
	hubD.rounds = 1
	hallD := fedHall(t, dir, "east", leaf, 1, 3)
	hallD.rounds = 1
	swapped := append([]string{fedPlayers[1], fedPlayers[0]}, fedPlayers[2:]...)
	hallD.players = swapped
	hub := serveProc(t, hubD, "--exit-when-done")
	hubURL := hub.url(t)
	waitListening(t, hub, leaf)
	hall := serveProc(t, hallD, "--exit-when-done")
	hallURL := hall.url(t)

	says := []string{`the players of "Federated Open" differ from this hall's configuration`,
		"player 1 is Player 01 at the hub, Player 02 here", "player 2 is Player 02 at the hub, Player 01 here", "this hall takes the hub's list"}
	hall.waitAlert(t, fedConsole(t, hallURL), hallURL, says...)
	hub.waitAlert(t, fedConsole(t, hubURL), hubURL, append([]string{"hall east: "}, says...)...)
	code, body := healthz(t, hallURL+"/")
	assert.Equal(t, http.StatusOK, code, "a hall that took the hub's players plays on: %s", body)

	require.Zero(t, hall.exit(t), "the hall ends once its games are at the hub")
	require.Zero(t, hub.exit(t), "the hub ends once the round is played")
	hubDB, err := store.Open(filepath.Join(dir, "hub.db"), &store.Options{ReadOnly: true})
	require.NoError(t, err)
	defer hubDB.Close()
	hallDB, err := store.Open(filepath.Join(dir, "east.db"), &store.Options{ReadOnly: true})
	require.NoError(t, err)
	defer hallDB.Close()
	hubPlayers, err := hubDB.Players(1)
	require.NoError(t, err)
	hallPlayers, err := hallDB.Players(1)
	require.NoError(t, err)
	require.Equal(t, playerNames(hubPlayers), playerNames(hallPlayers), "the hall has the hub's players, by the hub's start numbers")
	hubRounds, err := hubDB.Rounds(1)
	require.NoError(t, err)
	hallRounds, err := hallDB.Rounds(1)
	require.NoError(t, err)
	require.Len(t, hallRounds, 1)
	played := 0
	for _, p := range hallRounds[0].Pairings {
		if p.GameID == 0 {
			continue
		}
		g, err := hallDB.Game(p.GameID)
		require.NoError(t, err)
		hp := hubRounds[0].Pairings[p.Board-1]
		assert.Equal(t, [2]int{hp.First, hp.Second}, [2]int{g.FirstID, g.SecondID}, "board %d", p.Board)
		assert.Equal(t, [2]string{hubPlayers[hp.First-1].Name, hubPlayers[hp.Second-1].Name}, [2]string{g.First, g.Second},
			"board %d seats the players the hub paired there", p.Board)
		hg, err := hubDB.Game(hp.GameID)
		require.NoError(t, err)
		assert.Equal(t, [2]string{hg.First, hg.Second}, [2]string{g.First, g.Second}, "board %d: the hub's game is the hall's", p.Board)
		played++
	}
	require.Equal(t, 3, played, "the hall played its three boards")
}

func playerNames(ps []store.Player) []string {
	out := make([]string, len(ps))
	for i, p := range ps {
		out[i] = p.Name
	}
	return out
}

// A hall whose tournaments are not the hub's (D3: another name) is
// refused when it starts, with exit code 3, and says why; the hub has an
// alert naming the difference, and so does the hall's store.
func TestFederationHallWithOtherTournamentsRefused(t *testing.T) {
	if testing.Short() {
		t.Skip("runs a hub and a hall as processes")
	}
	t.Parallel()
	dir, leaf := t.TempDir(), freeAddr(t)
	hubD := fedHub(t, dir, leaf, "east")
	hubD.autoPair = false
	hallD := fedHall(t, dir, "east", leaf, 1, 1)
	hallD.tournament = "Federated Open B"
	hub := serveProc(t, hubD)
	hubURL := hub.url(t)
	waitListening(t, hub, leaf)
	hall := serveProc(t, hallD)
	require.Equal(t, exitConfig, hall.exit(t), "the hall is refused")
	says := []string{`tournament 1 is "Federated Open" (chess, swiss-dutch) at the hub but "Federated Open B" (chess, swiss-dutch) in this hall's configuration`}
	assert.Contains(t, hall.log.String(), says[0])
	hub.waitAlert(t, fedConsole(t, hubURL), hubURL, append([]string{"hall east: "}, says...)...)

	hallDB, err := store.Open(filepath.Join(dir, "east.db"), &store.Options{ReadOnly: true})
	require.NoError(t, err)
	defer hallDB.Close()
	alerts, err := hallDB.Alerts(true)
	require.NoError(t, err)
	require.True(t, func() bool {
		for _, a := range alerts {
			if containsAll(a.Message, says) {
				return true
			}
		}
		return false
	}(), "the hall's store keeps its alert: %v", alerts)
	rounds, err := hallDB.Rounds(1)
	require.NoError(t, err)
	assert.Empty(t, rounds, "the hall played nothing")
}
