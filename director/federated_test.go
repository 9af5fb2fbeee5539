package director_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arbiter/director"
	"arbiter/rules"
	"arbiter/store"
)

// hallEvent is a federation's hall of a 6-player Swiss over 3 rounds,
// paired by its hub, with one table (board 1 of each round is played
// here).
func hallEvent(t *testing.T) (*director.Director, *store.DB, uint64) {
	t.Helper()
	cfg := eventConfig(t, "swiss-dutch", 6, 3)
	cfg.Tournaments[0].HalfPointByes = 1
	d, db := newEventFrom(t, cfg)
	d.SetPairedElsewhere("the hub")
	id := d.TournamentIDs()[0]
	_, err := d.AddTable(id, "B1")
	require.NoError(t, err)
	return d, db, id
}

// hubRound is round n of the hub's: boards 1-2, 3-4, 5-6 and more, as
// pairs of start numbers.
func hubRound(id uint64, n int, boards ...[2]int) store.Round {
	r := store.Round{TournamentID: id, Number: n, PairedAt: time.Date(2026, 11, 26, 10, 0, 0, 0, time.UTC)}
	for i, b := range boards {
		r.Pairings = append(r.Pairings, store.Pairing{Board: i + 1, First: b[0], Second: b[1]})
	}
	return r
}

// applyRound gives the hall a round of the hub's once its director runs.
func applyRound(t *testing.T, ctx context.Context, d *director.Director, r store.Round) {
	t.Helper()
	require.Eventually(t, func() bool {
		applied, err := d.ApplyRound(ctx, r, 1, "hub")
		if errors.Is(err, director.ErrNotRunning) {
			return false
		}
		require.NoError(t, err)
		require.True(t, applied)
		return true
	}, 5*time.Second, 5*time.Millisecond)
}

// A hall changes neither its players nor its tournaments: the hub keeps
// them, and the refusal says so; nothing is stored or audited.
func TestHallKeepsNoRosterOfItsOwn(t *testing.T) {
	d, db, id := hallEvent(t)
	ctx := run(t, d)
	refusals := map[string]error{}
	_, refusals["add-player"] = d.AddPlayer(id, director.NewPlayer{Name: "Late Comer", Rating: 1900}, "chief", "late")
	refusals["withdraw"] = d.Withdraw(ctx, id, 2, false, "chief", "left")
	refusals["readmit"] = d.Readmit(id, 2, "chief", "back")
	refusals["request-bye"] = d.RequestBye(id, 3, 2, director.ResultHalfBye, "chief", "exam")
	refusals["end-tournament"] = d.EndTournament(id, "chief", "snow")
	refusals["round-time-control"] = d.SetRoundTimeControl(id, 2, "15m+10s", "chief", "faster")
	refusals["accelerate"] = d.SetAccelerated(id, "baku", "chief", "big field")
	for what, err := range refusals {
		var kept *director.KeptElsewhereError
		require.ErrorAs(t, err, &kept, what)
		assert.Equal(t, what+" refused in this hall: the players and rounds are kept by the hub: make the change there; this hall follows", err.Error())
	}
	players, err := db.Players(id)
	require.NoError(t, err)
	require.Len(t, players, 6)
	for _, p := range players {
		assert.False(t, p.Withdrawn)
		assert.Empty(t, p.Byes)
	}
	acts, err := db.Actions(0)
	require.NoError(t, err)
	assert.Empty(t, acts)
}

// The hub's players reach a hall: a late entry (a round naming the player
// waits for the roster), a withdrawal and a requested bye are stored as
// the hub has them and audited once; the hub's end of a tournament too; a
// roster that lost players is refused.
func TestHallAppliesHubRoster(t *testing.T) {
	d, db, id := hallEvent(t)
	ctx := run(t, d)
	hub, err := db.Players(id)
	require.NoError(t, err)
	applyRound(t, ctx, d, hubRound(id, 1, [2]int{1, 2}, [2]int{3, 4}, [2]int{5, 6}))

	late := store.Player{TournamentID: id, ID: 7, Name: "Late Comer", Rating: 1900, Joined: 2, Byes: map[int]string{1: "H"}}
	r2 := hubRound(id, 2, [2]int{7, 1}, [2]int{2, 3}, [2]int{4, 5})
	r2.Pairings = append(r2.Pairings, store.Pairing{Board: 4, First: 6, Result: director.ResultBye})
	_, err = d.ApplyRound(ctx, r2, 1, "hub")
	require.ErrorContains(t, err, "round 2 of Club swiss-dutch: board 1: player 7 is not registered in this hall yet")

	hub = append(hub, late)
	hub[1].Withdrawn, hub[1].WithdrawnFrom = true, 3
	hub[2].Byes = map[int]string{3: "H"}
	changed, err := d.ApplyRoster(id, 0, hub, "hub")
	require.NoError(t, err)
	require.True(t, changed)
	players, err := db.Players(id)
	require.NoError(t, err)
	assert.Equal(t, hub, players)
	changed, err = d.ApplyRoster(id, 0, hub, "hub")
	require.NoError(t, err)
	assert.False(t, changed, "the same roster again changes nothing")
	applied, err := d.ApplyRound(ctx, r2, 1, "hub")
	require.NoError(t, err)
	require.True(t, applied, "round 2 follows the roster")

	changed, err = d.ApplyRoster(id, 2, hub, "hub")
	require.NoError(t, err)
	require.True(t, changed)
	tr, err := db.Tournament(id)
	require.NoError(t, err)
	assert.Equal(t, 2, tr.PlayedRounds(), "the hub ended the tournament after round 2")

	_, err = d.ApplyRoster(id, 2, hub[:6], "hub")
	require.ErrorContains(t, err, "the hub's players of Club swiss-dutch: 6, but this hall has 7")

	acts, err := db.Actions(0)
	require.NoError(t, err)
	var roster []string
	for _, a := range acts {
		if a.What == "apply-roster" {
			assert.Equal(t, "hub", a.Who)
			roster = append(roster, a.Data)
		}
	}
	assert.Equal(t, []string{
		"Club swiss-dutch: player 2 B <Player> withdrawn from round 3; player 3 C <Player> byes: H in round 3; player 7 Late Comer entered from round 2",
		"Club swiss-dutch: ends after round 2",
	}, roster)
}

