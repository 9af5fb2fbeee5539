package replay_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"arbiter/board"
	sb "arbiter/hardware/sensorboard"
	"arbiter/replay"
)

// board frames for the reader tests.
type wire struct{ enc sb.Encoder }

func (w *wire) frame(m sb.Message, ms uint32) []byte { return w.enc.Append(nil, m, ms) }

func (w *wire) dump(token uint16, ms uint32) [][]byte {
	sq := &sb.DumpSquaresMsg{Token: token}
	for range 4 {
		sq.Squares = append(sq.Squares, board.SquareState{Height: 1})
	}
	return [][]byte{w.frame(sq, ms), w.frame(&sb.DumpEndMsg{Token: token, Squares: 4}, ms)}
}

// A dump that answers the link's pending request is taken; one with
// another token, or when no request is pending, is ignored, as live.
func TestReaderTakesTheAskedDump(t *testing.T) {
	var sent []sb.Message
	rd, rp := newReader(t)
	rp.Send = func(m sb.Message) { sent = append(sent, m) }
	var w wire
	rd.Feed(w.frame(&sb.Hello{Major: sb.VersionMajor, Caps: board.CapHeight, Width: 2, Height: 2, Cells: 4, ID: "B1", Heartbeat: 500}, 10), 10*time.Millisecond, 1)
	require.NotNil(t, rd.Info())
	require.Len(t, sent, 1)
	req, ok := sent[0].(*sb.DumpReqMsg)
	require.True(t, ok)
	require.True(t, rp.Link().DumpPending())

	for _, f := range w.dump(req.Token+41, 15) {
		rd.Feed(f, 15*time.Millisecond, 2)
	}
	require.Zero(t, rd.Stats.Dumps, "a dump answering another request is dropped")
	require.True(t, rp.Link().DumpPending())
	for _, f := range w.dump(req.Token, 20) {
		rd.Feed(f, 20*time.Millisecond, 2)
	}
	require.Equal(t, 1, rd.Stats.Dumps)
	require.False(t, rp.Link().DumpPending())

	for _, f := range w.dump(req.Token+42, 30) {
		rd.Feed(f, 30*time.Millisecond, 3)
	}
	require.Equal(t, 1, rd.Stats.Dumps, "a dump nobody asked for is dropped")

	// A lost frame: the link reports the gap and asks again.
	w.enc.Append(nil, &sb.HeartbeatMsg{}, 40)
	rd.Feed(w.frame(&sb.HeartbeatMsg{}, 50), 50*time.Millisecond, 4)
	require.Equal(t, 1, rd.Stats.Gaps)
	require.Len(t, sent, 2)
	// Unanswered, the request is repeated after the link's retry time, as
	// the driver's read timeouts tick the link.
	rd.Advance(3 * time.Second)
	require.Len(t, sent, 3)
}

// Bad bytes are reported with the raw sequence they came with.
func TestReaderReportsBadFrames(t *testing.T) {
	rd, _ := newReader(t)
	var bad []uint64
	rd.Bad = func(seq uint64, _ time.Duration, err error) {
		require.Error(t, err)
		bad = append(bad, seq)
	}
	var w wire
	f := w.frame(&sb.HeartbeatMsg{}, 1)
	f[3] ^= 0x10
	rd.Feed(f, time.Millisecond, 7)
	require.Equal(t, []uint64{7}, bad)
	require.Equal(t, 1, rd.Stats.Bad)
}

// As live, a frame's events carry its raw sequence number, and those of
// the link's ticks between frames carry none: a board gone silent is not
// the last frame's doing.
func TestReaderStampsOnlyFrameEvents(t *testing.T) {
	rd, _ := newReader(t)
	var events []board.Event
	rd.Event = func(e board.Event) { events = append(events, e) }
	var w wire
	rd.Feed(w.frame(&sb.Hello{Major: sb.VersionMajor, Caps: board.CapHeight, Width: 2, Height: 2, Cells: 4, ID: "B1", Heartbeat: 500}, 10), 10*time.Millisecond, 7)
	require.NotEmpty(t, events)
	for _, e := range events {
		require.Equal(t, uint64(7), e.RawSeq, "%v comes from frame 7", e.Kind)
	}
	events = nil
	rd.Advance(10 * time.Second) // silent: the link reports it
	require.NotEmpty(t, events)
	for _, e := range events {
		require.Zero(t, e.RawSeq, "%v comes from no frame", e.Kind)
	}
}

// newReader returns a reader of our protocol and its replayer.
func newReader(t *testing.T) (*replay.Reader, *sb.Replayer) {
	t.Helper()
	rd, err := replay.NewReader(sb.Protocol, "test", 0)
	require.NoError(t, err)
	rp, ok := rd.Replayer().(*sb.Replayer)
	require.True(t, ok, "our protocol is replayed by sensorboard.Replayer")
	return rd, rp
}

// A log of a protocol nobody registered is refused by name.
func TestReaderRefusesAnUnknownProtocol(t *testing.T) {
	_, err := replay.NewReader("smoke-signals", "test", 0)
	require.ErrorContains(t, err, `"smoke-signals"`)
}

// stuck is a driver's replayer that breaks board.Replayer's contract: its
// timer stays where it was after it fired (as a DGT session whose port
// had failed once did, issue 32 F3).
type stuck struct{ ticks int }

func (s *stuck) Connect(string, time.Duration)         {}
func (s *stuck) Disconnect(time.Duration)              {}
func (s *stuck) Feed(board.Record)                     {}
func (s *stuck) Next() time.Duration                   { return time.Second }
func (s *stuck) Tick(time.Duration)                    { s.ticks++ }
func (s *stuck) RequestState(time.Duration)            {}
func (s *stuck) Info() *board.Info                     { return nil }
func (s *stuck) Handshake(board.Record) bool           { return false }
func (s *stuck) Assume(board.Info, board.Record) error { return nil }
func (s *stuck) Stats() board.ReplayStats              { return board.ReplayStats{} }

// A replayer whose timer does not move on cannot hold a replay for ever:
// its timers are skipped, once per Advance, and Bad says so once.
func TestReaderEndsDespiteAStuckReplayer(t *testing.T) {
	rep := &stuck{}
	board.Register(board.Protocol{Name: "test-stuck", Title: "a replayer whose timer does not move on",
		Start:    func(board.Setup) (board.Driver, error) { return nil, nil },
		Replayer: func(board.ReplayConfig) board.Replayer { return rep }})
	rd, err := replay.NewReader("test-stuck", "test", 0)
	require.NoError(t, err)
	var bad []error
	rd.Bad = func(_ uint64, _ time.Duration, err error) { bad = append(bad, err) }
	done := make(chan struct{})
	go func() {
		defer close(done)
		rd.Advance(10 * time.Second)
		rd.FeedRecord(board.Record{Host: 11 * time.Second, Data: []byte{1}})
		rd.Advance(20 * time.Second)
	}()
	select {
	case <-done:
	case <-time.After(20 * time.Second):
		t.Fatal("Advance does not return")
	}
	require.Len(t, bad, 1)
	require.ErrorContains(t, bad[0], "timer stays at 1s")
	require.Equal(t, 3, rep.ticks, "one tick per Advance")
}
