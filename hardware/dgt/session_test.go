package dgt

import (
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arbiter/rules"
)

// fakeBoard drives a Session the way a board would, on virtual time.
type fakeBoard struct {
	t       *testing.T
	s       *Session
	now     time.Duration
	fields  Position
	sent    [][]byte
	events  []Event
	pending []byte
	clocks  [][]byte // clock commands answered by nobody
	raw     []Chunk  // the raw log, as a Conn writes it
}

func newFake(t *testing.T, cfg Config, fields Position) *fakeBoard {
	f := &fakeBoard{t: t, s: NewSession(cfg), fields: fields}
	f.s.Send = func(b []byte) {
		f.sent = append(f.sent, append([]byte(nil), b...))
		f.raw = append(f.raw, Chunk{Host: f.now, Sent: true, Data: append([]byte(nil), b...)})
	}
	f.s.Emit = func(e Event) { f.events = append(f.events, e) }
	return f
}

// answer replies to every board request the session sent, as a board.
func (f *fakeBoard) answer() {
	sent := f.sent
	f.sent = nil
	for _, b := range sent {
		if b[0] == CmdClockMessage {
			f.clocks = append(f.clocks, b)
			continue
		}
		for _, c := range b {
			switch c {
			case CmdSendBoard:
				f.feed(msg(MsgBoardDump, (&BoardDump{Position: f.fields}).AppendPayload(nil)...))
			case CmdSerialNr:
				f.feed(msg(MsgSerialNr, []byte("04711")...))
			case CmdVersion:
				f.feed(msg(MsgVersion, 1, 10))
			}
		}
	}
}

func (f *fakeBoard) feed(p []byte) {
	f.raw = append(f.raw, Chunk{Host: f.now, Data: append([]byte(nil), p...)})
	f.s.Feed(p, f.now, &f.pending)
}

// set changes a field and reports it (unless lost).
func (f *fakeBoard) set(field int, p Piece, report bool) {
	f.fields[field] = p
	if report {
		f.feed(msg(MsgFieldUpdate, byte(field), byte(p)))
	}
}

// run advances virtual time in 5 ms steps, answering requests.
func (f *fakeBoard) run(d time.Duration) {
	for end := f.now + d; f.now < end; f.now += 5 * time.Millisecond {
		f.s.Tick(f.now)
		f.answer()
	}
}

func (f *fakeBoard) take() []Event {
	e := f.events
	f.events = nil
	return e
}

func squares(evs []Event) []string {
	var s []string
	for _, e := range evs {
		if e.Kind == EventSquare {
			if e.Occupied {
				s = append(s, chessName(e.Square)+"="+e.Piece.String())
			} else {
				s = append(s, chessName(e.Square)+" empty")
			}
		}
	}
	return s
}

func kinds(evs []Event) []EventKind {
	var k []EventKind
	for _, e := range evs {
		k = append(k, e.Kind)
	}
	return k
}

func TestSessionStart(t *testing.T) {
	f := newFake(t, Config{}, StartPosition)
	f.s.Start(0)
	assert.Equal(t, [][]byte{{CmdVersion, CmdSerialNr, CmdUpdateNice, CmdSendClock}, {CmdSendBoard}}, f.sent)
	f.answer()
	evs := f.take()
	require.Equal(t, []EventKind{EventIdentified, EventBoard}, kinds(evs))
	assert.Equal(t, "04711", evs[0].Serial)
	assert.Equal(t, Version{1, 10}, evs[0].Version)
	b := evs[1]
	assert.Equal(t, Normal, b.Orientation)
	assert.Equal(t, rules.Piece{Color: rules.White, Kind: 'K'}, b.Pieces[4], "e1")
	assert.Equal(t, rules.Piece{Color: rules.Black, Kind: 'Q'}, b.Pieces[59], "d8")
}

// e2 is field 52, e4 field 36 on a board in normal orientation.
const (
	fE2 = 52
	fE4 = 36
	fE3 = 44
)

