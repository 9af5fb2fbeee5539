package board_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arbiter/board"
)

// stream is a byte-stream protocol's replayer, as a DGT one is: every
// received byte 'x' is a square change, and a settle timer fires a
// heartbeat 250 ms after the last byte.
type stream struct {
	cfg    board.ReplayConfig
	settle time.Duration
	stats  board.ReplayStats
}

func (s *stream) Connect(string, time.Duration) {}
func (s *stream) Disconnect(time.Duration)      {}
func (s *stream) Feed(r board.Record) {
	if r.Sent {
		s.stats.Sent++
		return
	}
	for range r.Data {
		s.stats.Frames++
		s.cfg.Emit(board.Event{Kind: board.EventSquare, RawSeq: r.Seq, Host: r.Host})
	}
	s.settle = r.Host + 250*time.Millisecond
}
func (s *stream) Next() time.Duration {
	if s.settle == 0 {
		return 1<<63 - 1
	}
	return s.settle
}
func (s *stream) Tick(now time.Duration) {
	if s.settle != 0 && now >= s.settle {
		s.settle = 0
		s.cfg.Emit(board.Event{Kind: board.EventHeartbeat, Host: now})
	}
}
func (s *stream) RequestState(time.Duration)            {}
func (s *stream) Info() *board.Info                     { return nil }
func (s *stream) Handshake(board.Record) bool           { return false }
func (s *stream) Assume(board.Info, board.Record) error { return nil }
func (s *stream) Stats() board.ReplayStats              { return s.stats }

// streamProtocol registers the stream replayer as a protocol of its own.
func streamProtocol(name string, replayer func(board.ReplayConfig) board.Replayer) board.Protocol {
	return board.Protocol{Name: name, Title: "a test stream", Replayer: replayer,
		Start: func(board.Setup) (board.Driver, error) { return nil, nil }}
}

func TestReplayerRegistry(t *testing.T) {
	board.Register(streamProtocol("test-stream", func(cfg board.ReplayConfig) board.Replayer { return &stream{cfg: cfg} }))
	assert.Contains(t, board.ProtocolNames(), "test-stream")
	assert.Panics(t, func() {
		board.Register(streamProtocol("test-stream", func(board.ReplayConfig) board.Replayer { return nil }))
	}, "a protocol registered twice")

	var got []board.Event
	r, err := board.NewReplayer("test-stream", board.ReplayConfig{Emit: func(e board.Event) { got = append(got, e) }})
	require.NoError(t, err)
	r.Feed(board.Record{Seq: 1, Host: time.Second, Sent: true, Data: []byte("?")})
	r.Feed(board.Record{Seq: 2, Host: time.Second, Data: []byte("xx")})
	require.Equal(t, time.Second+250*time.Millisecond, r.Next())
	r.Tick(r.Next())
	require.Len(t, got, 3)
	assert.Equal(t, uint64(2), got[1].RawSeq)
	assert.Equal(t, board.EventHeartbeat, got[2].Kind)
	assert.Equal(t, board.ReplayStats{Frames: 2, Sent: 1}, r.Stats())

	_, err = board.NewReplayer("smoke-signals", board.ReplayConfig{})
	require.ErrorContains(t, err, `no replayer for board protocol "smoke-signals"`)
}
