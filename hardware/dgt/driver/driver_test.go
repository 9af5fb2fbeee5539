package driver

import (
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arbiter/board"
	"arbiter/hardware/dgt"
	"arbiter/rules"
)

var (
	whitePawn = rules.Piece{Kind: 1, Color: rules.White}
	blackKing = rules.Piece{Kind: 6, Color: rules.Black}
)

// got is what a translated event says, compactly.
type got struct {
	Kind   board.EventKind
	Square rules.Square
	Height int
	Top    rules.Piece
	Side   board.Side
	Health board.Health
	Clock  *board.ClockReading
}

func brief(e board.Event) got {
	g := got{Kind: e.Kind}
	switch e.Kind {
	case board.EventSquare:
		g.Square, g.Height, g.Top = e.Square, e.Height, e.Top.Piece
	case board.EventButton:
		g.Side = e.Side
	case board.EventHealth:
		g.Health = e.Health
	case board.EventClock:
		g.Clock = e.Clock
	}
	return g
}

func TestTranslation(t *testing.T) {
	pieces := make([]rules.Piece, 64)
	pieces[12], pieces[60] = whitePawn, blackKing
	ident := dgt.Event{Kind: dgt.EventIdentified, Serial: "12345", At: time.Second}
	full := dgt.Event{Kind: dgt.EventBoard, Pieces: pieces, At: time.Second}
	for _, tc := range []struct {
		name string
		in   []dgt.Event
		want []got
	}{
		{"the board before the serial number waits for the handshake",
			[]dgt.Event{full, {Kind: dgt.EventSquare, Square: 12, At: time.Second}, ident},
			[]got{{Kind: board.EventHello}, {Kind: board.EventSnapshot}}},
		{"squares as height and sensed piece",
			[]dgt.Event{ident, full, {Kind: dgt.EventSquare, Square: 12}, {Kind: dgt.EventSquare, Square: 28, Piece: whitePawn, Occupied: true}},
			[]got{{Kind: board.EventHello}, {Kind: board.EventSnapshot},
				{Kind: board.EventSquare, Square: 12}, {Kind: board.EventSquare, Square: 28, Height: 1, Top: whitePawn}}},
		{"a press by the side the clock tells",
			[]dgt.Event{ident, {Kind: dgt.EventLever, Side: rules.Black, SideKnown: true}},
			[]got{{Kind: board.EventHello}, {Kind: board.EventButton, Side: board.SideSecond}}},
		{"a press the clock does not tell: White first, then the side that did not press last",
			[]dgt.Event{ident, {Kind: dgt.EventLever}, {Kind: dgt.EventLever}, {Kind: dgt.EventLever, Side: rules.White, SideKnown: true}, {Kind: dgt.EventLever}},
			[]got{{Kind: board.EventHello}, {Kind: board.EventButton, Side: board.SideFirst}, {Kind: board.EventButton, Side: board.SideSecond},
				{Kind: board.EventButton, Side: board.SideFirst}, {Kind: board.EventButton, Side: board.SideSecond}}},
		{"a lost link, and the board back whole",
			[]dgt.Event{ident, full, {Kind: dgt.EventLinkLost}, {Kind: dgt.EventLinkBack}, full},
			[]got{{Kind: board.EventHello}, {Kind: board.EventSnapshot}, {Kind: board.EventHealth, Health: board.Disconnected},
				{Kind: board.EventHealth, Health: board.Active}, {Kind: board.EventSnapshot}}},
		{"clock readings prove the link; errors are logged only",
			[]dgt.Event{ident, {Kind: dgt.EventClock, Clock: dgt.ClockTimes{NoClock: true}}, {Kind: dgt.EventError, Err: errors.New("bad")}},
			[]got{{Kind: board.EventHello}, {Kind: board.EventHeartbeat}}},
		{"the turn the clock shows: whose clock runs, then the rocker lever's",
			[]dgt.Event{ident,
				{Kind: dgt.EventClock, White: 5 * time.Minute, Black: 4 * time.Minute, Clock: dgt.ClockTimes{Left: 5 * time.Minute, Right: 4 * time.Minute, Running: true, LeftTurn: true}},
				{Kind: dgt.EventLever, Side: rules.White, SideKnown: true},
				{Kind: dgt.EventClock, White: 5 * time.Minute, Black: 4 * time.Minute, Clock: dgt.ClockTimes{Left: 5 * time.Minute, Right: 4 * time.Minute, Running: true, LeftTurn: true}},
				{Kind: dgt.EventLinkLost},
				{Kind: dgt.EventClock, White: 5 * time.Minute, Black: 4 * time.Minute, Clock: dgt.ClockTimes{Left: 5 * time.Minute, Right: 4 * time.Minute, Running: true, LeftTurn: true}},
			},
			[]got{{Kind: board.EventHello},
				{Kind: board.EventClock, Clock: &board.ClockReading{First: 5 * time.Minute, Second: 4 * time.Minute, Running: true, Turn: board.SideFirst, TurnKnown: true}},
				{Kind: board.EventButton, Side: board.SideFirst},
				{Kind: board.EventClock, Clock: &board.ClockReading{First: 5 * time.Minute, Second: 4 * time.Minute, Running: true, Turn: board.SideSecond, TurnKnown: true}},
				// White pressed: the lever's White side is down, whichever
				// clock the host has run since.
				{Kind: board.EventClock, Clock: &board.ClockReading{First: 5 * time.Minute, Second: 4 * time.Minute, Running: true, Turn: board.SideSecond, TurnKnown: true}},
				{Kind: board.EventHealth, Health: board.Disconnected},
				{Kind: board.EventClock, Clock: &board.ClockReading{First: 5 * time.Minute, Second: 4 * time.Minute, Running: true, Turn: board.SideFirst, TurnKnown: true}},
			}},
		{"a bus board whose game its log could not give is the arbiter's",
			[]dgt.Event{ident, {Kind: dgt.EventError, Err: fmt.Errorf("%w (board 12345, 3 tries)", dgt.ErrNotResumed)}},
			[]got{{Kind: board.EventHello}, {Kind: board.EventError}}},
		{"clock readings with White at the left display",
			[]dgt.Event{ident, {Kind: dgt.EventClock, White: 5 * time.Minute, Black: 4 * time.Minute,
				Clock: dgt.ClockTimes{Left: 5 * time.Minute, Right: 4 * time.Minute, Running: true, LeftFlag: true}}},
			[]got{{Kind: board.EventHello}, {Kind: board.EventClock,
				Clock: &board.ClockReading{First: 5 * time.Minute, Second: 4 * time.Minute, Running: true, FirstFlag: true, Turn: board.SideNone}}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d, err := New(Config{Paths: []string{"/dev/null"}, Now: func() time.Duration { return 2 * time.Second }})
			require.NoError(t, err)
			l := d.newLink("/dev/null")
			for _, e := range tc.in {
				l.take(e)
			}
			var out []got
			for _, e := range l.queue {
				assert.Equal(t, "DGT-12345", e.Board)
				assert.Equal(t, "/dev/null", e.Port)
				if e.Kind == board.EventError {
					assert.ErrorIs(t, e.Err, board.ErrAttention)
					assert.ErrorIs(t, e.Err, dgt.ErrNotResumed)
				}
				out = append(out, brief(e))
			}
			assert.Equal(t, tc.want, out)
			assert.True(t, d.Owns("DGT-12345"))
		})
	}
}