func TestSessionSettles(t *testing.T) {
	cases := []struct {
		name string
		move func(f *fakeBoard)
		want []string
	}{
		{"lift then place", func(f *fakeBoard) {
			f.set(fE2, Empty, true)
			f.run(10 * time.Millisecond)
			f.set(fE4, WPawn, true)
		}, []string{"e2 empty", "e4=P"}},
		{"new occurrence before the clear", func(f *fakeBoard) {
			f.set(fE4, WPawn, true)
			f.set(fE2, Empty, true)
		}, []string{"e2 empty", "e4=P"}},
		{"a slide through e3", func(f *fakeBoard) {
			f.set(fE2, Empty, true)
			f.set(fE3, WPawn, true)
			f.run(100 * time.Millisecond)
			f.set(fE3, Empty, true)
			f.set(fE4, WPawn, true)
		}, []string{"e2 empty", "e4=P"}},
		{"the lift is lost", func(f *fakeBoard) {
			f.set(fE2, Empty, false)
			f.set(fE4, WPawn, true)
		}, []string{"e2 empty", "e4=P"}},
		{"every update is lost", func(f *fakeBoard) {
			f.set(fE2, Empty, false)
			f.set(fE4, WPawn, false)
		}, []string{"e2 empty", "e4=P"}},
		{"duplicated updates", func(f *fakeBoard) {
			f.set(fE2, Empty, true)
			f.set(fE2, Empty, true)
			f.set(fE4, WPawn, true)
			f.set(fE4, WPawn, true)
		}, []string{"e2 empty", "e4=P"}},
		{"touched and put back", func(f *fakeBoard) {
			f.set(fE2, Empty, true)
			f.run(50 * time.Millisecond)
			f.set(fE2, WPawn, true)
		}, nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			f := newFake(t, Config{Settle: 250 * time.Millisecond, Poll: time.Second}, StartPosition)
			f.s.Start(0)
			f.answer()
			f.take()
			f.run(100 * time.Millisecond)
			tc.move(f)
			f.run(3 * time.Second)
			assert.Equal(t, tc.want, squares(f.take()))
			got, _ := f.s.Tracker().Settled()
			assert.Equal(t, f.fields, got)
		})
	}
}

func TestSessionDeliversOnlySettledBoards(t *testing.T) {
	f := newFake(t, Config{Settle: 250 * time.Millisecond}, StartPosition)
	f.s.Start(0)
	f.answer()
	f.take()
	// A piece slid back and forth over e3, resting 200 ms at a time:
	// shorter than Settle, so nothing is delivered while the hand moves.
	f.set(fE2, Empty, true)
	for range 5 {
		f.run(200 * time.Millisecond)
		f.set(fE3, WPawn, true)
		f.run(200 * time.Millisecond)
		f.set(fE3, Empty, true)
	}
	assert.Empty(t, squares(f.take()), "nothing settles while updates keep coming")
	f.set(fE4, WPawn, true)
	start := f.now
	for len(f.events) == 0 {
		f.run(5 * time.Millisecond)
	}
	assert.GreaterOrEqual(t, f.now-start, 250*time.Millisecond)
	assert.Less(t, f.now-start, 300*time.Millisecond)
	assert.Equal(t, []string{"e2 empty", "e4=P"}, squares(f.take()))
}

func TestSessionLostUpdatesSettleTwice(t *testing.T) {
	// Every update of a move is lost and the watchdog reads the board
	// while the piece is in the air: that read is news, not a settled
	// board; only a second read Settle later that agrees is.
	f := newFake(t, Config{Settle: 250 * time.Millisecond, Poll: time.Second}, StartPosition)
	f.s.Start(0)
	f.answer()
	f.take()
	f.run(100 * time.Millisecond)
	f.set(fE2, Empty, false)
	f.run(time.Second)
	f.set(fE4, WPawn, false)
	f.run(2 * time.Second)
	evs := f.take()
	require.Equal(t, []string{"e2 empty", "e4=P"}, squares(evs))
	assert.Equal(t, evs[0].At, evs[1].At, "one settled change, not two")
	assert.Equal(t, uint64(2), f.s.Stats.Settles)
}

