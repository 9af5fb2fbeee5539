package sim

import (
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arbiter/hardware/dgt"
	"arbiter/rules"
	"arbiter/rules/chess"
)

// wire captures what a board sends and decodes it.
type wire struct {
	mu  sync.Mutex // the clock acknowledges from a timer's goroutine
	dec dgt.Decoder
	buf []byte
}

func (w *wire) messages(t *testing.T) []dgt.Message {
	t.Helper()
	w.mu.Lock()
	defer w.mu.Unlock()
	var ms []dgt.Message
	for len(w.buf) > 0 {
		n, m, err := w.dec.Decode(w.buf)
		if errors.Is(err, dgt.ErrIncomplete) {
			break
		}
		require.NoError(t, err)
		m.Payload = append([]byte(nil), m.Payload...)
		ms = append(ms, m)
		w.buf = w.buf[n:]
	}
	return ms
}

func newWired(cfg Config) (*Board, *wire) {
	b := NewBoard(cfg)
	w := &wire{}
	b.SetOutput(func(p []byte) {
		w.mu.Lock()
		w.buf = append(w.buf, p...)
		w.mu.Unlock()
	})
	return b, w
}

func TestBoardAnswersSingleCommands(t *testing.T) {
	b, w := newWired(Config{Serial: "01025", Version: dgt.Version{Major: 1, Minor: 2}})
	b.SetUp(chess.Start().View())
	b.HandleHost([]byte{dgt.CmdSerialNr, dgt.CmdVersion, dgt.CmdBusAddress, dgt.CmdSendBoard})
	ms := w.messages(t)
	require.Len(t, ms, 4)
	var got []any
	for _, m := range ms {
		v, err := dgt.Parse(m)
		require.NoError(t, err)
		got = append(got, v)
	}
	assert.Equal(t, &dgt.SerialNr{Serial: "01025"}, got[0])
	assert.Equal(t, &dgt.Version{Major: 1, Minor: 2}, got[1])
	assert.Equal(t, &dgt.BusAddress{Addr: 1025}, got[2], "the address is the serial number's value")
	assert.Equal(t, &dgt.BoardDump{Position: dgt.StartPosition}, got[3])
}

func TestBoardFieldUpdatesAndFaults(t *testing.T) {
	cases := []struct {
		name   string
		faults Faults
		want   []dgt.FieldUpdate
	}{
		{"clean", Faults{}, []dgt.FieldUpdate{{Field: 52, Piece: dgt.Empty}, {Field: 36, Piece: dgt.WPawn}}},
		{"dropped", Faults{Drop: 1}, nil},
		{"duplicated", Faults{Duplicate: 1}, []dgt.FieldUpdate{{Field: 52}, {Field: 52}, {Field: 36, Piece: dgt.WPawn}, {Field: 36, Piece: dgt.WPawn}}},
		{"lift after the placement", Faults{Reorder: 1}, []dgt.FieldUpdate{{Field: 36, Piece: dgt.WPawn}, {Field: 52, Piece: dgt.Empty}}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			b, w := newWired(Config{Faults: tc.faults})
			b.SetUp(chess.Start().View())
			b.HandleHost([]byte{dgt.CmdUpdateBoard})
			b.LiftSquare(12) // e2
			b.PlaceSquare(28, dgt.WPawn.MustRules())
			var got []dgt.FieldUpdate
			for _, m := range w.messages(t) {
				v, err := dgt.Parse(m)
				require.NoError(t, err)
				got = append(got, *v.(*dgt.FieldUpdate))
			}
			assert.Equal(t, tc.want, got)
		})
	}
}

func TestBoardBusMode(t *testing.T) {
	b, w := newWired(Config{Serial: "00007"})
	w.dec.Bus = true
	b.SetUp(chess.Start().View())
	// Boards power up in bus mode; a command for another board is ignored.
	b.HandleHost(dgt.BusCommand(dgt.BusPing, 8))
	b.HandleHost(dgt.BusCommand(dgt.BusPing, 7))
	b.HandleHost(dgt.BusCommand(dgt.BusSetStartGame, 7))
	b.LiftSquare(12)
	b.PlaceSquare(28, dgt.WPawn.MustRules())
	b.Press(true)
	b.HandleHost(dgt.BusCommand(dgt.BusSendChanges, 7))
	b.HandleHost(dgt.BusCommand(dgt.BusRepeatChanges, 7))
	bad := dgt.BusCommand(dgt.BusSendBoard, 7)
	bad[3] ^= 1
	b.HandleHost(bad) // a bad checksum is not answered
	ms := w.messages(t)
	require.Len(t, ms, 4)
	assert.Equal(t, dgt.MsgBusPing, ms[0].ID)
	assert.Equal(t, dgt.MsgBusStartWritten, ms[1].ID)
	assert.Equal(t, dgt.MsgBusUpdate, ms[2].ID)
	assert.Equal(t, ms[2].Payload, ms[3].Payload, "a repeat sends the same changes")
	l := dgt.ParseLog(ms[2].Payload)
	require.Empty(t, l.Errors)
	require.Len(t, l.Tags, 3)
	assert.Equal(t, dgt.LogTag{Kind: dgt.TagField, Offset: 0, Field: 52, Quick: true}, l.Tags[0], "right after the start tag's pieces")
	assert.Equal(t, byte(36), l.Tags[1].Field)
	assert.Equal(t, dgt.TagTime, l.Tags[2].Kind)
	assert.True(t, l.Tags[2].Left)
	// The replay from the start tag holds the position at the tag and the
	// changes already sent.
	b.HandleHost(dgt.BusCommand(dgt.BusSendFromStart, 7))
	ms = w.messages(t)
	require.Len(t, ms, 1)
	from := dgt.ParseLog(ms[0].Payload)
	var pos dgt.Position
	for _, tag := range from.Tags {
		if tag.Kind == dgt.TagField {
			pos[tag.Field] = tag.Piece
		}
	}
	assert.Equal(t, b.Fields(), pos)
}