// The hub's results reach a hall: the other halls' boards are stored on
// the round, the result the hub's arbiter set for this hall's game is set
// on the game and audited as the hub's, and the event is complete here
// when every board has its result. A round the hall does not have waits.
func TestHallAppliesHubResults(t *testing.T) {
	d, db, id := hallEvent(t)
	ctx := run(t, d)
	applyRound(t, ctx, d, hubRound(id, 1, [2]int{1, 2}, [2]int{3, 4}, [2]int{5, 6}))
	err := d.ApplyResults(ctx, id, 2, []director.HubResult{{Board: 1, Result: "1-0"}}, "hub")
	require.ErrorContains(t, err, "the hub's results of round 2 of Club swiss-dutch: this hall has 1 rounds; the round comes first")
	err = d.ApplyResults(ctx, id, 1, []director.HubResult{{Board: 9, Result: "1-0"}}, "hub")
	require.ErrorContains(t, err, "board 9 is not in this hall's round")

	results := []director.HubResult{
		{Board: 1, Result: director.ResultSecondForfit, GameResult: "0-1", Reason: "forfeit"},
		{Board: 2, Result: "1/2-1/2", GameResult: "1/2-1/2", Reason: "agreement"},
		{Board: 3, Result: "1-0", GameResult: "1-0", Reason: "resignation"},
	}
	require.NoError(t, d.ApplyResults(ctx, id, 1, results, "hub"))
	rounds, err := db.Rounds(id)
	require.NoError(t, err)
	var got []string
	for _, p := range rounds[0].Pairings {
		got = append(got, p.Result)
	}
	assert.Equal(t, []string{director.ResultSecondForfit, "1/2-1/2", "1-0"}, got)
	g, err := db.Game(rounds[0].Pairings[0].GameID)
	require.NoError(t, err)
	assert.Equal(t, [2]string{"0-1", "forfeit"}, [2]string{g.Result, g.Reason}, "this hall's game has the hub's result")
	assert.Zero(t, rounds[0].Pairings[1].GameID, "another hall's board has no game here")
	acts, err := db.Actions(0)
	require.NoError(t, err)
	i := len(acts) - 1
	for i >= 0 && acts[i].What != "set-result" {
		i--
	}
	require.GreaterOrEqual(t, i, 0, "the hub's result is audited")
	assert.Equal(t, [3]string{"hub", "set-result", "set at the hub: round 1 board 1"}, [3]string{acts[i].Who, acts[i].What, acts[i].Why})
	require.NoError(t, d.ApplyResults(ctx, id, 1, results, "hub"), "again: nothing to do")
	select {
	case <-d.Done():
		t.Fatal("rounds 2 and 3 are not paired yet")
	default:
	}
}

// The hub's director marks absent a player who lost a hall's game by
// forfeit without a move, as one daemon does: the hub's roster then tells
// the halls.
func TestImportedForfeitMarksAbsent(t *testing.T) {
	cfg := eventConfig(t, "swiss-dutch", 4, 3)
	cfg.Tournaments[0].AutoPair = false
	d, db := newEventFrom(t, cfg)
	id := d.TournamentIDs()[0]
	g := store.Game{TournamentID: id, Round: 1, BoardNo: 1, Game: "chess", FirstID: 1, SecondID: 2, Started: time.Now()}
	require.NoError(t, db.CreateGame(&g))
	g.Result, g.Reason = rules.FirstWins.String(), rules.Forfeit.String()
	require.NoError(t, db.SetResult(g.ID, g.Result, g.Reason, g.Started, nil))
	d.ImportedResult(g)
	players, err := db.Players(id)
	require.NoError(t, err)
	assert.True(t, players[1].Absent, "the second player did not appear")
	assert.False(t, players[0].Absent)
}