func TestSessionOrientation(t *testing.T) {
	rot := StartPosition
	for i, j := 0, 63; i < j; i, j = i+1, j-1 {
		rot[i], rot[j] = rot[j], rot[i]
	}
	cases := []struct {
		name   string
		fixed  Orientation
		board  Position
		want   Orientation
		e1King bool
	}{
		{"normal", Undecided, StartPosition, Normal, true},
		{"black at the connector", Undecided, rot, Rotated, true},
		{"empty board stays undecided", Undecided, Position{}, Undecided, false},
		{"configuration wins", Normal, rot, Normal, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			f := newFake(t, Config{Orientation: tc.fixed}, tc.board)
			f.s.Start(0)
			f.answer()
			evs := f.take()
			b := evs[len(evs)-1]
			require.Equal(t, EventBoard, b.Kind)
			assert.Equal(t, tc.want, b.Orientation)
			assert.Equal(t, tc.e1King, b.Pieces[4] == rules.Piece{Color: rules.White, Kind: 'K'})
			if tc.board == rot && tc.want == Rotated {
				// e2-e4 on a rotated board: field 63-52 empties.
				f.set(63-fE2, Empty, true)
				f.set(63-fE4, WPawn, true)
				f.run(time.Second)
				assert.Equal(t, []string{"e2 empty", "e4=P"}, squares(f.take()))
			}
		})
	}
	t.Run("decided by a later board", func(t *testing.T) {
		f := newFake(t, Config{}, Position{})
		f.s.Start(0)
		f.answer()
		f.take()
		f.fields = rot
		f.run(2 * time.Second)
		evs := f.take()
		require.NotEmpty(t, evs)
		b := evs[len(evs)-1]
		require.Equal(t, EventBoard, b.Kind, "the deciding board is delivered whole")
		assert.Equal(t, Rotated, b.Orientation)
	})
}

func TestSessionLinkLost(t *testing.T) {
	f := newFake(t, Config{LinkTimeout: time.Second}, StartPosition)
	f.s.Start(0)
	f.answer()
	f.take()
	// The board goes silent: requests go unanswered.
	for end := f.now + 2*time.Second; f.now < end; f.now += 10 * time.Millisecond {
		f.s.Tick(f.now)
		f.sent = nil
	}
	assert.Equal(t, []EventKind{EventLinkLost}, kinds(f.take()))
	// It comes back having moved a piece meanwhile.
	f.fields[fE2], f.fields[fE4] = Empty, WPawn
	f.run(2 * time.Second)
	evs := f.take()
	require.Equal(t, []EventKind{EventLinkBack, EventBoard}, kinds(evs))
	assert.Equal(t, rules.Piece{Color: rules.White, Kind: 'P'}, evs[1].Pieces[28], "e4")
}

func TestSessionProtocolErrorResyncs(t *testing.T) {
	f := newFake(t, Config{}, StartPosition)
	f.s.Start(0)
	f.answer()
	f.take()
	f.fields[fE2], f.fields[fE4] = Empty, WPawn
	// The field updates arrive mangled.
	f.feed([]byte{MsgFieldUpdate, 0x00, 0x05, fE2})
	f.feed([]byte{MsgFieldUpdate, 0x00, 0x05, 0x7f, 0x00})
	assert.Empty(t, f.pending)
	f.run(time.Second)
	evs := f.take()
	require.Equal(t, []EventKind{EventError, EventError, EventSquare, EventSquare}, kinds(evs))
	assert.Contains(t, evs[0].Err.Error(), "message 0x8e at byte 80: truncated at byte 4 of 5: 0x8e starts a new message")
	assert.Contains(t, evs[1].Err.Error(), "field 127 beyond 63")
	assert.Equal(t, []string{"e2 empty", "e4=P"}, squares(evs))
}

func clockMsg(t ClockTimes) []byte { return msg(MsgBWTime, t.AppendPayload(nil)...) }