func TestBoardClock(t *testing.T) {
	now := time.Duration(0)
	b, w := newWired(Config{Now: func() time.Duration { return now }, AckDelay: time.Millisecond})
	b.ConnectClock(0, 0)
	b.HandleHost([]byte{dgt.CmdUpdateNice})
	set, err := dgt.SetNRun(3*time.Minute, 2*time.Minute, dgt.RunLeft|dgt.RunToggle)
	require.NoError(t, err)
	b.HandleHost(set)
	now += 10 * time.Second
	b.Press(true)
	time.Sleep(50 * time.Millisecond) // the acknowledgement's delay
	var times []*dgt.ClockTimes
	var acks []*dgt.ClockAck
	for _, m := range w.messages(t) {
		v, err := dgt.Parse(m)
		require.NoError(t, err)
		switch v := v.(type) {
		case *dgt.ClockTimes:
			times = append(times, v)
		case *dgt.ClockAck:
			acks = append(acks, v)
		}
	}
	require.Len(t, acks, 1)
	cmd, ok := acks[0].Command()
	assert.True(t, ok)
	assert.Equal(t, dgt.ClockSetNRun, cmd)
	require.GreaterOrEqual(t, len(times), 2)
	last := times[len(times)-1]
	assert.Equal(t, 2*time.Minute+50*time.Second, last.Left, "left ran 10 s, then White pressed")
	assert.True(t, last.RightTurn)
	assert.NotEqual(t, times[len(times)-2].Lever, last.Lever, "the lever flipped")
}

// A board set up at once logs the pieces as if put down by hand, and the
// start position's tag (armed again once more than two pieces left the
// start, as DGT's firmware does): a host that reads its log after a
// crash replays the game from there, whether the board was set up after
// its power-up or again after a game.
func TestBoardSetUpIsLogged(t *testing.T) {
	for _, tc := range []struct {
		name          string
		rotated, game bool
	}{
		{"after the power-up", false, false},
		{"after the power-up, rotated", true, false},
		{"again after a game", false, true},
		{"again after a game, rotated", true, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b, w := newWired(Config{Serial: "00011", Rotated: tc.rotated})
			b.SetUp(chess.Start().View())
			if tc.game {
				b.LiftSquare(12) // e4
				b.PlaceSquare(28, dgt.WPawn.MustRules())
				b.Press(true)
				b.LiftSquare(52) // e5
				b.PlaceSquare(36, dgt.BPawn.MustRules())
				b.Press(false)
				b.SetUp(chess.Start().View()) // the pieces set up again for the next game
			}
			b.LiftSquare(11) // d4
			b.PlaceSquare(27, dgt.WPawn.MustRules())
			b.Press(true)
			b.HandleHost([]byte{dgt.CmdSendLog})
			ms := w.messages(t)
			require.Len(t, ms, 1)
			v, err := dgt.Parse(ms[0])
			require.NoError(t, err)
			l, ok := v.(*dgt.Log)
			require.True(t, ok, "%T", v)
			rec, err := dgt.Recover(l)
			require.NoError(t, err)
			want, wantO := dgt.EEBeginPos, dgt.Normal
			if tc.rotated {
				want, wantO = dgt.EEBeginPosRot, dgt.Rotated
			}
			assert.Equal(t, want, rec.Anchor, "the last start position")
			assert.Equal(t, wantO, rec.Orientation)
			require.Len(t, rec.Presses, 1, "the presses of the game on the board now")
			pieces, _ := rec.Presses[0].Position.Chess(rec.Orientation)
			_, next, err := rules.PlayText(chess.Start(), "d4")
			require.NoError(t, err)
			v2 := next.View()
			for sq := range pieces {
				var top rules.Piece
				if st := v2.Stacks[sq]; len(st) > 0 {
					top = st[len(st)-1]
				}
				assert.Equal(t, top, pieces[sq], "square %d", sq)
			}
		})
	}
}

// The clock's lever is a rocker: a player whose side is down already
// (who pressed last) cannot press again; nothing moves, nothing is
// logged. The opponent's press moves it.
func TestPressIsARocker(t *testing.T) {
	now := time.Duration(0)
	b, _ := newWired(Config{Now: func() time.Duration { return now }})
	b.ConnectClock(5*time.Minute, 5*time.Minute)
	b.Press(true)
	first := b.Clock()
	logged := len(b.log)
	now += 3 * time.Second
	b.Press(true) // the same side again
	second := b.Clock()
	assert.Equal(t, first.Lever, second.Lever, "the lever did not move")
	assert.True(t, second.RightTurn, "the right side still runs")
	assert.Equal(t, logged, len(b.log), "nothing logged")
	b.Press(false)
	assert.NotEqual(t, first.Lever, b.Clock().Lever, "the opponent's press moves it")
	assert.Greater(t, len(b.log), logged)
}
