package store_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arbiter/store"
)

// Moves entered together are stored with their action, all or none.
func TestAppendMoves(t *testing.T) {
	db, _ := openTemp(t)
	g := store.Game{Game: "chess", First: "A", Second: "B", Started: wall}
	require.NoError(t, db.CreateGame(&g))
	mv := func(ply int, note string) store.Move {
		return store.Move{GameID: g.ID, Ply: ply, Notation: note, Position: "after " + note, Wall: wall}
	}
	act := func() *store.Action {
		return &store.Action{GameID: g.ID, Who: "chief", What: "enter-moves", At: wall}
	}
	err := db.AppendMoves([]store.Move{mv(1, "e4"), mv(2, "e5"), mv(4, "Nf3")}, act())
	require.ErrorContains(t, err, "the last stored ply is 2")
	ms, err := db.Moves(g.ID)
	require.NoError(t, err)
	assert.Empty(t, ms, "no move of a refused batch is stored")
	acts, err := db.Actions(0)
	require.NoError(t, err)
	assert.Empty(t, acts, "nor its action")
	require.ErrorContains(t, db.AppendMoves([]store.Move{mv(1, "e4")}, nil), "an action with who and what is required")

	require.NoError(t, db.AppendMoves([]store.Move{mv(1, "e4"), mv(2, "e5"), mv(3, "Nf3")}, act()))
	ms, err = db.Moves(g.ID)
	require.NoError(t, err)
	require.Len(t, ms, 3)
	got, err := db.Game(g.ID)
	require.NoError(t, err)
	assert.Equal(t, "after Nf3", got.Position)
	acts, err = db.Actions(g.ID)
	require.NoError(t, err)
	assert.Len(t, acts, 1)
}

// A game changed by an arbiter's action is stored with it, or neither is.
func TestChangeGame(t *testing.T) {
	db, _ := openTemp(t)
	g := store.Game{Game: "shogi", First: "A", Second: "B", Started: wall}
	require.NoError(t, db.CreateGame(&g))
	g.Options = "handicap=bishop"
	require.NoError(t, db.ChangeGame(&g, &store.Action{GameID: g.ID, Who: "chief", What: "handicap", At: wall}))
	got, err := db.Game(g.ID)
	require.NoError(t, err)
	assert.Equal(t, "handicap=bishop", got.Options)
	acts, err := db.Actions(g.ID)
	require.NoError(t, err)
	assert.Len(t, acts, 1)

	missing := store.Game{ID: 99, Game: "shogi"}
	require.ErrorIs(t, db.ChangeGame(&missing, &store.Action{GameID: 99, Who: "chief", What: "handicap", At: wall}), store.ErrNotFound)
	require.ErrorContains(t, db.ChangeGame(&g, &store.Action{What: "handicap"}), "who and what")
	acts, err = db.Actions(0)
	require.NoError(t, err)
	assert.Len(t, acts, 1, "no action without its change")
}
