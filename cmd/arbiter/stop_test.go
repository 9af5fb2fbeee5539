package main

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arbiter/board"
	"arbiter/rules"
	"arbiter/store"
)

// lastWordProtocol is a board protocol of the tests: its one board
// (LAST-1) says hello and shows chess's start position when its driver
// runs, and, as the driver stops, hands over the events of e2-e4 and its
// press: the last events a real driver reads before the stop, whose
// frames are in the raw log.
const lastWordProtocol = "test-last-word"

func init() {
	board.Register(board.Protocol{Name: lastWordProtocol, Title: "a test board whose move comes as the daemon stops",
		Start:    func(s board.Setup) (board.Driver, error) { return &lastWord{setup: s}, nil },
		Replayer: func(board.ReplayConfig) board.Replayer { return nil }})
}

type lastWord struct{ setup board.Setup }

const lastWordBoard = "LAST-1"

func (d *lastWord) Run(ctx context.Context) error {
	emit := func(e board.Event) {
		e.Board, e.Port, e.Host = lastWordBoard, "last-word", d.setup.Now()
		d.setup.Handler(e)
	}
	emit(board.Event{Kind: board.EventHello, Info: &board.Info{Protocol: lastWordProtocol, ID: lastWordBoard, Caps: board.CapHeight,
		MaxHeight: 1, Width: 8, Height: 8, Cells: 64}})
	start := &board.Snapshot{Squares: make([]board.SquareState, 64)}
	for i := range 16 {
		start.Squares[i].Height, start.Squares[63-i].Height = 1, 1
	}
	emit(board.Event{Kind: board.EventSnapshot, Snapshot: start})
	// The board stays so: its heartbeats tell.
	tick := time.NewTicker(100 * time.Millisecond)
	defer tick.Stop()
	for {
		select {
		case <-tick.C:
			emit(board.Event{Kind: board.EventHeartbeat})
			continue
		case <-ctx.Done():
		}
		break
	}
	emit(board.Event{Kind: board.EventSquare, Square: 12}) // e2
	emit(board.Event{Kind: board.EventSquare, Square: 28, Height: 1})
	emit(board.Event{Kind: board.EventButton, Button: board.ButtonClock, Pressed: true, Side: board.SideOf(rules.White)})
	return nil
}

func (d *lastWord) Owns(id string) bool              { return id == lastWordBoard }
func (d *lastWord) Show(string, board.Message) error { return nil }
func (d *lastWord) Resync(string) error              { return nil }
func (d *lastWord) ReplaySetting() []byte            { return nil }

// The daemon stops its boards' drivers before its director: every event
// a driver read before the stop (its frame is in the raw log, so a replay
// makes its move) is handed over and taken, the move stored, before the
// clocks are stored and the database closed.
func TestServeTakesTheBoardsLastEventsAtTheStop(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the daemon")
	}
	t.Parallel()
	dir := t.TempDir()
	cfg := boardEvent(t, dir)
	cfg.Tournaments[0].Players = cfg.Tournaments[0].Players[:2]
	cfg.Boards.Ports[0].Glob, cfg.Boards.Ports[0].Path, cfg.Boards.Ports[0].Protocol = "", filepath.Join(dir, "last-word"), lastWordProtocol
	cfg.Boards.Assign = cfg.Boards.Assign[:1]
	cfg.Boards.Assign[0].Board = lastWordBoard
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	url, out, errc := startServe(t, ctx, cfg, false)
	started(t, url, lastWordBoard, out)
	g, ok := gameOf(t, url, lastWordBoard)
	require.True(t, ok)
	cancel()
	require.NoError(t, <-errc)

	require.NoError(t, withDB(cfg.Event.Database, true, func(db *store.DB) error {
		moves, err := db.Moves(g.ID)
		require.NoError(t, err)
		require.Len(t, moves, 1, "the move read as the daemon stopped is stored")
		assert.Equal(t, "e4", moves[0].Notation)
		g, err := db.Game(g.ID)
		require.NoError(t, err)
		assert.Equal(t, 1, g.ClockPly, "the clocks stored at the stop are those after the move")
		return nil
	}))
}
