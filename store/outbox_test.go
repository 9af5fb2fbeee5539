package store_test

import (
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arbiter/store"
)

func TestOutboxPendingAfterCursor(t *testing.T) {
	path := filepath.Join(t.TempDir(), "hall.db")
	db, err := store.Open(path, nil)
	require.NoError(t, err)
	g := newGame(t, db)
	for ply := 1; ply <= 3; ply++ {
		m := move(g.ID, ply)
		require.NoError(t, db.AppendMove(&m))
	}

	items, err := db.OutboxPending(0)
	require.NoError(t, err)
	require.Len(t, items, 1)
	assert.False(t, items[0].Cursor.Game)
	assert.Len(t, items[0].Moves, 3)

	// A limit sends a backlog in parts.
	items, err = db.OutboxPending(2)
	require.NoError(t, err)
	require.Len(t, items, 1)
	assert.Len(t, items[0].Moves, 2)

	require.NoError(t, db.SetOutboxCursors(map[uint64]store.OutboxCursor{g.ID: {Game: true, Ply: 2}}))
	// The cursor survives a restart.
	require.NoError(t, db.Close())
	db, err = store.Open(path, nil)
	require.NoError(t, err)
	t.Cleanup(func() { db.Close() })

	items, err = db.OutboxPending(0)
	require.NoError(t, err)
	require.Len(t, items, 1)
	require.Len(t, items[0].Moves, 1)
	assert.Equal(t, 3, items[0].Moves[0].Ply)

	// A cursor never moves back.
	require.NoError(t, db.SetOutboxCursors(map[uint64]store.OutboxCursor{g.ID: {Ply: 1}}))
	c, err := db.OutboxCursorOf(g.ID)
	require.NoError(t, err)
	assert.Equal(t, store.OutboxCursor{Game: true, Ply: 2}, c)

	require.NoError(t, db.SetOutboxCursors(map[uint64]store.OutboxCursor{g.ID: {Game: true, Ply: 3}}))
	items, err = db.OutboxPending(0)
	require.NoError(t, err)
	assert.Empty(t, items)

	require.NoError(t, db.SetResult(g.ID, "1-0", "checkmate", wall, nil))
	items, err = db.OutboxPending(0)
	require.NoError(t, err)
	require.Len(t, items, 1)
	assert.Equal(t, "1-0", items[0].Game.Result)
	assert.Empty(t, items[0].Moves)

	require.NoError(t, db.SetOutboxCursors(map[uint64]store.OutboxCursor{g.ID: {Game: true, Ply: 3, Result: true}}))
	items, err = db.OutboxPending(0)
	require.NoError(t, err)
	assert.Empty(t, items)
}

func TestOutboxResultWaitsForItsMoves(t *testing.T) {
	db, _ := openTemp(t)
	g := newGame(t, db)
	for ply := 1; ply <= 3; ply++ {
		m := move(g.ID, ply)
		require.NoError(t, db.AppendMove(&m))
	}
	require.NoError(t, db.SetResult(g.ID, "0-1", "resignation", wall, nil))
	items, err := db.OutboxPending(2)
	require.NoError(t, err)
	require.Len(t, items, 1)
	assert.Len(t, items[0].Moves, 2)
	assert.Empty(t, items[0].Game.Result, "the result must not be sent before the moves left for the next part")
}

func TestImportExactlyOnceInOrder(t *testing.T) {
	hub, _ := openTemp(t)
	tr := store.Tournament{Name: "Open", Game: "chess", System: "swiss-dutch", Rounds: 1}
	require.NoError(t, hub.CreateTournament(&tr))
	for i, name := range []string{"A", "B"} {
		require.NoError(t, hub.PutPlayer(&store.Player{TournamentID: tr.ID, ID: i + 1, Name: name}))
	}
	require.NoError(t, hub.PutRound(&store.Round{TournamentID: tr.ID, Number: 1,
		Pairings: []store.Pairing{{Board: 7, First: 1, Second: 2}}}))

	hallGame := store.Game{ID: 42, TournamentID: tr.ID, Round: 1, BoardNo: 7, Game: "chess",
		First: "A", Second: "B", FirstID: 1, SecondID: 2, Started: wall, Position: "hall-pos"}
	id, created, err := hub.ImportGame("east", 42, hallGame)
	require.NoError(t, err)
	assert.True(t, created)
	again, created, err := hub.ImportGame("east", 42, hallGame)
	require.NoError(t, err)
	assert.False(t, created)
	assert.Equal(t, id, again)
	// The same hall game ID of another hall is another game.
	other := hallGame
	other.BoardNo = 8
	_, _, err = hub.ImportGame("west", 42, other)
	require.ErrorIs(t, err, store.ErrNotFound, "board 8 is not paired")

	rounds, err := hub.Rounds(tr.ID)
	require.NoError(t, err)
	assert.Equal(t, id, rounds[0].Pairings[0].GameID)

	m1, m2, m3 := move(42, 1), move(42, 2), move(42, 3)
	_, err = hub.ImportMove("east", 42, m2)
	require.ErrorIs(t, err, store.ErrOutOfOrder)
	applied, err := hub.ImportMove("east", 42, m1)
	require.NoError(t, err)
	assert.True(t, applied)
	applied, err = hub.ImportMove("east", 42, m1)
	require.NoError(t, err)
	assert.False(t, applied, "a redelivered move is skipped")
	changed := m1
	changed.Notation = "d2-d4"
	_, err = hub.ImportMove("east", 42, changed)
	require.ErrorIs(t, err, store.ErrDuplicate)
	for _, m := range []store.Move{m2, m3} {
		_, err = hub.ImportMove("east", 42, m)
		require.NoError(t, err)
	}
	ms, err := hub.Moves(id)
	require.NoError(t, err)
	require.Len(t, ms, 3)
	for i, m := range ms {
		assert.Equal(t, i+1, m.Ply)
		assert.Equal(t, id, m.GameID)
	}

	require.ErrorIs(t, hub.ImportResult("east", 42, "1-0", "resignation", wall, 4), store.ErrOutOfOrder,
		"a result waits for the moves before it")
	require.NoError(t, hub.ImportResult("east", 42, "1-0", "resignation", wall, 3))
	require.NoError(t, hub.ImportResult("east", 42, "1-0", "resignation", wall, 3))
	rounds, err = hub.Rounds(tr.ID)
	require.NoError(t, err)
	assert.Equal(t, "1-0", rounds[0].Pairings[0].Result)

	_, err = hub.ImportMove("north", 1, m1)
	require.ErrorIs(t, err, store.ErrNotFound)
}

func TestImportGameRefusesOtherPlayers(t *testing.T) {
	hub, _ := openTemp(t)
	tr := store.Tournament{Name: "Open", Game: "chess", System: "swiss-dutch", Rounds: 1}
	require.NoError(t, hub.CreateTournament(&tr))
	require.NoError(t, hub.PutRound(&store.Round{TournamentID: tr.ID, Number: 1,
		Pairings: []store.Pairing{{Board: 1, First: 1, Second: 2}}}))
	_, _, err := hub.ImportGame("east", 1, store.Game{TournamentID: tr.ID, Round: 1, BoardNo: 1,
		Game: "chess", FirstID: 2, SecondID: 1, Started: wall})
	require.ErrorContains(t, err, "board 1 is paired 1-2, but hall east game 1 plays 2-1")
	gs, err := hub.Games()
	require.NoError(t, err)
	assert.Empty(t, gs, "a refused game stores nothing")
}
