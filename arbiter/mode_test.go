package arbiter_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arbiter/arbiter"
	"arbiter/rules"
)

// dumpOf is a state dump showing position p on a heights-only board.
func dumpOf(g rules.Game, p rules.Position, at time.Duration) arbiter.Event {
	geo := g.Geometry()
	h := p.View().Heights(nil)
	e := arbiter.Event{Kind: arbiter.StateDump, At: at, Heights: make([]int, len(h))}
	for i := range h {
		e.Heights[i] = h[geo.SensorSquare(i)]
	}
	return e
}

// TestTakeBackWhileSettingUp pins how the set-up and a recovery overlap
// (issue 23): a move taken back while a resumed game waits for its
// position asks for a recovery that outlives the set-up, until the board
// changes.
func TestTakeBackWhileSettingUp(t *testing.T) {
	g, err := rules.New("chess", nil)
	require.NoError(t, err)
	cfg := arbiter.DefaultConfig(g)
	cfg.AwaitSetup = true
	s, err := arbiter.NewSession(cfg, g, nil, nil)
	require.NoError(t, err)
	require.NoError(t, s.Resume([]string{"e4"}))
	require.Empty(t, s.Start(0))
	resumed := s.Position()

	summaries := func(outs []arbiter.Output) []string {
		var got []string
		for _, o := range outs {
			got = append(got, fmt.Sprintf("%T", o))
		}
		return got
	}
	outs, err := s.TakeBack(time.Second)
	require.NoError(t, err)
	assert.Equal(t, []string{"arbiter.Recovery"}, summaries(outs))
	assert.True(t, s.SettingUp())
	assert.True(t, s.InRecovery())

	sq := func(name string) rules.Square {
		q, ok := g.Geometry().Lookup(name)
		require.True(t, ok, name)
		return q
	}
	change := func(name string, h int, at time.Duration) []string {
		return summaries(s.Handle(arbiter.Event{Kind: arbiter.SquareChanged, At: at,
			Square: rules.Square(g.Geometry().SensorIndex(sq(name))), Height: h}))
	}
	// The board shows the resumed game; then the move is taken back on
	// it, and once settled the set-up is done, the recovery still open
	// until the board changes.
	assert.Empty(t, summaries(s.Handle(dumpOf(g, resumed, 2*time.Second))))
	assert.True(t, s.InRecovery())
	assert.Empty(t, change("e4", 0, 3*time.Second))
	assert.Empty(t, change("e2", 1, 3200*time.Millisecond))
	assert.Equal(t, []string{"arbiter.Started"}, summaries(s.Tick(4*time.Second)))
	assert.False(t, s.SettingUp())
	assert.True(t, s.InRecovery())
	assert.Empty(t, change("g1", 0, 5*time.Second))
	assert.Equal(t, []string{"arbiter.Recovery"}, change("g1", 1, 5200*time.Millisecond))
	assert.False(t, s.InRecovery())
}
