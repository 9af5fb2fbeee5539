package dgt

import (
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arbiter/rules"
)

// input is something that reaches a session at an instant.
type input struct {
	at time.Duration
	do func(f *fakeBoard)
}

// game plays a board's life on f, the same inputs at the same instants
// whatever the step at which the session is ticked between them: the
// start, e2-e4 with the press before the board settled, the clock set
// (acknowledged) and a text (never acknowledged, so given up), a silence
// past the link's timeout, and the board back having moved e7-e5. The
// board answers nothing by itself: what the session asks goes unanswered
// but for the replies scripted here.
func game(f *fakeBoard, step time.Duration) {
	feed := func(b []byte) func(*fakeBoard) { return func(f *fakeBoard) { f.feed(b) } }
	dump := func(p Position) func(*fakeBoard) {
		return feed(msg(MsgBoardDump, (&BoardDump{Position: p}).AppendPayload(nil)...))
	}
	moved := StartPosition
	moved[fE2], moved[fE4] = Empty, WPawn
	back := moved
	back[fE7], back[fE5] = Empty, BPawn
	ins := []input{
		{0, func(f *fakeBoard) { f.s.Start(f.now) }},
		{5 * time.Millisecond, feed(append(msg(MsgVersion, 1, 10), msg(MsgSerialNr, []byte("04711")...)...))},
		{6 * time.Millisecond, dump(StartPosition)},
		{7 * time.Millisecond, feed(clockMsg(ClockTimes{Left: 5 * time.Minute, Right: 5 * time.Minute, Running: true, LeftTurn: true}))},
		{300 * time.Millisecond, feed(msg(MsgFieldUpdate, fE2, byte(Empty)))},
		{303 * time.Millisecond, feed(msg(MsgFieldUpdate, fE4, byte(WPawn)))},
		{340 * time.Millisecond, feed(clockMsg(ClockTimes{Left: 5 * time.Minute, Right: 5 * time.Minute, Lever: true, Running: true, RightTurn: true}))},
		{400 * time.Millisecond, dump(moved)},
		{1000 * time.Millisecond, func(f *fakeBoard) { _ = f.s.SetClock(5*time.Minute, 5*time.Minute, rules.Black, f.now) }},
		{1030 * time.Millisecond, feed(ackMsg(ClockSetNRun, true))},
		{1030 * time.Millisecond, func(f *fakeBoard) { _ = f.s.ClockCommand(ShowText("TOUCH", 0), f.now) }},
		{3000 * time.Millisecond, dump(back)},
	}
	tick := time.Duration(0)
	for _, in := range ins {
		for ; tick < in.at; tick += step {
			f.now = tick
			f.s.Tick(tick)
		}
		f.now = in.at
		in.do(f)
	}
	for end := f.now + time.Second; tick < end; tick += step {
		f.now = tick
		f.s.Tick(tick)
	}
}

const (
	fE5 = 28
	fE7 = 12
)

// The events a session emits depend on its inputs and their instants
// only, not on when its timer woke it: a board that fell silent is lost
// at the instant its timeout fell due, and an unacknowledged clock
// command is given up then, whether Tick runs every millisecond or every
// 70.
func TestSessionEventsDoNotDependOnTicks(t *testing.T) {
	cfg := Config{Settle: 50 * time.Millisecond, LinkTimeout: time.Second, AckTimeout: 200 * time.Millisecond}
	var runs [][]string
	for _, step := range []time.Duration{time.Millisecond, 7 * time.Millisecond, 70 * time.Millisecond} {
		f := newFake(t, cfg, StartPosition)
		game(f, step)
		var evs []string
		for _, e := range f.take() {
			evs = append(evs, fmt.Sprintf("%v %v", e.At, e))
		}
		runs = append(runs, evs)
	}
	require.Contains(t, fmt.Sprint(runs[0]), "link-lost")
	require.Contains(t, fmt.Sprint(runs[0]), "not acknowledged after 3 tries")
	for i := 1; i < len(runs); i++ {
		assert.Equal(t, runs[0], runs[i])
	}
}