func TestSnapshotAndResync(t *testing.T) {
	d, err := New(Config{Now: func() time.Duration { return 3 * time.Second }})
	require.NoError(t, err)
	require.ErrorContains(t, d.Resync("DGT-1"), "DGT-1: not connected")
	l := d.newLink("/dev/ttyACM0")
	pieces := make([]rules.Piece, 64)
	pieces[12], pieces[60] = whitePawn, blackKing
	l.take(dgt.Event{Kind: dgt.EventIdentified, Serial: "1"})
	require.ErrorContains(t, d.Resync("DGT-1"), "no full board read yet")
	l.take(dgt.Event{Kind: dgt.EventBoard, Pieces: pieces})
	l.queue = nil
	require.NoError(t, d.Resync("DGT-1"))
	require.Len(t, l.queue, 1)
	s := l.queue[0].Snapshot
	require.NotNil(t, s)
	require.Len(t, s.Squares, 64)
	assert.Equal(t, 3*time.Second, l.queue[0].At)
	for sq, q := range s.Squares {
		switch sq {
		case 12:
			assert.Equal(t, board.SquareState{Height: 1, Top: board.Ident{Known: true, Piece: whitePawn}}, q)
		case 60:
			assert.Equal(t, board.SquareState{Height: 1, Top: board.Ident{Known: true, Piece: blackKing}}, q)
		default:
			assert.Zero(t, q, "square %d", sq)
		}
	}
}

func TestNewRefuses(t *testing.T) {
	_, err := New(Config{})
	require.ErrorContains(t, err, "no clock")
	_, err = New(Config{Globs: []string{"[x"}, Now: func() time.Duration { return 0 }})
	require.ErrorContains(t, err, `pattern "[x"`)
}
