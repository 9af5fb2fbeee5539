package director_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arbiter/board"
	"arbiter/rules"
	"arbiter/rules/chess"
)

// A table whose game begins before its board has said hello (the demo's
// tables, a board switched on after its round was paired) begins it again
// once the board says what it senses, while the game still waits for its
// set-up: a board with no clock to press (board.CapNoPress, a Millennium
// or Certabo board) then has its moves taken when it settles on them. (The
// game used to keep the session it began with, which waited for a press
// that never came.)
func TestGameBegunBeforeTheHelloReadsAsTheBoardSays(t *testing.T) {
	d, db := newEvent(t, "swiss-dutch", 2, 1)
	const id = "MIL-00000001"
	tbl, err := d.AddTable(d.TournamentIDs()[0], id)
	require.NoError(t, err)
	ctx := run(t, d) // the round is paired, its game begins on the table
	require.Eventually(t, func() bool { return tbl.Live().GameID != 0 }, 5*time.Second, 10*time.Millisecond, "the game begins before the hello")

	caps := board.CapHeight | board.CapIdentity | board.CapColor | board.CapLights | board.CapNoPress
	send := func(e board.Event) {
		e.Board, e.Host = id, d.Now()
		d.BoardEvent(ctx, e)
	}
	send(board.Event{Kind: board.EventHello, Info: &board.Info{ID: id, Caps: caps, MaxHeight: 1, Width: 8, Height: 8, Cells: 64}})
	sensor := board.Sensor{Caps: caps}
	var start rules.Position = chess.Start()
	snap := &board.Snapshot{Squares: sensor.View(rules.NewRect(8, 8), start.View())}
	require.Eventually(t, func() bool {
		send(board.Event{Kind: board.EventSnapshot, Snapshot: snap})
		return tbl.Live().Clock[0].Running
	}, 5*time.Second, 100*time.Millisecond, "the set-up seen: %+v", tbl.Live())

	wp, _ := start.View().Top(12)
	send(board.Event{Kind: board.EventSquare, Square: 12})
	send(board.Event{Kind: board.EventSquare, Square: 28, Height: 1, Top: sensor.Identify(wp)})
	require.Eventually(t, func() bool {
		send(board.Event{Kind: board.EventHeartbeat})
		return tbl.Live().Plies == 1
	}, 5*time.Second, 100*time.Millisecond, "e4 is taken without a press: %+v", tbl.Live())
	moves, err := db.Moves(tbl.Live().GameID)
	require.NoError(t, err)
	require.Len(t, moves, 1)
	assert.Equal(t, "e4", moves[0].Notation)
}
