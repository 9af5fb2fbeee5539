package store

import (
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// ImportRecord stores a game, its moves, its result on the pairing and
// its audit in one transaction: all or nothing.
func TestImportRecordAllOrNothing(t *testing.T) {
	db, err := Open(filepath.Join(t.TempDir(), "i.db"), nil)
	require.NoError(t, err)
	defer db.Close()
	tour := &Tournament{Name: "T", Game: "chess", System: "swiss-dutch", Rounds: 1}
	require.NoError(t, db.CreateTournament(tour))
	paired := &Game{TournamentID: tour.ID, Round: 1, BoardNo: 1, Game: "chess", First: "A", Second: "B", FirstID: 1, SecondID: 2}
	require.NoError(t, db.CreateGame(paired))
	require.NoError(t, db.PutRound(&Round{TournamentID: tour.ID, Number: 1, Pairings: []Pairing{{Board: 1, First: 1, Second: 2, GameID: paired.ID}}}))
	moves := func(plies ...int) []Move {
		var ms []Move
		for _, p := range plies {
			ms = append(ms, Move{Ply: p, Canonical: "e2e4"})
		}
		return ms
	}
	act := func() *Action { return &Action{Who: "test", What: "import", At: time.Unix(1, 0)} }
	count := func() (games, actions int) {
		gs, err := db.Games()
		require.NoError(t, err)
		as, err := db.Actions(0)
		require.NoError(t, err)
		return len(gs), len(as)
	}

	// A gap in the plies: nothing stored, not even the game.
	bad := &Game{Game: "chess", First: "X", Second: "Y", Result: "1-0"}
	require.Error(t, db.ImportRecord(bad, moves(1, 3), act()))
	g, a := count()
	assert.Equal(t, 1, g)
	assert.Equal(t, 0, a)

	// Into the paired game: its moves, its result on the pairing, audited.
	into := *paired
	into.Result, into.Reason = "0-1", "resignation"
	require.NoError(t, db.ImportRecord(&into, moves(1, 2), act()))
	rounds, err := db.Rounds(tour.ID)
	require.NoError(t, err)
	assert.Equal(t, "0-1", rounds[0].Pairings[0].Result)
	ms, err := db.Moves(paired.ID)
	require.NoError(t, err)
	assert.Len(t, ms, 2)
	_, a = count()
	assert.Equal(t, 1, a)

	// A game that has its moves is not imported into again.
	again := *paired
	assert.ErrorContains(t, db.ImportRecord(&again, moves(1), act()), "already has the result")
}
