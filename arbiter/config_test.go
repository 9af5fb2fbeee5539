package arbiter_test

import (
	"fmt"
	"math"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arbiter/arbiter"
	"arbiter/rules"
)

func TestBoardConfig(t *testing.T) {
	shogi, err := rules.New("shogi", nil)
	require.NoError(t, err)
	c, err := arbiter.BoardConfig(shogi, "", "")
	require.NoError(t, err)
	assert.True(t, c.AwaitSetup)
	assert.True(t, c.BoardTime)
	assert.Equal(t, arbiter.LossPenalty, c.Penalty, "shogi's own rule: a foul loses")
	assert.Equal(t, arbiter.Off, c.TouchMove)

	tav, err := rules.New("tavreli", nil)
	require.NoError(t, err)
	c, err = arbiter.BoardConfig(tav, "report", "chess")
	require.NoError(t, err)
	assert.Equal(t, arbiter.Report, c.TouchMove)
	assert.Equal(t, arbiter.ChessPenalty, c.Penalty)
	assert.Equal(t, arbiter.OnRelease, c.Completion)

	_, err = arbiter.BoardConfig(tav, "sometimes", "")
	assert.ErrorContains(t, err, `touch-move policy "sometimes"`)
	_, err = arbiter.BoardConfig(tav, "", "fine")
	assert.ErrorContains(t, err, `illegal-move policy "fine"`)
}

// Each game's own illegal-move default, and the event's word over it
// (issue 18 §2).
func TestIllegalMoveDefaults(t *testing.T) {
	for _, tc := range []struct {
		game    string
		opts    rules.Options
		policy  string
		penalty arbiter.Penalty
		add     time.Duration
		lossAt  int
	}{
		{game: "chess", penalty: arbiter.ChessPenalty, add: 2 * time.Minute, lossAt: 2},
		{game: "tensor", penalty: arbiter.ChessPenalty, add: 2 * time.Minute, lossAt: 2},
		{game: "shogi", penalty: arbiter.LossPenalty, add: 2 * time.Minute, lossAt: 2},
		{game: "tavreli", penalty: arbiter.ReportOnly, add: 2 * time.Minute, lossAt: 2},
		{game: "tavreli", policy: "chess", penalty: arbiter.ChessPenalty, add: 2 * time.Minute, lossAt: 2},
		{game: "kvaa", penalty: arbiter.ReportOnly, add: 2 * time.Minute, lossAt: 2},
		{game: "kvaa", opts: rules.Options{"illegal_policy": "time_penalty:30"}, penalty: arbiter.ChessPenalty, add: 30 * time.Second, lossAt: math.MaxInt},
		{game: "kvaa", opts: rules.Options{"illegal_policy": "forfeit_after:3"}, penalty: arbiter.ChessPenalty, lossAt: 3},
		{game: "kvaa", opts: rules.Options{"illegal_policy": "forfeit_after:3"}, policy: "chess", penalty: arbiter.ChessPenalty, add: 2 * time.Minute, lossAt: 2},
		{game: "kvaa", opts: rules.Options{"illegal_policy": "time_penalty:30"}, policy: "loss", penalty: arbiter.LossPenalty, add: 30 * time.Second, lossAt: math.MaxInt},
	} {
		t.Run(fmt.Sprintf("%s %v %s", tc.game, tc.opts, tc.policy), func(t *testing.T) {
			g, err := rules.New(tc.game, tc.opts)
			require.NoError(t, err)
			c, err := arbiter.BoardConfig(g, "", tc.policy)
			require.NoError(t, err)
			assert.Equal(t, tc.penalty, c.Penalty)
			assert.Equal(t, tc.add, c.IllegalAddTime)
			assert.Equal(t, tc.lossAt, c.IllegalLossAt)
			require.NoError(t, c.Validate())
		})
	}
}