func TestSessionClock(t *testing.T) {
	f := newFake(t, Config{}, StartPosition)
	f.s.Start(0)
	f.answer()
	f.take()
	// White (left) to move, 5:00 each; White presses: the lever flips and
	// the right side runs. The lever's polarity does not matter.
	for _, lever := range []bool{false, true} {
		f.take()
		f.feed(clockMsg(ClockTimes{Left: 5 * time.Minute, Right: 5 * time.Minute, Lever: lever, Running: true, LeftTurn: true}))
		f.feed(clockMsg(ClockTimes{Left: 4 * time.Minute, Right: 5 * time.Minute, Lever: !lever, Running: true, RightTurn: true}))
		evs := f.take()
		require.Equal(t, []EventKind{EventClock, EventClock, EventLever}, kinds(evs), "lever %t", lever)
		assert.Equal(t, 4*time.Minute, evs[1].White)
		assert.True(t, evs[2].SideKnown)
		assert.Equal(t, rules.White, evs[2].Side)
		f.s.clock = nil
	}
	// A reading that lags: the running side's time goes up. It is dropped.
	f.feed(clockMsg(ClockTimes{Left: 4 * time.Minute, Right: 4*time.Minute + 50*time.Second, Running: true, RightTurn: true}))
	f.feed(clockMsg(ClockTimes{Left: 4 * time.Minute, Right: 4*time.Minute + 51*time.Second, Running: true, RightTurn: true}))
	assert.Len(t, f.take(), 1)
	assert.Equal(t, uint64(1), f.s.Stats.ClockLagged)
	// A clock key, and the all-zero reading Bluetooth boards send.
	f.feed(msg(MsgBWTime, (&ClockAck{Ack: [4]byte{0x10, 0x88, 0, KeyOK}}).AppendPayload(nil)...))
	f.feed(msg(MsgBWTime, 0, 0, 0, 0, 0, 0, 0))
	evs := f.take()
	require.Equal(t, []EventKind{EventClockButton}, kinds(evs))
	assert.Equal(t, KeyOK, evs[0].Key)
}

func TestSessionPressWaitsForTheMove(t *testing.T) {
	// e2-e4 and the press within Settle: the squares come first.
	f := newFake(t, Config{Settle: 250 * time.Millisecond}, StartPosition)
	f.s.Start(0)
	f.answer()
	f.feed(clockMsg(ClockTimes{Left: 5 * time.Minute, Right: 5 * time.Minute, Running: true, LeftTurn: true}))
	f.take()
	f.set(fE2, Empty, true)
	f.set(fE4, WPawn, true)
	f.run(50 * time.Millisecond)
	f.feed(clockMsg(ClockTimes{Left: 5 * time.Minute, Right: 5 * time.Minute, Lever: true, Running: true, RightTurn: true}))
	f.run(time.Second)
	evs := f.take()
	require.Equal(t, []EventKind{EventClock, EventSquare, EventSquare, EventLever}, kinds(evs))
	assert.Less(t, evs[3].At, evs[1].At, "the press keeps its own time")
}

func TestSessionWhiteRight(t *testing.T) {
	f := newFake(t, Config{WhiteRight: true}, StartPosition)
	f.s.Start(0)
	f.answer()
	f.take()
	f.feed(clockMsg(ClockTimes{Left: 3 * time.Minute, Right: 5 * time.Minute, Running: true, RightTurn: true}))
	f.feed(clockMsg(ClockTimes{Left: 3 * time.Minute, Right: 4 * time.Minute, Lever: true, Running: true, LeftTurn: true}))
	evs := f.take()
	require.Equal(t, []EventKind{EventClock, EventClock, EventLever}, kinds(evs))
	assert.Equal(t, 4*time.Minute, evs[1].White)
	assert.Equal(t, 3*time.Minute, evs[1].Black)
	assert.Equal(t, rules.White, evs[2].Side)
	require.NoError(t, f.s.SetClock(10*time.Minute, 9*time.Minute, rules.White, f.now))
	assert.Equal(t, []byte{0x2b, 0x0a, 0x03, 0x0a, 0, 9, 0, 0, 10, 0, RunRight | RunToggle, 0}, f.sent[len(f.sent)-1])
}

