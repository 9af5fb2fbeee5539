package clock

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestBlockMoves(t *testing.T) {
	const most = maxCount * maxCount
	for _, tc := range []struct {
		moves, step, k, want int
	}{
		{25, 0, 0, 25},
		{25, 0, maxCount, 25},
		{25, 0, maxCount + 1, 25}, // flagged a steady block after 100000 blocks
		{25, 0, 1 << 40, 25},
		{10, 10, 0, 10},
		{10, 10, 3, 40},
		{1, 1, maxCount + 1, maxCount + 2},
		{10, 10, most / 10, most},
		{maxCount, maxCount, 1 << 40, most},
	} {
		o := Overtime{Kind: Canadian, Moves: tc.moves, Step: tc.step, Block: time.Minute}
		assert.Equal(t, tc.want, o.blockMoves(tc.k), "%d+%d block %d", tc.moves, tc.step, tc.k)
	}
}

// TestCanadianManyBlocks: a steady Canadian block never flags a player who
// keeps making the moves, however many blocks the game lasts.
func TestCanadianManyBlocks(t *testing.T) {
	c := mustClock(t, "0:can=1/1s", Options{})
	require.NoError(t, c.Start(0))
	at, side := time.Duration(0), First
	for i := range 2 * (maxCount + 2000) {
		at += time.Millisecond
		_, err := c.Press(side, at)
		require.NoError(t, err, "press %d", i+1)
		side = side.Other()
	}
}