// The raw log of a session, replayed, recreates its events exactly: the
// settled squares, the press after them, the clock readings, the clock
// command given up, the link lost and back.
func TestReplayerRecreatesTheSession(t *testing.T) {
	cfg := Config{Settle: 50 * time.Millisecond, LinkTimeout: time.Second, AckTimeout: 200 * time.Millisecond}
	for _, step := range []time.Duration{time.Millisecond, 7 * time.Millisecond, 70 * time.Millisecond} {
		t.Run(step.String(), func(t *testing.T) {
			f := newFake(t, cfg, StartPosition)
			game(f, step)
			live := f.take()
			require.True(t, IsStart(f.raw[0]))
			r := NewReplayer(cfg)
			var replayed []Event
			for _, c := range f.raw {
				replayed = append(replayed, r.Chunk(c.Host, c.Sent, c.Data)...)
			}
			replayed = append(replayed, r.Tick(f.now)...) // what fell due after the last chunk
			assert.Zero(t, r.Stats.Unexplained, "%+v", r.Stats)
			assert.Positive(t, r.Stats.External, "the start and the clock commands came from outside")
			require.Equal(t, len(live), len(replayed))
			for i := range live {
				if live[i].Kind == EventError {
					assert.EqualError(t, replayed[i].Err, live[i].Err.Error())
					live[i].Err, replayed[i].Err = nil, nil
				}
				assert.Equal(t, live[i], replayed[i], "event %d", i)
			}
		})
	}
}

// A log from its start cut anywhere replays without a panic, and bytes
// the host never wrote are counted, not obeyed.
func TestReplayerOddLogs(t *testing.T) {
	r := NewReplayer(Config{})
	assert.Empty(t, r.Chunk(0, true, []byte{CmdSendBoard}))
	assert.Equal(t, 1, r.Stats.Unexplained, "a board request before any start")
	assert.Empty(t, r.Chunk(time.Millisecond, false, []byte{0x8e, 0x00}))
	out := r.Chunk(0, false, nil) // time that went back is taken as the last instant
	require.Len(t, out, 1)
	assert.Equal(t, EventLinkLost, out[0].Kind)
	assert.Equal(t, time.Millisecond, out[0].At)
}

// A host that slept through many board requests sends the board one when
// it wakes, not one for each.
func TestSessionCatchesUpWithOneRequest(t *testing.T) {
	f := newFake(t, Config{Poll: time.Second, Reply: time.Second, LinkTimeout: 3 * time.Second}, StartPosition)
	f.s.Start(0)
	f.answer()
	f.take()
	f.sent = nil
	f.now = time.Hour
	f.s.Tick(f.now)
	assert.Equal(t, [][]byte{{CmdSendBoard}}, f.sent)
	evs := f.take()
	require.Equal(t, []EventKind{EventLinkLost}, kinds(evs))
	assert.Equal(t, 3*time.Second, evs[0].At, "lost when its timeout fell due")
	assert.Greater(t, f.s.Deadline(), f.now)
}

// BenchmarkReplay measures replaying a raw log: a board's short life
// (start, a move and a press, clock commands, a lost link) per op, and
// the cost per chunk.
func BenchmarkReplay(b *testing.B) {
	cfg := Config{Settle: 50 * time.Millisecond, LinkTimeout: time.Second, AckTimeout: 200 * time.Millisecond}
	f := newFake(&testing.T{}, cfg, StartPosition)
	game(f, 7*time.Millisecond)
	b.ReportAllocs()
	for b.Loop() {
		r := NewReplayer(cfg)
		for _, c := range f.raw {
			r.Chunk(c.Host, c.Sent, c.Data)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(f.raw)), "ns/chunk")
}
