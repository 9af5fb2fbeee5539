package arbiter_test

import (
	"testing"

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
