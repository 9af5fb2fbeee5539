package director_test

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arbiter/board"
	"arbiter/director"
	"arbiter/rules"
)

// The board's clock display follows the game's clock when it stops or
// changes without a move: an illegal move's penalty adds two minutes to
// the opponent, and the mover's clock runs once the position is put back
// (issue 18 §1 and §5). Without a CLOCK frame then, the board shows the
// opponent's time without the penalty (and, after a take-back, counts
// down a clock the host holds).
func TestBoardClockFollowsAPenaltyAndARestore(t *testing.T) {
	d, rec, t1, ctx := clockedTable(t)
	lastClock := rec.lastClock
	geo := rules.NewRect(8, 8)
	e2, _ := geo.Lookup("e2")
	e5, _ := geo.Lookup("e5")
	now := d.Now()
	t1.Input(ctx, square(now+time.Millisecond, e2, 0))
	t1.Input(ctx, square(now+2*time.Millisecond, e5, 1))
	t1.Input(ctx, press(now+3*time.Millisecond, rules.White))
	require.Eventually(t, func() bool { return t1.Live().Recovery }, 5*time.Second, 10*time.Millisecond, "no recovery after an illegal move")
	penalised := uint32((5*time.Minute + 3*time.Second + 2*time.Minute) / time.Millisecond)
	require.Eventually(t, func() bool {
		c := lastClock()
		return c != nil && c.Second == penalised
	}, 5*time.Second, 10*time.Millisecond, "the board does not show Black's clock with the two minutes' penalty: %+v", lastClock())
	live := t1.Live().Clock
	want := board.SideNone
	if live[0].Running {
		want = board.SideFirst
	}
	assert.Equal(t, want, lastClock().Running, "the board runs the clock the host runs")

	now = d.Now()
	t1.Input(ctx, square(now+time.Millisecond, e5, 0))
	t1.Input(ctx, square(now+2*time.Millisecond, e2, 1))
	require.Eventually(t, func() bool { return !t1.Live().Recovery }, 5*time.Second, 10*time.Millisecond, "the board was not seen restored")
	require.Eventually(t, func() bool { return lastClock().Running == board.SideFirst }, 5*time.Second, 10*time.Millisecond,
		"the board was not told that White's clock runs again")
}

// clockedTable starts a chess game on table B1 of a new event, whose board
// messages rec records, and waits for its clock to run.
func clockedTable(t *testing.T) (*director.Director, *recorder, *director.Table, context.Context) {
	t.Helper()
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
	return d, rec, t1, ctx
}

// lastClock is the last clock the board was sent, or nil.
func (r *recorder) lastClock() *board.Clock {
	var clk *board.Clock
	for _, m := range r.messages() {
		if c, ok := m.(*board.Clock); ok {
			clk = c
		}
	}
	return clk
}
