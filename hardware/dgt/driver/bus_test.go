package driver_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arbiter/board"
	"arbiter/hardware/dgt"
	"arbiter/hardware/dgt/driver"
	"arbiter/hardware/dgt/sim"
	"arbiter/rules"
	"arbiter/rules/chess"
)

// recorder keeps what the daemon would see of each board: its events, the
// board they build, and the board at every clock press.
type recorder struct {
	mu      sync.Mutex
	events  map[string][]board.Event
	boards  map[string]*[64]rules.Piece
	presses map[string][][64]rules.Piece
}

func newRecorder() *recorder {
	return &recorder{events: map[string][]board.Event{}, boards: map[string]*[64]rules.Piece{}, presses: map[string][][64]rules.Piece{}}
}

func (r *recorder) handle(e board.Event) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.events[e.Board] = append(r.events[e.Board], e)
	b := r.boards[e.Board]
	if b == nil {
		b = new([64]rules.Piece)
		r.boards[e.Board] = b
	}
	switch e.Kind {
	case board.EventSnapshot:
		for sq, s := range e.Snapshot.Squares {
			b[sq] = s.Top.Piece
		}
	case board.EventSquare:
		b[e.Square] = e.Top.Piece
	case board.EventButton:
		if e.Button == board.ButtonClock {
			r.presses[e.Board] = append(r.presses[e.Board], *b)
		}
	}
}

func (r *recorder) board(id string) [64]rules.Piece {
	r.mu.Lock()
	defer r.mu.Unlock()
	if b := r.boards[id]; b != nil {
		return *b
	}
	return [64]rules.Piece{}
}

func (r *recorder) pressed(id string) [][64]rules.Piece {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([][64]rules.Piece(nil), r.presses[id]...)
}

func (r *recorder) kinds(id string) []board.EventKind {
	r.mu.Lock()
	defer r.mu.Unlock()
	var ks []board.EventKind
	for _, e := range r.events[id] {
		ks = append(ks, e.Kind)
	}
	return ks
}

func (r *recorder) health(id string) []board.Health {
	r.mu.Lock()
	defer r.mu.Unlock()
	var hs []board.Health
	for _, e := range r.events[id] {
		if e.Kind == board.EventHealth {
			hs = append(hs, e.Health)
		}
	}
	return hs
}

func viewBoard(v rules.View) (b [64]rules.Piece) {
	for sq := range v.Stacks {
		b[sq], _ = v.Top(rules.Square(sq))
	}
	return b
}

func scripted(t *testing.T, moves ...string) []rules.View {
	t.Helper()
	var p rules.Position = chess.Start()
	views := []rules.View{p.View()}
	for _, s := range moves {
		_, next, err := rules.PlayText(p, s)
		require.NoError(t, err, s)
		p = next
		views = append(views, p.View())
	}
	return views
}

// busDaemon is the bus driver as the daemon runs it, started and stopped
// by the test.
type busDaemon struct {
	drv    *driver.Bus
	rec    *recorder
	cancel context.CancelFunc
	done   chan error
}

// startBus starts the bus driver on lines. The emulated boards answer
// every request, and a ping to every board within 100 ms (their
// PingSpread): the reply timeout and the ping's window bound answers that
// will come, and are generous, so that a loaded host neither takes a board
// for silent nor misses its answer to the ping.
func startBus(t *testing.T, lines ...driver.Line) *busDaemon {
	t.Helper()
	epoch := time.Now()
	rec := newRecorder()
	drv, err := driver.NewBus(driver.BusConfig{Lines: lines, Scan: 100 * time.Millisecond, Poll: 30 * time.Millisecond,
		Bus: dgt.BusConfig{PingWindow: time.Second, Timeout: time.Second}, Handler: rec.handle,
		Now: func() time.Duration { return time.Since(epoch) }})
	require.NoError(t, err)
	ctx, cancel := context.WithCancel(context.Background())
	d := &busDaemon{drv: drv, rec: rec, cancel: cancel, done: make(chan error, 1)}
	go func() { d.done <- drv.Run(ctx) }()
	return d
}

func (d *busDaemon) stop(t *testing.T) {
	t.Helper()
	d.cancel()
	require.NoError(t, <-d.done)
}

// busLine is a line of emulated boards, each with its game and player.
type busLine struct {
	line    *sim.Line
	boards  []*sim.Board
	ids     []string
	games   [][]rules.View
	players []*sim.Player
}

