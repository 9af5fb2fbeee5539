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
