package director_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arbiter/rules"
)

// A Tavreli move committed on release and changed before its press is
// replaced in the store at its ply, with an audited action (issue 18 §1).
func TestAmendedMoveReplacesTheStoredOne(t *testing.T) {
	g := newBoardGame(t, "tavreli", "")
	g.setUp()
	sensor := func(name string) rules.Square {
		sq, ok := g.geo.Lookup(name)
		require.True(t, ok, name)
		return rules.Square(g.geo.SensorIndex(sq))
	}
	settle := func(what string, done func() bool) {
		t.Helper()
		require.Eventually(t, func() bool {
			g.tbl.Input(g.ctx, heartbeat(g.d.Now()))
			return done()
		}, 5*time.Second, 50*time.Millisecond, what)
	}
	now := g.d.Now()
	g.tbl.Input(g.ctx, square(now, sensor("e2"), 0))
	g.tbl.Input(g.ctx, square(now+time.Millisecond, sensor("e3"), 1))
	settle("e2-e3 committed on release", func() bool { return g.tbl.Live().Plies == 1 })

	// The pawn goes on to e4 before White presses: e2-e4 is the move.
	now = g.d.Now()
	g.tbl.Input(g.ctx, square(now, sensor("e3"), 0))
	g.tbl.Input(g.ctx, square(now+time.Millisecond, sensor("e4"), 1))
	settle("the move amended", func() bool { return g.tbl.Live().LastMove == "e2-e4" })

	moves, err := g.db.Moves(g.id)
	require.NoError(t, err)
	require.Len(t, moves, 1)
	assert.Equal(t, "e2-e4", moves[0].Notation)
	assert.Equal(t, 1, moves[0].Ply)
	acts := g.actions()["amend-move"]
	require.Len(t, acts, 1)
	assert.Equal(t, "ply 1: e2-e4, was e2-e3", acts[0].Data)
	assert.Equal(t, 1, g.tbl.Live().Plies)
}

// After the arbiter takes a move back, the clock runs for the side to move
// again, not for the opponent (issue 18 §1).
func TestTakeBackRunsTheMoversClock(t *testing.T) {
	g := newBoardGame(t, "chess", "")
	g.setUp()
	g.move("e2", "e4", rules.White)
	require.Eventually(t, func() bool { return g.tbl.Live().Clock[1].Running }, 5*time.Second, 10*time.Millisecond, "Black's clock runs after e4")
	require.NoError(t, g.d.TakeBack(g.ctx, g.id, "chief", "e4 was played by mistake"))
	live := g.tbl.Live()
	assert.True(t, live.Clock[0].Running, "White's clock runs again")
	assert.False(t, live.Clock[1].Running, "Black's clock is stopped")
	assert.True(t, live.Recovery, "the board is to be put back")
}