func newBusLine(t *testing.T, games ...[]rules.View) *busLine {
	t.Helper()
	bl := &busLine{games: games}
	for i := range games {
		b := sim.NewBoard(sim.Config{Serial: fmt.Sprintf("%05d", 3001+i), Rotated: i == 1, Seed: uint64(i + 5),
			PingSpread: 100 * time.Millisecond})
		b.ConnectClock(15*time.Minute, 15*time.Minute)
		b.SetUp(games[i][0])
		bl.boards = append(bl.boards, b)
		bl.ids = append(bl.ids, fmt.Sprintf("DGT-%05d", b.Addr()))
		bl.players = append(bl.players, &sim.Player{Board: b, Rng: rand.New(rand.NewPCG(uint64(i), 3)), Step: time.Millisecond, Slide: 0.3})
	}
	var err error
	bl.line, err = sim.Attach(filepath.Join(t.TempDir(), "bus0"), bl.boards...)
	require.NoError(t, err)
	t.Cleanup(func() { bl.line.Close() })
	return bl
}

// play makes move k of board i and presses the clock.
func (bl *busLine) play(i, k int) {
	bl.players[i].Move(bl.games[i][k-1], bl.games[i][k])
	bl.boards[i].Press(k%2 == 1)
}

// Every board of a bus line is a board of its own for the daemon: its
// handshake names it by its bus address, its moves arrive as square
// changes and clock presses, its clock is read; a message for it is taken
// (the bus cannot show one); an unplugged line disconnects its boards and
// they come back with it.
func TestBusBoardsReachTheDaemon(t *testing.T) {
	bl := newBusLine(t, scripted(t, "e4", "e5", "Nf3"), scripted(t, "d4", "Nf6", "c4"))
	d := startBus(t, driver.Line{Path: bl.line.Path(), Addresses: []uint16{bl.boards[0].Addr()}})
	defer d.stop(t)
	for i, id := range bl.ids {
		require.Eventually(t, func() bool { return d.rec.board(id) == viewBoard(bl.games[i][0]) }, 10*time.Second, 5*time.Millisecond,
			"board %s set up: %v", id, d.rec.kinds(id))
		assert.True(t, d.drv.Owns(id))
		assert.Equal(t, board.EventHello, d.rec.kinds(id)[0], "board %s says hello first", id)
		d.rec.mu.Lock()
		info := d.rec.events[id][0].Info
		d.rec.mu.Unlock()
		require.NotNil(t, info)
		// Its loop reads its log by itself, and the bus shows nothing on
		// its clock: no one is to ask for either.
		assert.Equal(t, driver.BusCaps, info.Caps, "board %s", id)
		assert.False(t, info.Caps.Has(board.CapLog))
	}
	// Wait for the start tags: the first poll reads the clocks.
	for _, id := range bl.ids {
		require.Eventually(t, func() bool {
			for _, k := range d.rec.kinds(id) {
				if k == board.EventClock {
					return true
				}
			}
			return false
		}, 10*time.Second, 5*time.Millisecond, "board %s: its clock is read", id)
	}
	for k := 1; k < 3; k++ {
		for i, id := range bl.ids {
			bl.play(i, k)
			require.Eventually(t, func() bool { return len(d.rec.pressed(id)) == k }, 10*time.Second, 5*time.Millisecond,
				"board %s move %d", id, k)
			assert.Equal(t, viewBoard(bl.games[i][k]), d.rec.pressed(id)[k-1], "board %s: the move before the press", id)
		}
	}
	assert.NoError(t, d.drv.Show(bl.ids[0], &board.Alert{Text: "illegal"}), "taken, not shown")
	assert.ErrorContains(t, d.drv.Show("DGT-99999", &board.Alert{Text: "x"}), "not connected")
	require.NoError(t, d.drv.Resync(bl.ids[0]))

	bl.line.Unplug()
	for _, id := range bl.ids {
		require.Eventually(t, func() bool { return assert.ObjectsAreEqual([]board.Health{board.Disconnected}, d.rec.health(id)) },
			10*time.Second, 5*time.Millisecond, "board %s disconnected: %v", id, d.rec.health(id))
	}
	require.NoError(t, bl.line.Replug())
	for i, id := range bl.ids {
		// Back as a single board comes back: a handshake, then the board.
		require.Eventually(t, func() bool {
			ks := d.rec.kinds(id)
			for j, k := range ks {
				if k == board.EventHealth {
					return len(ks) >= j+3 && ks[j+1] == board.EventHello && ks[j+2] == board.EventSnapshot
				}
			}
			return false
		}, 10*time.Second, 5*time.Millisecond, "board %s back: %v", id, d.rec.kinds(id))
		bl.play(i, 3)
		require.Eventually(t, func() bool { return len(d.rec.pressed(id)) == 3 }, 10*time.Second, 5*time.Millisecond,
			"board %s move 3 after the replug", id)
		assert.Equal(t, viewBoard(bl.games[i][3]), d.rec.pressed(id)[2])
	}
}

