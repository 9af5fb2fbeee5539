package director_test

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arbiter/board"
	"arbiter/director"
	"arbiter/rules"
)

// dumpCounter is a board driver that counts the requests for a dump.
type dumpCounter struct {
	recorder
	asked atomic.Int32
}

func (c *dumpCounter) Resync(string) error {
	c.asked.Add(1)
	return nil
}

// chessStart is the heights of the chess start position in sensor order.
func chessStart() []int {
	h := make([]int, 64)
	for i := range 16 {
		h[i], h[63-i] = 1, 1
	}
	return h
}

// A game that waits for its set-up asks the board again for its whole
// state every few seconds: a board whose pieces were set up again unseen
// (as "arbiter simulate" started before "arbiter serve" did) is seen as it
// is, and its game starts (issue 18 §4). Once the game has started it
// asks no more.
func TestSetUpAsksForTheBoardAgain(t *testing.T) {
	d, _ := newEvent(t, "swiss-dutch", 2, 1)
	board := &dumpCounter{}
	d.SetSender(board)
	t1, err := d.AddTable(d.TournamentIDs()[0], "B1")
	require.NoError(t, err)
	ctx := run(t, d)
	require.Eventually(t, func() bool { return t1.Live().GameID != 0 }, 5*time.Second, 10*time.Millisecond)
	require.Eventually(t, func() bool { return board.asked.Load() >= 1 }, 5*time.Second, 10*time.Millisecond, "no dump asked for at the game's start")
	// The board answers with a position from another game: the set-up waits.
	other := chessStart()
	other[12], other[28] = 0, 1
	t1.Input(ctx, arbiterEvent(d.Now(), other))
	require.Eventually(t, func() bool { return board.asked.Load() >= 2 }, 5*time.Second, 10*time.Millisecond,
		"the board was not asked again while the set-up waited")
	// Its next dump shows the start position: the game starts.
	t1.Input(ctx, arbiterEvent(d.Now(), chessStart()))
	require.Eventually(t, func() bool { return t1.Live().Clock[0].Running }, 5*time.Second, 10*time.Millisecond)
	asked := board.asked.Load()
	time.Sleep(3500 * time.Millisecond)
	assert.Equal(t, asked, board.asked.Load(), "a running game asks for no dumps")
}

// A move made at once after the board's handshake is read: the state dump
// that follows a handshake showing the start position starts the game,
// and so does a start position that lasted until the first lift, however
// soon a heartbeat would have told (issue 18 §4).
func TestMoveRightAfterTheHandshakeIsRead(t *testing.T) {
	geo := rules.NewRect(8, 8)
	sq := func(name string) rules.Square {
		s, ok := geo.Lookup(name)
		require.True(t, ok, name)
		return rules.Square(geo.SensorIndex(s))
	}
	start := chessStart()
	tests := []struct {
		name string
		// missing: the dump shows this square empty, and the piece is put
		// down afterwards.
		missing string
		// after: how long after the start position is complete the first
		// lift comes.
		after time.Duration
	}{
		{"a move 50 ms after the dump", "", 50 * time.Millisecond},
		{"a move 400 ms after the last piece was set up", "h8", 400 * time.Millisecond},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d, _ := newEvent(t, "swiss-dutch", 2, 1)
			t1, err := d.AddTable(d.TournamentIDs()[0], "B1")
			require.NoError(t, err)
			ctx := run(t, d)
			require.Eventually(t, func() bool { return t1.Live().GameID != 0 }, 5*time.Second, 10*time.Millisecond)

			at := d.Now()
			dump := append([]int(nil), start...)
			if tt.missing != "" {
				dump[sq(tt.missing)] = 0
			}
			t1.Input(ctx, arbiterEvent(at, dump))
			if tt.missing != "" {
				at += 100 * time.Millisecond
				t1.Input(ctx, square(at, sq(tt.missing), 1))
			}
			at += tt.after
			t1.Input(ctx, square(at, sq("e2"), 0))
			t1.Input(ctx, square(at+100*time.Millisecond, sq("e4"), 1))
			t1.Input(ctx, press(at+200*time.Millisecond, rules.White))
			require.Eventually(t, func() bool { return t1.Live().Plies == 1 }, 5*time.Second, 10*time.Millisecond,
				"the first move was taken for setting up")
			require.Equal(t, "e4", t1.Live().LastMove)
		})
	}
}

