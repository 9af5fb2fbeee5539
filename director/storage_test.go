package director_test

import (
	"context"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arbiter/board"
	"arbiter/director"
	"arbiter/rules"
	"arbiter/store"
)

// heldGame starts a two-player chess game on table B1, a board with a
// display, where an illegal move loses at once: the harshest rule for a
// storage fault to turn into a penalty. It returns once the clock runs.
func heldGame(t *testing.T) (*director.Director, *store.DB, *director.Table, *recorder, context.Context, context.CancelFunc, <-chan struct{}) {
	t.Helper()
	cfg := eventConfig(t, "swiss-dutch", 2, 1)
	cfg.Tournaments[0].IllegalMove = "loss"
	d, db := newEventFrom(t, cfg)
	rec := &recorder{}
	d.SetSender(rec)
	t1, err := d.AddTable(d.TournamentIDs()[0], "B1")
	require.NoError(t, err)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { d.Run(ctx); close(done) }()
	t.Cleanup(func() { cancel(); <-done })
	d.BoardEvent(ctx, board.Event{Kind: board.EventHello, Board: "B1",
		Info: &board.Info{ID: "B1", Caps: board.CapHeight | board.CapText, Width: 8, Height: 8, Cells: 64}})
	setUpChess(t, ctx, d, t1)
	return d, db, t1, rec, ctx, cancel, done
}

// lastOf returns the last message of type M the board was sent.
func lastOf[M board.Message](r *recorder) (M, bool) {
	var last M
	found := false
	for _, m := range r.messages() {
		if x, ok := m.(M); ok {
			last, found = x, true
		}
	}
	return last, found
}

// A move made while the database refuses writes is not stored: the game
// is held (the clocks stopped, the board told), the mover who takes the
// move back and makes it again, pressing again, makes the same move (the
// rule here would forfeit an illegal move), and once the database takes
// writes the move is stored once, acknowledged, and the clocks run again.
func TestStorageFaultHoldsTheGame(t *testing.T) {
	d, db, t1, rec, ctx, _, _ := heldGame(t)
	geo := rules.NewRect(8, 8)
	sq := func(name string) rules.Square { s, _ := geo.Lookup(name); return s }
	gameID := t1.Live().GameID

	db.InjectWriteFault(func() error { return syscall.ENOSPC })
	now := d.Now()
	t1.Input(ctx, square(now+time.Millisecond, sq("e2"), 0))
	t1.Input(ctx, square(now+2*time.Millisecond, sq("e4"), 1))
	t1.Input(ctx, press(now+3*time.Millisecond, rules.White))
	require.Eventually(t, func() bool {
		a, ok := lastOf[*board.Alert](rec)
		return ok && strings.HasPrefix(a.Text, "PAUSED")
	}, 5*time.Second, 10*time.Millisecond, "the board is not told that the game is held")
	require.Eventually(t, func() bool {
		live := t1.Live()
		return !live.Clock[0].Running && !live.Clock[1].Running
	}, 5*time.Second, 10*time.Millisecond, "the clocks run during the hold: %+v", t1.Live().Clock)
	require.Eventually(t, func() bool {
		c, ok := lastOf[*board.Clock](rec)
		return ok && c.Running == board.SideNone
	}, 5*time.Second, 10*time.Millisecond, "the board's clock is not stopped")
	_, acked := lastOf[*board.AckMove](rec)
	require.True(t, acked) // the start's
	ack, _ := lastOf[*board.AckMove](rec)
	assert.Zero(t, ack.Ply, "the move is not acknowledged")

	// Seeing nothing happen, White takes e4 back, leaves the board so
	// long that it settles, and makes the move again, pressing again.
	now = d.Now()
	t1.Input(ctx, square(now+time.Millisecond, sq("e4"), 0))
	t1.Input(ctx, square(now+2*time.Millisecond, sq("e2"), 1))
	time.Sleep(600 * time.Millisecond)
	t1.Input(ctx, heartbeat(d.Now()))
	require.Eventually(t, func() bool { return t1.Live().Recovery }, 5*time.Second, 10*time.Millisecond, "the board was not seen taken back")
	now = d.Now()
	t1.Input(ctx, square(now+time.Millisecond, sq("e2"), 0))
	t1.Input(ctx, square(now+2*time.Millisecond, sq("e4"), 1))
	t1.Input(ctx, press(now+3*time.Millisecond, rules.White))
	require.Eventually(t, func() bool { return !t1.Live().Recovery }, 5*time.Second, 10*time.Millisecond)
	assert.Empty(t, t1.Live().Result, "the storage fault turned into a penalty")
	ms, err := db.Moves(gameID)
	require.NoError(t, err)
	assert.Empty(t, ms)

	// The disk takes writes again: the move is stored, once.
	db.InjectWriteFault(nil)
	require.Eventually(t, func() bool {
		ms, err = db.Moves(gameID)
		return err == nil && len(ms) == 1
	}, 5*time.Second, 10*time.Millisecond, "the move was not stored once storage came back")
	assert.Equal(t, "e4", ms[0].Notation)
	require.Eventually(t, func() bool { return t1.Live().Clock[1].Running }, 5*time.Second, 10*time.Millisecond, "Black's clock does not run after the hold")
	ack, _ = lastOf[*board.AckMove](rec)
	assert.Equal(t, uint16(1), ack.Ply, "the move is acknowledged once stored")
	a, _ := lastOf[*board.Alert](rec)
	assert.Equal(t, board.AlertClear, a.Level, "the board's hold text is cleared")
	g, err := db.Game(gameID)
	require.NoError(t, err)
	assert.Empty(t, g.Result)
	assert.Equal(t, [2]int{}, g.Illegal, "no illegal action was counted")

	// The game goes on.
	now = d.Now()
	t1.Input(ctx, square(now+time.Millisecond, sq("e7"), 0))
	t1.Input(ctx, square(now+2*time.Millisecond, sq("e5"), 1))
	t1.Input(ctx, press(now+3*time.Millisecond, rules.Black))
	require.Eventually(t, func() bool {
		ms, err = db.Moves(gameID)
		return err == nil && len(ms) == 2
	}, 5*time.Second, 10*time.Millisecond)
	assert.Equal(t, "e5", ms[1].Notation)
}

