package arbiter_test

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arbiter/arbiter"
	"arbiter/board"
	"arbiter/rules"
)

// TestSessionExpectsWhatBoardsSend starts a game that waits for its setup
// on boards of every class of top-piece sensing, fed the dump such a board
// sends of the start position (board.Sensor, as the simulator
// builds it): the session must see the start position in it. A board
// senses a piece's colour or face only along with its kind.
func TestSessionExpectsWhatBoardsSend(t *testing.T) {
	for _, name := range []string{"chess", "shogi", "tavreli"} {
		g, err := rules.New(name, nil)
		require.NoError(t, err)
		for _, caps := range []board.Caps{board.CapHeight, board.CapHeight | board.CapColor, board.CapHeight | board.CapFace,
			board.CapHeight | board.CapColor | board.CapFace, board.CapHeight | board.CapIdentity,
			board.CapHeight | board.CapIdentity | board.CapColor, board.CapHeight | board.CapIdentity | board.CapFace,
			board.CapHeight | board.CapIdentity | board.CapColor | board.CapFace} {
			cfg := arbiter.DefaultConfig(g)
			cfg.AwaitSetup = true
			cfg.Caps = arbiter.CapsOf(caps)
			start := g.Start()
			s, err := arbiter.NewSession(cfg, g, start, nil)
			require.NoError(t, err)
			s.Start(0)
			dump := board.Event{Kind: board.EventSnapshot, At: time.Second,
				Snapshot: &board.Snapshot{Squares: board.Sensor{Caps: caps}.View(g.Geometry(), start.View())}}
			ev, ok := arbiter.FromSensor(dump)
			require.True(t, ok)
			s.Handle(ev)
			s.Tick(5 * time.Second)
			require.False(t, s.SettingUp(), "%s on a board with capabilities %#x: the start position is not seen", name, caps)
		}
	}
}

// TestFromSensorHealth checks which changes of a link's health a session
// hears of: losing the board and having it back.
func TestFromSensorHealth(t *testing.T) {
	for h, want := range map[board.Health]arbiter.EventKind{
		board.Disconnected: arbiter.LinkLost, board.NotResponding: arbiter.LinkLost, board.Active: arbiter.LinkRestored,
	} {
		ev, ok := arbiter.FromSensor(board.Event{Kind: board.EventHealth, Health: h, Host: 3 * time.Second, At: time.Second, Mapped: true})
		require.True(t, ok, h.String())
		require.Equal(t, want, ev.Kind, h.String())
		require.Equal(t, 3*time.Second, ev.At, "%s: the driver's instant", h)
	}
	for _, h := range []board.Health{board.Connecting, board.Delayed} {
		_, ok := arbiter.FromSensor(board.Event{Kind: board.EventHealth, Health: h})
		require.False(t, ok, h.String())
	}
}

// TestFromSensorLiveness checks that a heartbeat and a reading of the
// board's own clock both tell the session that the board is alive at
// their instant.
func TestFromSensorLiveness(t *testing.T) {
	for _, e := range []board.Event{
		{Kind: board.EventHeartbeat, Host: 2 * time.Second},
		{Kind: board.EventClock, Host: 2 * time.Second, Clock: &board.ClockReading{First: time.Minute, Second: time.Minute}},
	} {
		ev, ok := arbiter.FromSensor(e)
		require.True(t, ok, e.Kind.String())
		require.Equal(t, arbiter.Heartbeat, ev.Kind, e.Kind.String())
		require.Equal(t, 2*time.Second, ev.At, e.Kind.String())
	}
}

// TestAlertsNameSquaresAsThePlayers checks that alerts and their evidence
// name squares as the game does: in shogi "3c", not the geometry's "g3".
func TestAlertsNameSquaresAsThePlayers(t *testing.T) {
	g, err := rules.New("shogi", nil)
	require.NoError(t, err)
	cfg := arbiter.DefaultConfig(g)
	cfg.Penalty = arbiter.ReportOnly // the illegal move below asks for a recovery
	s, err := arbiter.NewSession(cfg, g, g.Start(), nil)
	require.NoError(t, err)
	s.Start(0)
	geo := g.Geometry()
	at := time.Duration(0)
	set := func(name string, h int) {
		sq, ok := geo.Lookup(name)
		require.True(t, ok, name)
		at += 200 * time.Millisecond
		s.Handle(arbiter.Event{Kind: arbiter.SquareChanged, At: at, Square: rules.Square(geo.SensorIndex(sq)), Height: h})
	}
	// Sente lifts gote's pawn on 3c (g3) and puts it back, then plays 7g-7f
	// (c7-c6) and presses.
	set("g3", 0)
	set("g3", 1)
	set("c7", 0)
	set("c6", 1)
	out := s.Handle(arbiter.Event{Kind: arbiter.ClockPressed, Side: rules.First, At: at + time.Second})
	var alert *arbiter.Alert
	for _, o := range out {
		if a, ok := o.(arbiter.Alert); ok && a.Kind == arbiter.IrregularityAlert {
			alert = &a
		}
	}
	require.NotNil(t, alert, "outputs %v", out)
	require.Contains(t, alert.Message, "the opponent's piece on 3c was lifted")
	require.Contains(t, strings.Join(alert.Evidence, "\n"), "lift 3c")

	// Gote's pawn on 3c goes two squares, to 3e (g5): an illegal move, and
	// the recovery names the squares to put right.
	set("g3", 0)
	set("g5", 1)
	out = s.Handle(arbiter.Event{Kind: arbiter.ClockPressed, Side: rules.Second, At: at + time.Second})
	var rec *arbiter.Recovery
	for _, o := range out {
		if r, ok := o.(arbiter.Recovery); ok {
			rec = &r
		}
	}
	require.NotNil(t, rec, "outputs %v", out)
	var names []string
	for _, f := range rec.Fixes {
		names = append(names, f.Name)
	}
	assert.ElementsMatch(t, []string{"3c", "3e"}, names)
	assert.Contains(t, rec.String(), "3c empty, expected a gote pawn; extra piece on 3e")
}