// A game begun without a move on one board, and started after a restart on
// another, replays from that board's frames: its raw-log position is taken
// again from the board it is played on, not kept from the first board's
// log, where it points at no frame of this board ("no raw frames" from
// "arbiter replay --all", issue 18 §4).
func TestGameMovedToAnotherBoardRecordsWhereItsFramesBegin(t *testing.T) {
	cfg := eventConfig(t, "swiss-dutch", 4, 1)
	d1, db := newEventFrom(t, cfg)
	raw := db.NewRawLog(0)
	for i := range 40 { // B1's log holds the frames of earlier games
		_, err := raw.Append("B1", int64(i), time.Now(), []byte{0})
		require.NoError(t, err)
	}
	require.NoError(t, raw.Flush())
	d1.SetRawLog(raw)
	id := d1.TournamentIDs()[0]
	b1, err := d1.AddTable(id, "B1")
	require.NoError(t, err)
	b2, err := d1.AddTable(id, "B2")
	require.NoError(t, err)
	ctx1, stop := context.WithCancel(context.Background())
	stopped := make(chan struct{})
	go func() {
		_ = d1.Run(ctx1)
		close(stopped)
	}()
	t.Cleanup(func() { stop(); <-stopped })
	require.Eventually(t, func() bool { return b1.Live().GameID != 0 && b2.Live().GameID != 0 }, 5*time.Second, 10*time.Millisecond)
	begun := b1.Live().GameID
	g, err := db.Game(begun)
	require.NoError(t, err)
	require.Equal(t, uint64(41), g.RawFrom, "the game begun on B1 replays from B1's next frame")
	require.NoError(t, d1.SetResult(ctx1, b2.Live().GameID, rules.Win(rules.First, rules.ArbiterDecision), "chief", "scoresheet"))
	stop()
	<-stopped

	// The daemon restarts with only B2 plugged in: B2's table, whose game
	// is over, takes the game begun on B1.
	d2, err := director.New(cfg, db, slog.Default())
	require.NoError(t, err)
	d2.SetRawLog(raw)
	t2, err := d2.AddTable(id, "B2")
	require.NoError(t, err)
	run(t, d2)
	require.Eventually(t, func() bool { return t2.Live().GameID == begun }, 5*time.Second, 10*time.Millisecond)
	g, err = db.Game(begun)
	require.NoError(t, err)
	assert.Equal(t, "B2", g.BoardID)
	next, err := raw.Next("B2")
	require.NoError(t, err)
	assert.Equal(t, next, g.RawFrom, "the game replays from B2's frames")
}