// Stopped while its moves cannot be stored, the event says what it could
// not store.
func TestStorageFaultAtStop(t *testing.T) {
	d, db, t1, _, ctx, cancel, done := heldGame(t)
	geo := rules.NewRect(8, 8)
	e2, _ := geo.Lookup("e2")
	e4, _ := geo.Lookup("e4")
	gameID := t1.Live().GameID
	db.InjectWriteFault(func() error { return syscall.ENOSPC })
	now := d.Now()
	t1.Input(ctx, square(now+time.Millisecond, e2, 0))
	t1.Input(ctx, square(now+2*time.Millisecond, e4, 1))
	t1.Input(ctx, press(now+3*time.Millisecond, rules.White))
	require.Eventually(t, func() bool { return t1.Live().Plies == 1 }, 5*time.Second, 10*time.Millisecond)
	cancel()
	<-done
	lost := d.Unstored()
	require.NotEmpty(t, lost)
	assert.Contains(t, lost[0], "move 1 e4")
	assert.Contains(t, strings.Join(lost, "\n"), "clocks at the stop")
	assert.Contains(t, lost[0], "game "+strconv.FormatUint(gameID, 10))
}

// A mate made while the database refuses writes: the game ends on the
// board, and once the database takes writes again its last move is
// stored, then its result, in that order.
func TestStorageFaultMateStoredAfter(t *testing.T) {
	d, db, t1, _, ctx, _, _ := heldGame(t)
	geo := rules.NewRect(8, 8)
	sq := func(name string) rules.Square { s, _ := geo.Lookup(name); return s }
	gameID := t1.Live().GameID
	play := func(from, to string, side rules.Color) {
		now := d.Now()
		t1.Input(ctx, square(now+time.Millisecond, sq(from), 0))
		t1.Input(ctx, square(now+2*time.Millisecond, sq(to), 1))
		t1.Input(ctx, press(now+3*time.Millisecond, side))
	}
	for i, m := range [][2]string{{"f2", "f3"}, {"e7", "e5"}, {"g2", "g4"}} {
		play(m[0], m[1], rules.Color(i%2))
		require.Eventually(t, func() bool { ms, err := db.Moves(gameID); return err == nil && len(ms) == i+1 }, 5*time.Second, 10*time.Millisecond)
	}
	db.InjectWriteFault(func() error { return syscall.ENOSPC })
	play("d8", "h4", rules.Black)
	require.Eventually(t, func() bool { return t1.Live().Plies == 4 }, 5*time.Second, 10*time.Millisecond)
	time.Sleep(1500 * time.Millisecond) // a retry or so, the disk still full
	g, err := db.Game(gameID)
	require.NoError(t, err)
	assert.Empty(t, g.Result, "a result is stored before its move")
	db.InjectWriteFault(nil)
	require.Eventually(t, func() bool {
		g, err = db.Game(gameID)
		return err == nil && g.Result != ""
	}, 5*time.Second, 10*time.Millisecond, "the result was not stored once the database took writes")
	assert.Equal(t, "0-1", g.Result)
	ms, err := db.Moves(gameID)
	require.NoError(t, err)
	require.Len(t, ms, 4, "the mate is stored")
	assert.Equal(t, "Qh4#", ms[3].Notation)
}