// TestFromSensorHistory checks that a board's own log becomes a Recalled
// event with each press's board in dump form and its side, and that a log
// the driver could not read is none.
func TestFromSensorHistory(t *testing.T) {
	wp := rules.Piece{Kind: 'P', Color: rules.White}
	snap := &board.Snapshot{Squares: make([]board.SquareState, 64)}
	snap.Squares[28] = board.SquareState{Height: 1, Top: board.Ident{Known: true, Piece: wp}}
	ev, ok := arbiter.FromSensor(board.Event{Kind: board.EventHistory, Host: 4 * time.Second, RawSeq: 9, History: []board.LoggedPress{
		{Snapshot: snap, Side: board.SideFirst},
		{Snapshot: snap, Side: board.SideNone},
	}})
	require.True(t, ok)
	require.Equal(t, arbiter.Recalled, ev.Kind)
	assert.Equal(t, 4*time.Second, ev.At)
	assert.Equal(t, uint64(9), ev.RawSeq)
	require.Len(t, ev.Presses, 2)
	assert.Equal(t, 1, ev.Presses[0].Heights[28])
	assert.Equal(t, wp, ev.Presses[0].Tops[28])
	assert.Equal(t, rules.White, ev.Presses[0].Side)
	assert.True(t, ev.Presses[0].SideKnown)
	assert.False(t, ev.Presses[1].SideKnown, "a press the board could not attribute")

	_, ok = arbiter.FromSensor(board.Event{Kind: board.EventHistory, Err: errors.New("cut short")})
	assert.False(t, ok, "a log that could not be read")
}

// TestNoPressBoardCommitsOnSettle plays 1. e4 e5 on a chess board that
// announces it has no clock to press (board.CapNoPress, a Millennium or a
// Certabo board beside an ordinary clock): each move is committed once
// the board has settled on it. The same board announcing a clock commits
// nothing until a press.
func TestNoPressBoardCommitsOnSettle(t *testing.T) {
	g, err := rules.New("chess", nil)
	require.NoError(t, err)
	for _, noPress := range []bool{true, false} {
		caps := board.CapHeight | board.CapIdentity | board.CapColor
		if noPress {
			caps |= board.CapNoPress
		}
		cfg := arbiter.DefaultConfig(g)
		cfg.Caps = arbiter.CapsOf(caps)
		s, err := arbiter.NewSession(cfg, g, g.Start(), nil)
		require.NoError(t, err)
		s.Start(0)
		at := time.Duration(0)
		var moves []string
		take := func(out []arbiter.Output) {
			for _, o := range out {
				if m, ok := o.(arbiter.MoveMade); ok {
					moves = append(moves, m.Notation)
				}
			}
		}
		set := func(sq rules.Square, p rules.Piece) {
			at += 100 * time.Millisecond
			e := board.Event{Kind: board.EventSquare, Host: at, Square: sq}
			if p.Kind != 0 {
				e.Height, e.Top = 1, board.Ident{Known: true, Piece: p}
			}
			ev, ok := arbiter.FromSensor(e)
			require.True(t, ok)
			take(s.Handle(ev))
		}
		beat := func() {
			at += time.Second
			ev, _ := arbiter.FromSensor(board.Event{Kind: board.EventHeartbeat, Host: at})
			take(s.Handle(ev))
			take(s.Tick(at))
		}
		set(12, rules.Piece{})
		set(28, rules.Piece{Kind: 'P', Color: rules.White})
		beat()
		set(52, rules.Piece{})
		set(36, rules.Piece{Kind: 'P', Color: rules.Black})
		beat()
		if noPress {
			assert.Equal(t, []string{"e4", "e5"}, moves, "caps %s", cfg.Caps)
			assert.Contains(t, cfg.Caps.String(), "no-press")
		} else {
			assert.Empty(t, moves, "a board with a clock waits for the press")
		}
	}
}

// TestCapsOfBoard reads what a board counts from its handshake (issue 35
// F1): zone counting with no zone listed is no zone counted (a Kvaa board
// without trays whose firmware sets CAP_ZONE_COUNT), and a board listing
// some of the game's zones counts those only.
func TestCapsOfBoard(t *testing.T) {
	none := arbiter.CapsOfBoard(&board.Info{Caps: board.CapZoneCount})
	assert.False(t, none.Zones)
	reserves := []board.ZoneInfo{{Kind: rules.Reserve, Owner: rules.First}, {Kind: rules.Reserve, Owner: rules.Second}}
	some := arbiter.CapsOfBoard(&board.Info{Caps: board.CapZoneCount, Zones: reserves})
	assert.True(t, some.Zones)
	assert.Equal(t, reserves, some.Trays)
	assert.False(t, arbiter.CapsOfBoard(&board.Info{Zones: reserves}).Zones, "zones listed but not counted")
}