// A board lost before a round is paired keeps its table's game waiting,
// with the arbiter told; when it comes back under another path the game
// starts, and the table tells the truth all along: where the board is
// connected, that it was lost, and when it came back (issue 18 §4).
func TestBoardLostAndBackUnderAnotherPath(t *testing.T) {
	d, db := newEvent(t, "swiss-dutch", 4, 2)
	id := d.TournamentIDs()[0]
	tbl, err := d.AddTable(id, "B1")
	require.NoError(t, err)
	hello := func(port string) board.Event {
		return board.Event{Kind: board.EventHello, Board: "B1", Port: port,
			Info: &board.Info{ID: "B1", Caps: board.CapHeight, Width: 8, Height: 8, Cells: 64}}
	}
	ctx0 := context.Background()
	d.BoardEvent(ctx0, hello("/dev/ttyACM0"))
	l := tbl.Live()
	assert.Equal(t, "active", l.Health)
	assert.Equal(t, "/dev/ttyACM0", l.Port)
	assert.Zero(t, l.Lost)
	assert.True(t, l.Back.IsZero(), "a board that was never lost is not back")

	d.BoardEvent(ctx0, board.Event{Kind: board.EventHealth, Board: "B1", Port: "/dev/ttyACM0", Health: board.Disconnected})
	l = tbl.Live()
	assert.Equal(t, "disconnected", l.Health)
	assert.Empty(t, l.Port, "a disconnected board is connected nowhere")
	assert.Equal(t, 1, l.Lost)

	ctx := run(t, d)
	r1 := waitRound(t, db, id, 1)
	require.Eventually(t, func() bool {
		open, err := db.Alerts(true)
		return err == nil && len(open) == 1 && open[0].Kind == director.AlertBoardGone
	}, 5*time.Second, 5*time.Millisecond, "the arbiter is told the game waits for its board")
	time.Sleep(100 * time.Millisecond)
	assert.Zero(t, tbl.Live().GameID, "no game started on a gone board")

	d.BoardEvent(ctx, hello("/dev/ttyACM3"))
	require.Eventually(t, func() bool { return tbl.Live().GameID == r1.Pairings[0].GameID }, 5*time.Second, 5*time.Millisecond,
		"the board back under another path did not start its game")
	l = tbl.Live()
	assert.Equal(t, "active", l.Health)
	assert.Equal(t, "/dev/ttyACM3", l.Port)
	assert.Equal(t, 1, l.Lost)
	assert.False(t, l.Back.IsZero(), "the board is shown back")
}

// A move made on the board after its handshake but before its game began
// (the round not paired yet, "arbiter simulate" started before "arbiter
// serve") is read when the game begins: the table keeps what the board
// reported since its last dump while no game ran, and hands it to the
// game (issue 18 §4).
func TestMoveBeforeTheGameBeganIsRead(t *testing.T) {
	cfg := eventConfig(t, "swiss-dutch", 2, 1)
	cfg.Tournaments[0].AutoPair = false
	d, _ := newEventFrom(t, cfg)
	t1, err := d.AddTable(d.TournamentIDs()[0], "B1")
	require.NoError(t, err)
	ctx := run(t, d)
	geo := rules.NewRect(8, 8)
	sq := func(name string) rules.Square {
		s, ok := geo.Lookup(name)
		require.True(t, ok, name)
		return rules.Square(geo.SensorIndex(s))
	}
	at := d.Now()
	t1.Input(ctx, arbiterEvent(at, chessStart())) // the handshake's dump
	t1.Input(ctx, square(at+50*time.Millisecond, sq("e2"), 0))
	t1.Input(ctx, square(at+100*time.Millisecond, sq("e4"), 1))
	t1.Input(ctx, press(at+150*time.Millisecond, rules.White))
	time.Sleep(100 * time.Millisecond)
	require.Zero(t, t1.Live().GameID)

	require.NoError(t, d.PairNextRound(ctx, d.TournamentIDs()[0], "chief", "the players are seated"))
	require.Eventually(t, func() bool { return t1.Live().Plies == 1 }, 5*time.Second, 10*time.Millisecond,
		"the move made before the game began was lost")
	assert.Equal(t, "e4", t1.Live().LastMove)
}

