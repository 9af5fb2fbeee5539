package director_test

import (
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arbiter/board"
)

// Boards that say hello at the same time (the boards of a DGT bus line,
// found by one ping) each take a table and a game of their own.
func TestBoardsAdoptedAtOnce(t *testing.T) {
	d, db, ctx := pairedEvent(t, 6)

	boards := []string{"NEW-1", "NEW-2", "NEW-3"}
	var wg sync.WaitGroup
	for _, b := range boards {
		wg.Go(func() {
			d.BoardEvent(ctx, board.Event{Kind: board.EventHello, Board: b,
				Info: &board.Info{ID: b, Caps: board.CapHeight, Width: 8, Height: 8, Cells: 64}})
		})
	}
	wg.Wait()
	games := map[uint64]string{}
	for _, b := range boards {
		tbl, ok := d.Table(b)
		require.True(t, ok, "board %s has a table", b)
		require.Eventually(t, func() bool { return tbl.Live().GameID != 0 }, 5*time.Second, 10*time.Millisecond, "board %s plays", b)
		g := tbl.Live().GameID
		assert.NotContains(t, games, g, "board %s plays the game of board %s", b, games[g])
		games[g] = b
		stored, err := db.Game(g)
		require.NoError(t, err)
		assert.Equal(t, b, stored.BoardID, "game %d records its board", g)
	}
}
