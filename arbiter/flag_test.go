package arbiter_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arbiter/arbiter"
	"arbiter/clock"
	"arbiter/rules"
)

func TestCanEverWin(t *testing.T) {
	chess, err := rules.New("chess", nil)
	require.NoError(t, err)
	bare, err := chess.ParsePosition("8/8/8/4k3/8/8/8/4K2Q w - - 0 1")
	require.NoError(t, err)
	assert.Equal(t, clock.Yes, arbiter.CanEverWin(bare, clock.First), "a queen can mate")
	assert.Equal(t, clock.No, arbiter.CanEverWin(bare, clock.Second), "a lone king cannot")

	tav, err := rules.New("tavreli", nil)
	require.NoError(t, err)
	assert.Equal(t, clock.Yes, arbiter.CanEverWin(tav.Start(), clock.Second), "Tavreli does not say: a flag loses")
	assert.Equal(t, clock.Unknown, arbiter.CanEverWin(nil, clock.First))

	var s *arbiter.Session
	adj := arbiter.Adjudicator(func() *arbiter.Session { return s })
	assert.Equal(t, clock.Unknown, adj.CanEverWin(clock.First), "no session yet")
	s, err = arbiter.NewSession(arbiter.DefaultConfig(chess), chess, bare, nil)
	require.NoError(t, err)
	assert.Equal(t, clock.No, adj.CanEverWin(clock.Second), "the session's position")
	assert.Equal(t, clock.Yes, adj.CanEverWin(clock.First))
}
