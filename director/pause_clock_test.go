package director_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arbiter/board"
	"arbiter/rules"
)

// An arbiter's pause stops the board's clock display and a resume runs it
// again, as an addition of time shows at once: a board with a clock of its
// own (a DGT 3000) keeps counting otherwise.
func TestBoardClockFollowsPauseAndResume(t *testing.T) {
	d, rec, t1, ctx := clockedTable(t)
	game := t1.Live().GameID
	lastClock := func() board.Clock {
		if c := rec.lastClock(); c != nil {
			return *c
		}
		return board.Clock{}
	}
	require.NoError(t, d.Pause(ctx, game, "chief", "a player is unwell"))
	paused := lastClock()
	assert.Equal(t, board.SideNone, paused.Running, "paused: the board's clock stands")
	assert.InDelta(t, (5*60+3)*1000, paused.First, 1500, "White's time as it stands (5m+3s)")

	require.NoError(t, d.AddTime(ctx, game, rules.Black, 2*time.Minute, "chief", "disturbed"))
	assert.Equal(t, paused.Second+2*60*1000, lastClock().Second, "Black's two minutes show at once")

	require.NoError(t, d.Resume(ctx, game, "chief", "better"))
	assert.Equal(t, board.SideFirst, lastClock().Running, "resumed: White's clock runs again")
}

// A move made while the clocks are held is shown on the board with both
// clocks standing, the turn passed: the board's clock does not run while
// the game's is held.
func TestBoardClockStandsAfterAMoveWhileHeld(t *testing.T) {
	d, rec, t1, ctx := clockedTable(t)
	game := t1.Live().GameID
	require.NoError(t, d.Pause(ctx, game, "chief", "a dispute"))
	e4 := chessStart()
	e4[12], e4[28] = 0, 1
	t1.Input(ctx, arbiterEvent(d.Now(), e4))
	t1.Input(ctx, press(d.Now(), rules.White))
	require.Eventually(t, func() bool { return t1.Live().Plies == 1 }, 5*time.Second, 10*time.Millisecond, "e4 is taken")
	require.Eventually(t, func() bool {
		c := rec.lastClock()
		return c != nil && c.Running == board.SideNone
	}, 5*time.Second, 10*time.Millisecond, "the board's clock stands: %+v", rec.lastClock())
	require.NoError(t, d.Resume(ctx, game, "chief", "settled"))
	assert.Equal(t, board.SideSecond, rec.lastClock().Running, "resumed: Black's clock runs")
}