// StopClock stands both sides at their times, mapped onto the displays,
// with the pause bit and no lever toggle.
func TestSessionStopClock(t *testing.T) {
	for _, tc := range []struct {
		name       string
		whiteRight bool
		want       []byte
	}{
		{"White at the left", false, []byte{0x2b, 0x0a, 0x03, 0x0a, 0, 10, 0, 0, 9, 30, RunLeft | RunRight | RunPause, 0}},
		{"White at the right", true, []byte{0x2b, 0x0a, 0x03, 0x0a, 0, 9, 30, 0, 10, 0, RunLeft | RunRight | RunPause, 0}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newFake(t, Config{WhiteRight: tc.whiteRight}, StartPosition)
			f.s.Start(0)
			f.answer()
			f.sent = nil
			require.NoError(t, f.s.StopClock(10*time.Minute, 9*time.Minute+30*time.Second, f.now))
			require.Len(t, f.sent, 1)
			assert.Equal(t, tc.want, f.sent[0])
			assert.ErrorContains(t, f.s.StopClock(11*time.Hour, 0, f.now), "outside 0..9:59:59")
		})
	}
}

func ackMsg(cmd byte, ok bool) []byte {
	a := ClockAck{Ack: [4]byte{0x10, cmd, 0, 0}}
	if !ok {
		a.Ack[0] = 0x40
	}
	return msg(MsgBWTime, a.AppendPayload(nil)...)
}

func TestSessionClockCommands(t *testing.T) {
	f := newFake(t, Config{AckTimeout: time.Second, ClockTries: 3}, StartPosition)
	f.s.Start(0)
	f.answer()
	f.take()
	f.sent = nil
	require.NoError(t, f.s.SetClock(5*time.Minute, 5*time.Minute, rules.White, f.now))
	require.NoError(t, f.s.ClockCommand(ShowText("TOUCH", 0), f.now))
	require.Len(t, f.sent, 1, "one command at a time")
	assert.Equal(t, ClockSetNRun, f.sent[0][3])
	f.sent = nil
	// No acknowledgement: sent again after AckTimeout.
	f.now += time.Second
	f.s.Tick(f.now)
	clockSent := func() (n int) {
		f.answer()
		n = len(f.clocks)
		f.clocks = nil
		return n
	}
	assert.Equal(t, 1, clockSent())
	assert.Equal(t, uint64(1), f.s.Stats.ClockRetry)
	// A stray acknowledgement of another command changes nothing.
	f.feed(ackMsg(ClockASCII, true))
	assert.Zero(t, clockSent())
	f.feed(ackMsg(ClockSetNRun, true))
	assert.Contains(t, f.sent, []byte{CmdSendClock}, "the set clock is read again: the lever's new reference")
	assert.Equal(t, 1, clockSent(), "the text goes once the time is acknowledged")
	// The text is never acknowledged: three tries, then an error.
	for range 3 {
		f.now += time.Second
		f.s.Tick(f.now)
		f.answer() // the board answers everything else
	}
	assert.Equal(t, 2, clockSent())
	evs := f.take()
	require.Equal(t, []EventKind{EventError}, kinds(evs))
	assert.Contains(t, evs[0].Err.Error(), "clock command 0x0c not acknowledged after 3 tries")
	assert.False(t, f.s.ClockBusy())
	// A refused command is reported.
	require.NoError(t, f.s.ClockCommand(EndText(), f.now))
	f.feed(ackMsg(ClockEnd, false))
	evs = f.take()
	require.Equal(t, []EventKind{EventError}, kinds(evs))
	assert.Contains(t, evs[0].Err.Error(), "clock refused command 0x03")
}

