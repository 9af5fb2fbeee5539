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
	d, _ := newEvent(t, "swiss-dutch", 4, 1)
	rec := &recorder{}
	d.SetSender(rec)
	t1, err := d.AddTable(d.TournamentIDs()[0], "B1")
	require.NoError(t, err)
	ctx := run(t, d)
	require.Eventually(t, func() bool { return t1.Live().GameID != 0 }, 5*time.Second, 10*time.Millisecond)
	t1.Input(ctx, arbiterEvent(d.Now(), chessStart()))
	time.Sleep(400 * time.Millisecond)
	t1.Input(ctx, heartbeat(d.Now()))
	require.Eventually(t, func() bool { return t1.Live().Clock[0].Running }, 5*time.Second, 10*time.Millisecond, "the clock did not start after the set-up")
	game := t1.Live().GameID

	lastClock := func() board.Clock {
		msgs := rec.messages()
		for i := len(msgs) - 1; i >= 0; i-- {
			if c, ok := msgs[i].(*board.Clock); ok {
				return *c
			}
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