// A game the table already plays is not started again by a second start
// (a board's return and a round's pairing both start the game meant for
// the table): it keeps its session and the raw-log position of the start
// that happened, where its replay finds the frames that started it.
func TestGameStartedTwiceKeepsItsStart(t *testing.T) {
	d, db := newEvent(t, "swiss-dutch", 2, 1)
	raw := db.NewRawLog(0)
	d.SetRawLog(raw)
	t1, err := d.AddTable(d.TournamentIDs()[0], "B1")
	require.NoError(t, err)
	ctx := run(t, d)
	require.Eventually(t, func() bool { return t1.Live().GameID != 0 }, 5*time.Second, 10*time.Millisecond)
	id := t1.Live().GameID
	g, err := db.Game(id)
	require.NoError(t, err)
	from := g.RawFrom
	require.NotZero(t, from)
	for i := range 5 { // the board's frames after the start
		_, err := raw.Append("B1", int64(i), time.Now(), []byte{0})
		require.NoError(t, err)
	}
	t1.Input(ctx, arbiterEvent(d.Now(), chessStart()))
	require.Eventually(t, func() bool { return t1.Live().Clock[0].Running }, 5*time.Second, 10*time.Millisecond)

	require.NoError(t, d.StartOn(ctx, t1, id))
	g, err = db.Game(id)
	require.NoError(t, err)
	assert.Equal(t, from, g.RawFrom, "the game's replay starts where the game did")
	assert.True(t, t1.Live().Clock[0].Running, "the game was not started again")
}

// A board that stopped answering and talks again without a handshake is
// back too: the game that waited for it starts (issue 18 §4).
func TestBoardAnsweringAgainStartsItsWaitingGame(t *testing.T) {
	d, db := newEvent(t, "swiss-dutch", 2, 1)
	id := d.TournamentIDs()[0]
	tbl, err := d.AddTable(id, "B1")
	require.NoError(t, err)
	ctx0 := context.Background()
	d.BoardEvent(ctx0, board.Event{Kind: board.EventHello, Board: "B1", Port: "/dev/ttyACM0",
		Info: &board.Info{ID: "B1", Caps: board.CapHeight, Width: 8, Height: 8, Cells: 64}})
	d.BoardEvent(ctx0, board.Event{Kind: board.EventHealth, Board: "B1", Health: board.NotResponding})
	ctx := run(t, d)
	r1 := waitRound(t, db, id, 1)
	time.Sleep(100 * time.Millisecond)
	require.Zero(t, tbl.Live().GameID, "no game started on a board that does not answer")
	d.BoardEvent(ctx, board.Event{Kind: board.EventHealth, Board: "B1", Health: board.Active})
	require.Eventually(t, func() bool { return tbl.Live().GameID == r1.Pairings[0].GameID }, 5*time.Second, 5*time.Millisecond,
		"the board answering again did not start its game")
	l := tbl.Live()
	assert.Equal(t, 1, l.Lost)
	assert.False(t, l.Back.IsZero())
}

// What a board's driver cannot settle by itself (an error marked
// board.ErrAttention: a bus board whose game its log could not give) is
// an alert for the arbiter, naming the table; the driver's other errors
// are not.
func TestBoardErrorNeedingTheArbiterIsAlerted(t *testing.T) {
	d, db := newEvent(t, "swiss-dutch", 4, 2)
	tbl, err := d.AddTable(d.TournamentIDs()[0], "B1")
	require.NoError(t, err)
	ctx := context.Background()
	d.BoardEvent(ctx, board.Event{Kind: board.EventHello, Board: "B1", Port: "/dev/ttyUSB0",
		Info: &board.Info{ID: "B1", Caps: board.CapHeight, Width: 8, Height: 8, Cells: 64}})
	d.BoardEvent(ctx, board.Event{Kind: board.EventError, Board: "B1", Port: "/dev/ttyUSB0", Err: errors.New("a frame made no sense")})
	d.BoardEvent(ctx, board.Event{Kind: board.EventError, Board: "B1", Port: "/dev/ttyUSB0",
		Err: fmt.Errorf("%w: the moves made while no host polled it are not read", board.ErrAttention)})
	alerts, err := db.Alerts(true)
	require.NoError(t, err)
	require.Len(t, alerts, 1)
	a := alerts[0]
	assert.Equal(t, director.AlertBoard, a.Kind)
	assert.Equal(t, "B1", a.BoardID)
	assert.Contains(t, a.Where, fmt.Sprintf("table %d (board B1)", tbl.Number))
	assert.Contains(t, a.Message, "the moves made while no host polled it are not read")
	assert.NotEmpty(t, a.Advice)
}
