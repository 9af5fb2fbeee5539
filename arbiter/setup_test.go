package arbiter_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arbiter/arbiter"
	"arbiter/rules"
)

// TestSetupDiff checks the console's view of a board being set up: the
// differences from the start position in the players' words while the
// session waits, a deadline for the set-up alert, the alert's squares lit,
// and nothing once the game has started at the instant the board came
// right.
func TestSetupDiff(t *testing.T) {
	g, err := rules.New("chess", nil)
	require.NoError(t, err)
	geo := g.Geometry()
	cfg := arbiter.DefaultConfig(g)
	cfg.AwaitSetup = true
	cfg.Caps = arbiter.Caps{TopKind: true, TopColor: true}
	s, err := arbiter.NewSession(cfg, g, nil, nil)
	require.NoError(t, err)
	require.Empty(t, s.Start(0))
	sq := func(name string) rules.Square {
		q, ok := geo.Lookup(name)
		require.True(t, ok, name)
		return q
	}
	// The board's dump: the start position with e2 empty and a black
	// queen on d1.
	heights := g.Start().View().Heights(nil)
	tops := make([]rules.Piece, len(heights))
	for i := range tops {
		tops[i], _ = g.Start().View().Top(rules.Square(i))
	}
	heights[sq("e2")] = 0
	tops[sq("e2")] = rules.Piece{}
	tops[sq("d1")] = rules.Piece{Color: rules.Black, Kind: 'Q'}
	dump := arbiter.Event{Kind: arbiter.StateDump, At: time.Second, Heights: make([]int, len(heights)), Tops: make([]rules.Piece, len(heights))}
	for i := range heights {
		dump.Heights[i], dump.Tops[i] = heights[geo.SensorSquare(i)], tops[geo.SensorSquare(i)]
	}
	require.Empty(t, s.Handle(dump))

	var texts []string
	for _, f := range s.SetupDiff() {
		texts = append(texts, f.String())
	}
	assert.Equal(t, []string{"d1: a black queen, expected a white queen", "e2 empty, expected a white pawn"}, texts)
	next, ok := s.NextDeadline()
	require.True(t, ok)
	assert.Equal(t, 1*time.Second+cfg.Settle, next, "first the settle")
	require.Empty(t, s.Tick(next))
	next, ok = s.NextDeadline()
	require.True(t, ok)
	assert.Equal(t, 1*time.Second+cfg.SetupAlertAfter, next, "then the set-up alert")
	outs := s.Tick(next)
	require.Len(t, outs, 1)
	a, ok := outs[0].(arbiter.Alert)
	require.True(t, ok, "%v", outs)
	assert.Equal(t, arbiter.SetupAlert, a.Kind)
	assert.ElementsMatch(t, []rules.Square{sq("d1"), sq("e2")}, a.Squares)
	assert.NotEmpty(t, a.Kind.Advice())

	// Put right at 7 s and 8 s: the game starts at 8 s, not when judged.
	s.Handle(arbiter.Event{Kind: arbiter.SquareChanged, At: 7 * time.Second, Square: rules.Square(geo.SensorIndex(sq("d1"))), Height: 1, Top: rules.Piece{Kind: 'Q'}})
	s.Handle(arbiter.Event{Kind: arbiter.SquareChanged, At: 8 * time.Second, Square: rules.Square(geo.SensorIndex(sq("e2"))), Height: 1, Top: rules.Piece{Kind: 'P'}})
	require.Empty(t, s.SetupDiff())
	outs = s.Tick(9 * time.Second)
	require.Len(t, outs, 1)
	assert.Equal(t, arbiter.Started{At: 8 * time.Second}, outs[0])
	assert.False(t, s.SettingUp())
	assert.Nil(t, s.SetupDiff())
}

// TestSetupAlertAfterValidated: a set-up alert sooner than the board
// settles makes no sense.
func TestSetupAlertAfterValidated(t *testing.T) {
	g, err := rules.New("chess", nil)
	require.NoError(t, err)
	cfg := arbiter.DefaultConfig(g)
	cfg.AwaitSetup = true
	cfg.SetupAlertAfter = cfg.Settle / 2
	_, err = arbiter.NewSession(cfg, g, nil, nil)
	require.ErrorContains(t, err, "set-up alert delay")
}

// TestSetupAlertResumed: a game resumed from its stored moves waits for
// its own position, and the set-up alert says so.
func TestSetupAlertResumed(t *testing.T) {
	g, err := rules.New("chess", nil)
	require.NoError(t, err)
	cfg := arbiter.DefaultConfig(g)
	cfg.AwaitSetup = true
	s, err := arbiter.NewSession(cfg, g, nil, nil)
	require.NoError(t, err)
	require.NoError(t, s.Resume([]string{"e4"}))
	s.Start(0)
	geo := g.Geometry()
	dump := arbiter.Event{Kind: arbiter.StateDump, At: time.Second, Heights: make([]int, geo.Len())}
	start := g.Start().View()
	for i := range dump.Heights {
		dump.Heights[i] = start.Height(geo.SensorSquare(i))
	}
	s.Handle(dump)
	outs := s.Tick(time.Second + cfg.SetupAlertAfter)
	require.Len(t, outs, 1)
	a, ok := outs[0].(arbiter.Alert)
	require.True(t, ok, "%v", outs)
	assert.Equal(t, "the board does not show the position of the game resumed: extra piece on e2; e4 empty, expected a white pawn", a.Message)
}