// A full EEPROM log takes about 9 s at 9600 baud, one message: the board
// talks all the while, so it is not reported lost, and the log arrives.
func TestSessionLongLogIsNoSilence(t *testing.T) {
	f := newFake(t, Config{}, StartPosition)
	f.s.Start(0)
	f.answer()
	f.take()
	f.s.RequestLog(f.now)
	f.sent = nil
	var payload []byte
	for len(payload) < 7900 {
		payload = AppendLogTag(payload, LogTag{Kind: TagField, Field: fE2, Piece: Empty})
		payload = AppendLogTag(payload, LogTag{Kind: TagField, Field: fE2, Piece: WPawn})
	}
	wire := msg(MsgLog, append(payload, EEEOF)...)
	for len(wire) > 0 {
		n := min(96, len(wire)) // 960 bytes a second
		f.now += 100 * time.Millisecond
		f.s.Tick(f.now)
		f.sent = nil // the board is busy sending its log
		f.feed(wire[:n])
		wire = wire[n:]
	}
	require.Greater(t, f.now, 8*time.Second)
	evs := f.take()
	assert.Equal(t, []EventKind{EventLog}, kinds(evs), "no link lost while the log was on its way")
}

// clockSent returns the clock commands among what the session sent.
func clockSent(sent [][]byte) (cmds []byte) {
	for _, b := range sent {
		if b[0] == CmdClockMessage {
			cmd, _, _ := ParseClockCommand(b)
			cmds = append(cmds, cmd)
		}
	}
	return cmds
}

// While the board sends its EEPROM log (9 s for a full one), it hears
// nothing else (issue 32 N5): a clock command in flight waits for its
// acknowledgement until the log has come, and new ones wait behind the
// log, instead of timing out and being given up.
func TestSessionClockCommandsWaitForTheLog(t *testing.T) {
	f := newFake(t, Config{}, StartPosition)
	f.s.Start(0)
	f.answer()
	f.take()
	stop, err := SetNRun(5*time.Minute, 4*time.Minute, RunLeft|RunRight|RunPause)
	require.NoError(t, err)
	require.NoError(t, f.s.ClockCommand(stop, f.now))
	f.s.RequestLog(f.now)
	require.NoError(t, f.s.ClockCommand(ShowText("hold", 0), f.now))
	assert.Equal(t, []byte{ClockSetNRun}, clockSent(f.sent), "the command in flight went before the log was asked for")
	f.sent = nil
	var payload []byte
	for len(payload) < LogSize-2 {
		payload = AppendLogTag(payload, LogTag{Kind: TagField, Field: fE2, Piece: Empty})
	}
	wire := msg(MsgLog, append(payload, EEEOF)...)
	for len(wire) > 0 {
		n := min(96, len(wire)) // 960 bytes a second
		f.now += 100 * time.Millisecond
		f.s.Tick(f.now)
		f.feed(wire[:n])
		wire = wire[n:]
		if len(wire) > 0 {
			require.Empty(t, clockSent(f.sent), "no clock command while the log downloads, at %v", f.now)
		}
	}
	require.Greater(t, f.now, 8*time.Second)
	evs := f.take()
	require.Equal(t, []EventKind{EventLog}, kinds(evs), "no clock command given up")
	assert.Zero(t, f.s.Stats.ClockRetry)
	// The acknowledgement that waited behind the log, then the text.
	f.now += 20 * time.Millisecond
	f.feed(ackMsg(ClockSetNRun, true))
	assert.Equal(t, []byte{ClockASCII}, clockSent(f.sent))
	f.sent = nil
	f.feed(ackMsg(ClockASCII, true))
	assert.False(t, f.s.ClockBusy())
	assert.Empty(t, f.take())
}

// A board that does not send its log is asked twice, then the log is
// given up (an EventLog with its error), and the clock commands that
// waited go.
func TestSessionLogNotSent(t *testing.T) {
	f := newFake(t, Config{}, StartPosition)
	f.s.Start(0)
	f.answer()
	f.take()
	f.s.RequestLog(f.now)
	f.s.RequestLog(f.now) // already on its way: not asked again
	require.NoError(t, f.s.ClockCommand(ShowText("hold", 0), f.now))
	var asked []time.Duration
	for f.now < 10*time.Second {
		for _, b := range f.sent {
			if len(b) == 1 && b[0] == CmdSendLog {
				asked = append(asked, f.now)
			}
		}
		if len(clockSent(f.sent)) > 0 {
			break
		}
		f.answer() // the board answers everything but the log
		f.sent = nil
		f.now += 50 * time.Millisecond
		f.s.Tick(f.now)
	}
	require.Equal(t, []time.Duration{0, 3 * time.Second}, asked)
	assert.Equal(t, 6*time.Second, f.now, "given up after two silences of LinkTimeout")
	var logs []Event
	for _, e := range f.take() {
		if e.Kind == EventLog {
			logs = append(logs, e)
		}
	}
	require.Len(t, logs, 1)
	assert.Nil(t, logs[0].Log)
	assert.ErrorContains(t, logs[0].Err, "did not send its log (asked 2 times)")
}