// A board the daemon found by a ping to every board is known: when its
// line comes back after an unplug, it is asked for by its address, so it
// comes back with the line even when its answers to a ping to every
// board are lost (they collide, or a loaded host takes them after the
// ping's window), not a minute later at the next ping round.
func TestBusBoardsFoundByPingComeBackWithTheLine(t *testing.T) {
	bl := newBusLine(t, scripted(t, "e4"), scripted(t, "d4"))
	d := startBus(t, driver.Line{Path: bl.line.Path(), Addresses: []uint16{bl.boards[0].Addr()}})
	defer d.stop(t)
	for i, id := range bl.ids {
		require.Eventually(t, func() bool { return d.rec.board(id) == viewBoard(bl.games[i][0]) }, 10*time.Second, 5*time.Millisecond,
			"board %s set up: %v", id, d.rec.kinds(id))
	}
	bl.boards[1].LosePingAnswers(true)
	bl.line.Unplug()
	for _, id := range bl.ids {
		require.Eventually(t, func() bool { return assert.ObjectsAreEqual([]board.Health{board.Disconnected}, d.rec.health(id)) },
			10*time.Second, 5*time.Millisecond, "board %s disconnected: %v", id, d.rec.health(id))
	}
	require.NoError(t, bl.line.Replug())
	for _, id := range bl.ids {
		require.Eventually(t, func() bool {
			ks := d.rec.kinds(id)
			return len(ks) > 0 && ks[0] == board.EventHello && slices.Contains(ks[1:], board.EventHello)
		}, 10*time.Second, 5*time.Millisecond, "board %s back with the line: %v", id, d.rec.kinds(id))
	}
}

// The daemon stops in mid-game while the players go on; when it starts
// again, each board's moves made meanwhile are read from the board's own
// log (EEPROM) and delivered as the daemon reads a board's moves: the
// board as the daemon left it, then each move's square changes and its
// clock press.
func TestBusMovesWhileTheDaemonWasDown(t *testing.T) {
	bl := newBusLine(t, scripted(t, "e4", "e5", "Nf3", "Nc6"), scripted(t, "d4", "d5", "c4"))
	first := startBus(t, driver.Line{Path: bl.line.Path()})
	for i, id := range bl.ids {
		require.Eventually(t, func() bool { return len(first.rec.kinds(id)) > 0 }, 10*time.Second, 5*time.Millisecond)
		require.Eventually(t, func() bool {
			for _, k := range first.rec.kinds(id) {
				if k == board.EventClock {
					return true
				}
			}
			return false
		}, 10*time.Second, 5*time.Millisecond, "board %s: polled", id)
		bl.play(i, 1)
		require.Eventually(t, func() bool { return len(first.rec.pressed(id)) == 1 }, 10*time.Second, 5*time.Millisecond)
	}
	first.stop(t)
	for i := range bl.ids {
		for k := 2; k < len(bl.games[i]); k++ {
			bl.play(i, k)
		}
	}
	second := startBus(t, driver.Line{Path: bl.line.Path()})
	defer second.stop(t)
	for i, id := range bl.ids {
		moves := len(bl.games[i]) - 2
		require.Eventually(t, func() bool { return len(second.rec.pressed(id)) == moves }, 10*time.Second, 5*time.Millisecond,
			"board %s: %v", id, second.rec.kinds(id))
		var want [][64]rules.Piece
		for _, v := range bl.games[i][2:] {
			want = append(want, viewBoard(v))
		}
		assert.Equal(t, want, second.rec.pressed(id), "board %s: every move made while the daemon was down, then its press", id)
		ks := second.rec.kinds(id)
		require.GreaterOrEqual(t, len(ks), 2)
		assert.Equal(t, []board.EventKind{board.EventHello, board.EventSnapshot}, ks[:2])
		second.rec.mu.Lock()
		snap := second.rec.events[id][1].Snapshot
		second.rec.mu.Unlock()
		var got [64]rules.Piece
		for sq, s := range snap.Squares {
			got[sq] = s.Top.Piece
		}
		// The board as the daemon left it: after move 1, or, when a poll
		// the daemon sent just before it stopped reached the board only
		// once the player had begun move 2 (a loaded host), with the
		// changes of move 2 that poll took and nobody read. Every square
		// is then as after move 1 or as after move 2; the moves read above
		// are right either way.
		left, next := viewBoard(bl.games[i][1]), viewBoard(bl.games[i][2])
		for sq := range got {
			assert.True(t, got[sq] == left[sq] || got[sq] == next[sq], "board %s: the board as the daemon left it: square %d is %v, neither %v nor %v",
				id, sq, got[sq], left[sq], next[sq])
		}
	}
}
