package director_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	brd "arbiter/board"
	"arbiter/rules"
	"arbiter/rules/chess"
)

// A board plugged in after its round was paired is adopted by its hello,
// and the game that starts on it at once senses what the hello says: a
// capture an identity-sensing board reports as the captured square's new
// piece, with no lift of the victim (as a DGT board's settled reads do),
// is read. (The game used to start before the hello's capabilities were
// taken, so it judged heights only and took exd5 for an illegal move;
// TestServeWithDGTBoard failed on Qxf7# whenever the round was paired
// before the DGT board answered.)
func TestAdoptedBoardSensesFromItsFirstMove(t *testing.T) {
	d, db, ctx := pairedEvent(t, 2)

	const board = "ID-1"
	caps := brd.CapHeight | brd.CapIdentity | brd.CapColor
	sensor := brd.Sensor{Caps: caps}
	send := func(e brd.Event) {
		e.Board, e.Host = board, d.Now()
		d.BoardEvent(ctx, e)
	}
	send(brd.Event{Kind: brd.EventHello,
		Info: &brd.Info{ID: board, Caps: caps, MaxHeight: 1, Width: 8, Height: 8, Cells: 64}})
	tbl, ok := d.Table(board)
	require.True(t, ok, "the board has a table")
	require.Eventually(t, func() bool { return tbl.Live().GameID != 0 }, 5*time.Second, 10*time.Millisecond)

	// The whole board: the start position, with every piece identified.
	var start rules.Position = chess.Start()
	snap := &brd.Snapshot{Squares: make([]brd.SquareState, 64)}
	for sq := range 64 {
		if p, ok := start.View().Top(rules.Square(sq)); ok {
			snap.Squares[sq] = brd.SquareState{Height: 1, Top: sensor.Identify(p)}
		}
	}
	send(brd.Event{Kind: brd.EventSnapshot, Snapshot: snap})
	require.Eventually(t, func() bool { return tbl.Live().Clock[0].Running }, 5*time.Second, 10*time.Millisecond, "the game did not start from the dump")

	geo := rules.NewRect(8, 8)
	sq := func(name string) rules.Square {
		s, ok := geo.Lookup(name)
		require.True(t, ok, name)
		return s
	}
	lift := func(name string) { send(brd.Event{Kind: brd.EventSquare, Square: sq(name)}) }
	put := func(name string, p rules.Piece) {
		send(brd.Event{Kind: brd.EventSquare, Square: sq(name), Height: 1, Top: sensor.Identify(p)})
	}
	press := func(side rules.Color) {
		send(brd.Event{Kind: brd.EventButton, Button: brd.ButtonClock, Pressed: true, Side: brd.Side(side)})
	}
	wp, _ := start.View().Top(sq("e2"))
	bp, _ := start.View().Top(sq("d7"))
	for i, mv := range []func(){
		func() { lift("e2"); put("e4", wp); press(rules.White) },
		func() { lift("d7"); put("d5", bp); press(rules.Black) },
		// exd5 as a settled read reports it: e4 emptied, d5 now white.
		func() { lift("e4"); put("d5", wp); press(rules.White) },
	} {
		mv()
		require.Eventually(t, func() bool { return tbl.Live().Plies == i+1 }, 5*time.Second, 10*time.Millisecond,
			"move %d not read: %+v", i+1, tbl.Live())
	}
	moves, err := db.Moves(tbl.Live().GameID)
	require.NoError(t, err)
	require.Len(t, moves, 3)
	assert.Equal(t, "exd5", moves[2].Notation)
	assert.False(t, tbl.Live().Recovery)
}