// shownTexts answers the clock commands the session sent at once, and
// returns the texts among them ("" for the end of a text), with their
// instants.
func (f *fakeBoard) shownTexts() (texts []string, at []time.Duration) {
	sent := f.sent
	f.sent = nil
	for _, b := range sent {
		cmd, payload, err := ParseClockCommand(b)
		if err != nil {
			f.sent = append(f.sent, b) // for the board to answer
			continue
		}
		switch cmd {
		case ClockASCII:
			texts, at = append(texts, strings.TrimRight(string(payload[:8]), " ")), append(at, f.now)
		case ClockEnd:
			texts, at = append(texts, ""), append(at, f.now)
		}
		f.feed(ackMsg(cmd, true))
	}
	return texts, at
}

// A text of several frames scrolls on a DGT 3000, a frame every TextStep:
// one that stays goes round three times and keeps its headline; a brief
// one goes round once and gives the display back to the times; a new text
// or EndText ends the one shown.
func TestSessionTextScrolls(t *testing.T) {
	for _, tc := range []struct {
		name  string
		text  Text
		want  []string
		until time.Duration
	}{
		{"one frame stays", Text{Frames: []string{"flag"}}, []string{"flag"}, 0},
		{"frames go round and the first stays", Text{Frames: []string{"illegal", "move"}},
			[]string{"illegal", "move", "illegal", "move", "illegal", "move", "illegal"}, 12 * time.Second},
		{"a brief text gives the times back", Text{Frames: []string{"paused", "arbiter"}, Brief: true},
			[]string{"paused", "arbiter", ""}, 4 * time.Second},
		{"a brief frame", Text{Frames: []string{"arbiter"}, Brief: true}, []string{"arbiter", ""}, 2 * time.Second},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newFake(t, Config{}, StartPosition)
			f.s.Start(0)
			f.answer()
			require.NoError(t, f.s.ShowText(tc.text, f.now))
			var texts []string
			var at []time.Duration
			for ; f.now <= 20*time.Second; f.now += 100 * time.Millisecond {
				f.s.Tick(f.now)
				ts, as := f.shownTexts()
				texts, at = append(texts, ts...), append(at, as...)
				f.answer()
			}
			assert.Equal(t, tc.want, texts)
			assert.Equal(t, tc.until, at[len(at)-1], "a frame every 2 s")
			for _, e := range f.take() {
				assert.NotEqual(t, EventError, e.Kind, "no clock command given up: %v", e)
			}
		})
	}
	f := newFake(t, Config{}, StartPosition)
	f.s.Start(0)
	f.answer()
	require.NoError(t, f.s.ShowText(Text{Frames: []string{"illegal", "move"}}, f.now))
	f.now += 2 * time.Second
	f.s.Tick(f.now)
	f.s.EndText(f.now)
	texts, _ := f.shownTexts()
	for f.now += 100 * time.Millisecond; f.now < 10*time.Second; f.now += 100 * time.Millisecond {
		f.s.Tick(f.now)
		ts, _ := f.shownTexts()
		texts = append(texts, ts...)
	}
	assert.Equal(t, []string{"illegal", "move", ""}, texts, "EndText ends the scroll")
	require.ErrorContains(t, f.s.ShowText(Text{Frames: []string{"too long!"}}, f.now), "longer than the clock's 8 characters")
	require.Error(t, f.s.ShowText(Text{}, f.now))
}
