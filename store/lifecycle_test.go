package store_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arbiter/store"
)

// One cause on one table is one alert, however often it is raised; a
// resolved alert is not reopened, and another table or kind is another
// alert.
func TestAlertsGroupByTableAndCause(t *testing.T) {
	db, _ := openTemp(t)
	add := func(board, kind, msg string, at time.Time) store.Alert {
		a := store.Alert{BoardID: board, GameID: 7, Kind: kind, Message: msg, At: at}
		require.NoError(t, db.AddAlert(&a))
		return a
	}
	first := add("B1", "irregularity", "move while clocks are paused", wall)
	for i := range 50 {
		add("B1", "irregularity", "move while clocks are paused", wall.Add(time.Duration(i+1)*time.Second))
	}
	other := add("B2", "irregularity", "move while clocks are paused", wall)
	kind := add("B1", "touch-move", "touched e2", wall)
	open, err := db.Alerts(true)
	require.NoError(t, err)
	require.Len(t, open, 3)
	assert.Equal(t, first.ID, open[0].ID)
	assert.Equal(t, 51, open[0].Count)
	assert.Equal(t, wall, open[0].At, "the first time stays")
	assert.Equal(t, wall.Add(50*time.Second), open[0].Last, "the latest time is kept")

	// Resolved together, in one action; then the cause raises a new alert.
	require.Error(t, db.ResolveAlerts([]uint64{first.ID, 999}, &store.Action{Who: "chief", Why: "x"}), "all or none")
	open, err = db.Alerts(true)
	require.NoError(t, err)
	require.Len(t, open, 3, "nothing was resolved by the failed call")
	require.NoError(t, db.ResolveAlerts([]uint64{first.ID, other.ID}, &store.Action{Who: "chief", Why: "board fixed"}))
	assert.Error(t, db.ResolveAlert(first.ID, &store.Action{Who: "chief", Why: "again"}), "resolved once")
	open, err = db.Alerts(true)
	require.NoError(t, err)
	require.Len(t, open, 1)
	assert.Equal(t, kind.ID, open[0].ID)
	again := add("B1", "irregularity", "move while clocks are paused", wall.Add(time.Hour))
	assert.NotEqual(t, first.ID, again.ID)
	assert.Equal(t, 1, again.Count)
	acts, err := db.Actions(0)
	require.NoError(t, err)
	require.Len(t, acts, 1)
	assert.Equal(t, "resolve-alert", acts[0].What)
}

// A game lost by forfeit before a move counts as a forfeit for the
// tournament; one lost by forfeit after moves (an illegal-move penalty)
// counts as played.
func TestForfeitResults(t *testing.T) {
	db, _ := openTemp(t)
	tr := store.Tournament{Name: "Open", Game: "chess", System: "swiss-dutch", Rounds: 3}
	require.NoError(t, db.CreateTournament(&tr))
	g1 := store.Game{TournamentID: tr.ID, Round: 1, BoardNo: 1, Game: "chess", FirstID: 1, SecondID: 2}
	g2 := store.Game{TournamentID: tr.ID, Round: 1, BoardNo: 2, Game: "chess", FirstID: 3, SecondID: 4}
	require.NoError(t, db.CreateGame(&g1))
	require.NoError(t, db.CreateGame(&g2))
	require.NoError(t, db.PutRound(&store.Round{TournamentID: tr.ID, Number: 1, Pairings: []store.Pairing{
		{Board: 1, First: 1, Second: 2, GameID: g1.ID}, {Board: 2, First: 3, Second: 4, GameID: g2.ID}}}))
	require.NoError(t, db.AppendMove(&store.Move{GameID: g2.ID, Ply: 1, Notation: "e4"}))
	require.NoError(t, db.SetResult(g1.ID, "0-1", "forfeit", wall, nil))
	require.NoError(t, db.SetResult(g2.ID, "0-1", "forfeit", wall, nil))
	rs, err := db.Rounds(tr.ID)
	require.NoError(t, err)
	assert.Equal(t, "-/+", rs[0].Pairings[0].Result)
	assert.Equal(t, "0-1", rs[0].Pairings[1].Result)
}

// Alerts about serial ports group by port: one per port and cause.
func TestAlertsGroupByPort(t *testing.T) {
	db, _ := openTemp(t)
	add := func(port, msg string) store.Alert {
		a := store.Alert{Item: port, Kind: "port", Message: msg, At: wall}
		require.NoError(t, db.AddAlert(&a))
		return a
	}
	a := add("/dev/ttyUSB0", "does not exist")
	b := add("/dev/ttyUSB1", "does not exist")
	again := add("/dev/ttyUSB0", "answers nothing")
	assert.NotEqual(t, a.ID, b.ID, "another port, another alert")
	assert.Equal(t, a.ID, again.ID)
	open, err := db.Alerts(true)
	require.NoError(t, err)
	require.Len(t, open, 2)
	assert.Equal(t, "/dev/ttyUSB0", open[0].Item)
	assert.Equal(t, "answers nothing", open[0].Message, "the newest says what is wrong now")
	assert.Equal(t, 2, open[0].Count)
}
