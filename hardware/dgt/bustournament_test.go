package dgt_test

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arbiter/hardware/dgt"
	"arbiter/hardware/dgt/sim"
	"arbiter/rules"
	"arbiter/rules/chess"
)

// presses records what a host saw of each board: the settled board, and
// the board at every lever press.
type presses struct {
	mu      sync.Mutex
	mirrors map[uint16]*mirror
	at      map[uint16][][64]rules.Piece
}

func (p *presses) emit(e dgt.Event) {
	p.mu.Lock()
	m := p.mirrors[e.Addr]
	if m == nil {
		m = newMirror()
		p.mirrors[e.Addr] = m
	}
	p.mu.Unlock()
	m.emit(e)
	if e.Kind == dgt.EventLever {
		m.mu.Lock()
		b := m.board
		m.mu.Unlock()
		p.mu.Lock()
		p.at[e.Addr] = append(p.at[e.Addr], b)
		p.mu.Unlock()
	}
}

func (p *presses) mirror(addr uint16) *mirror {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.mirrors[addr]
}

func (p *presses) boardsAtPresses(addr uint16) [][64]rules.Piece {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([][64]rules.Piece(nil), p.at[addr]...)
}

// host is a tournament loop on a line, started and stopped by the test as
// the daemon is.
type host struct {
	tour   *dgt.Tournament
	seen   *presses
	cancel context.CancelFunc
	done   chan error
	port   interface{ Close() error }
}

// startHost starts a tournament loop on the line at path, the boards at
// known expected. Its bus waits timeout for a reply: where every request
// is answered, a generous bound on a reply that will come, so that a
// loaded host takes no board for silent.
func startHost(t *testing.T, path string, known []uint16, timeout time.Duration) *host {
	t.Helper()
	port, err := dgt.OpenSerial(path)
	require.NoError(t, err)
	bus, err := dgt.NewBus(port, dgt.BusConfig{PingWindow: 200 * time.Millisecond, Timeout: timeout})
	require.NoError(t, err)
	h := &host{seen: &presses{mirrors: map[uint16]*mirror{}, at: map[uint16][][64]rules.Piece{}}, done: make(chan error, 1), port: port}
	for _, a := range known {
		h.seen.mirrors[a] = newMirror()
	}
	h.tour = dgt.NewTournament(bus, dgt.TournamentConfig{Boards: known, Poll: 30 * time.Millisecond, Verify: 3, Emit: h.seen.emit})
	ctx, cancel := context.WithCancel(context.Background())
	h.cancel = cancel
	go func() { h.done <- h.tour.Run(ctx) }()
	return h
}

func (h *host) stop(t *testing.T) {
	t.Helper()
	h.cancel()
	require.NoError(t, <-h.done)
	h.port.Close()
}

// The host stops in mid-game (a daemon restart) while the players go on;
// the next host resumes every board from its start tag without waiting
// for a start position, and delivers the moves made meanwhile one by one,
// each board as it stood at its lever press, then the press. So it does
// whether the boards' answer from the start tag holds the tag itself and
// the pieces logged with it or not (DGT's notes do not say; issue 32 F1).
func TestBusResumesAfterHostRestart(t *testing.T) {
	for _, tc := range []struct {
		name string
		form sim.FromStartForm
	}{
		{"the answer holds the start tag", sim.FromStartTag},
		{"the answer leaves out the start tag", sim.FromStartNoTag},
		{"the answer holds the changes since the start tag only", sim.FromStartChanges},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel() // each on its own pseudo-terminal; they mostly wait
			resumeAfterRestart(t, tc.form)
		})
	}
}

func resumeAfterRestart(t *testing.T, form sim.FromStartForm) {
	var boards []*sim.Board
	for i := range 2 {
		boards = append(boards, sim.NewBoard(sim.Config{Serial: fmt.Sprintf("%05d", 3001+i), Rotated: i == 1,
			Seed: uint64(70 + i), PingSpread: 100 * time.Millisecond, FromStart: form}))
	}
	line, err := sim.Attach(filepath.Join(t.TempDir(), "bus0"), boards...)
	require.NoError(t, err)
	t.Cleanup(func() { line.Close() })
	addrs := []uint16{boards[0].Addr(), boards[1].Addr()}
	games := [][]rules.View{
		scripted(t, "", "e4", "e5", "Nf3", "Nc6", "Bb5"),
		scripted(t, "", "d4", "d5", "c4", "dxc4"),
	}
	players := make([]*sim.Player, 2)
	for i, b := range boards {
		b.SetUp(games[i][0])
		players[i] = &sim.Player{Board: b, Rng: rand.New(rand.NewPCG(uint64(i), 9)), Step: time.Millisecond}
	}
	play := func(i, k int) {
		players[i].Move(games[i][k-1], games[i][k])
		boards[i].Press(k%2 == 1)
	}

	first := startHost(t, line.Path(), addrs, time.Second)
	require.Eventually(t, func() bool { return first.tour.StatsNow().Polls > 0 }, 10*time.Second, 5*time.Millisecond,
		"the start tags are written")
	for i := range boards {
		play(i, 1)
		first.seen.mirror(addrs[i]).waitFor(t, viewBoard(games[i][1]), 10*time.Second, fmt.Sprintf("board %d move 1", i))
	}
	require.Eventually(t, func() bool { return len(first.seen.boardsAtPresses(addrs[1])) == 1 }, 5*time.Second, 5*time.Millisecond, "%d %d", len(first.seen.boardsAtPresses(addrs[0])), len(first.seen.boardsAtPresses(addrs[1])))
	first.stop(t)

	// No host: the players go on.
	for i := range boards {
		for k := 2; k < len(games[i]); k++ {
			play(i, k)
		}
	}

	second := startHost(t, line.Path(), addrs, time.Second)
	defer second.stop(t)
	for i := range boards {
		last := games[i][len(games[i])-1]
		m := second.seen.mirror(addrs[i])
		m.waitFor(t, viewBoard(last), 10*time.Second, fmt.Sprintf("board %d after the restart", i))
		var want [][64]rules.Piece
		for _, v := range games[i][2:] {
			want = append(want, viewBoard(v))
		}
		// The last move's press follows the board that shows it.
		require.Eventually(t, func() bool { return len(second.seen.boardsAtPresses(addrs[i])) >= len(want) }, 5*time.Second, 5*time.Millisecond,
			"board %d: %d presses", i, len(second.seen.boardsAtPresses(addrs[i])))
		assert.Equal(t, want, second.seen.boardsAtPresses(addrs[i]),
			"board %d: each move made while no host polled, then its press", i)
		first := func() dgt.Event {
			m.mu.Lock()
			defer m.mu.Unlock()
			for _, e := range m.events {
				if e.Kind == dgt.EventBoard {
					return e
				}
			}
			return dgt.Event{}
		}()
		require.Equal(t, dgt.EventBoard, first.Kind)
		var got [64]rules.Piece
		copy(got[:], first.Pieces)
		assert.Equal(t, viewBoard(games[i][1]), got, "board %d resumed as the last host left it", i)
		wantOrient := dgt.Normal
		if i == 1 {
			wantOrient = dgt.Rotated
		}
		assert.Equal(t, wantOrient, first.Orientation, "board %d: the orientation of the set-up the game began from", i)
	}
	st := second.tour.StatsNow()
	assert.Zero(t, st.Resyncs, "the resumed boards agree with their logs")
}

// A line that fails (unplugged) ends the loop with ErrLineClosed, so the
// daemon opens it again, instead of polling a dead port for ever.
func TestBusLineClosedEndsTheLoop(t *testing.T) {
	b := sim.NewBoard(sim.Config{Serial: "03001", PingSpread: 50 * time.Millisecond})
	line, err := sim.Attach(filepath.Join(t.TempDir(), "bus0"), b)
	require.NoError(t, err)
	t.Cleanup(func() { line.Close() })
	port, err := dgt.OpenSerial(line.Path())
	require.NoError(t, err)
	defer port.Close()
	bus, err := dgt.NewBus(port, dgt.BusConfig{PingWindow: 100 * time.Millisecond})
	require.NoError(t, err)
	b.SetUp(chess.Start().View())
	tour := dgt.NewTournament(bus, dgt.TournamentConfig{Boards: []uint16{b.Addr()}, Poll: 20 * time.Millisecond})
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	done := make(chan error, 1)
	go func() { done <- tour.Run(ctx) }()
	require.Eventually(t, func() bool { return tour.StatsNow().Polls > 0 }, 10*time.Second, 5*time.Millisecond,
		"the loop polls the changes")
	line.Unplug()
	select {
	case err := <-done:
		require.Error(t, err)
		assert.True(t, errors.Is(err, dgt.ErrLineClosed), "%v", err)
	case <-time.After(10 * time.Second):
		t.Fatal("the loop goes on polling an unplugged line")
	}
}

// With TournamentConfig.Clock set, each board's clock is read over the bus
// and delivered with White's time first (White at the left display, or at
// the right one as configured).
func TestBusReadsClocks(t *testing.T) {
	for _, whiteRight := range []bool{false, true} {
		t.Run(fmt.Sprintf("white right %t", whiteRight), func(t *testing.T) {
			b := sim.NewBoard(sim.Config{Serial: "03001", PingSpread: 50 * time.Millisecond})
			b.SetUp(chess.Start().View())
			b.ConnectClock(10*time.Minute, 5*time.Minute)
			line, err := sim.Attach(filepath.Join(t.TempDir(), "bus0"), b)
			require.NoError(t, err)
			t.Cleanup(func() { line.Close() })
			port, err := dgt.OpenSerial(line.Path())
			require.NoError(t, err)
			defer port.Close()
			bus, err := dgt.NewBus(port, dgt.BusConfig{PingWindow: 100 * time.Millisecond})
			require.NoError(t, err)
			clocks := make(chan dgt.Event, 16)
			tour := dgt.NewTournament(bus, dgt.TournamentConfig{Boards: []uint16{b.Addr()}, Poll: 20 * time.Millisecond,
				Clock: 20 * time.Millisecond, WhiteRight: whiteRight,
				Emit: func(e dgt.Event) {
					if e.Kind == dgt.EventClock {
						select {
						case clocks <- e:
						default:
						}
					}
				}})
			ctx, cancel := context.WithCancel(context.Background())
			done := make(chan error, 1)
			go func() { done <- tour.Run(ctx) }()
			defer func() { cancel(); require.NoError(t, <-done) }()
			select {
			case e := <-clocks:
				assert.Equal(t, b.Addr(), e.Addr)
				white, black := 10*time.Minute, 5*time.Minute
				if whiteRight {
					white, black = black, white
				}
				assert.Equal(t, white, e.White.Truncate(time.Second))
				assert.Equal(t, black, e.Black.Truncate(time.Second))
			case <-time.After(10 * time.Second):
				t.Fatal("no clock reading")
			}
		})
	}
}

// A board switched on after the others began to play joins the line: it
// is found by a later ping round, identified, set up and tagged, and its
// moves are read, while the first board's game goes on.
func TestBusBoardSwitchedOnLate(t *testing.T) {
	dir := t.TempDir()
	link := filepath.Join(dir, "bus")
	early := sim.NewBoard(sim.Config{Addr: 2101, Seed: 1, PingSpread: 100 * time.Millisecond})
	late := sim.NewBoard(sim.Config{Addr: 2102, Seed: 2, PingSpread: 100 * time.Millisecond}) // within the host's ping window
	for _, b := range []*sim.Board{early, late} {
		b.SetUp(chess.Start().View())
	}
	late.SwitchOff()
	line, err := sim.Attach(link, early, late)
	require.NoError(t, err)
	defer line.Close()

	port, err := dgt.OpenSerial(link)
	require.NoError(t, err)
	defer port.Close()
	bus, err := dgt.NewBus(port, dgt.BusConfig{PingWindow: 150 * time.Millisecond})
	require.NoError(t, err)
	seen := &presses{mirrors: map[uint16]*mirror{}, at: map[uint16][][64]rules.Piece{}}
	tour := dgt.NewTournament(bus, dgt.TournamentConfig{Poll: 30 * time.Millisecond, Verify: 3, Rediscover: 300 * time.Millisecond, Emit: seen.emit})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- tour.Run(ctx) }()
	defer func() {
		cancel()
		require.NoError(t, <-done)
	}()

	play := func(b *sim.Board, pos rules.Position, san string, left bool) rules.Position {
		_, next, err := rules.PlayText(pos, san)
		require.NoError(t, err, san)
		pl := &sim.Player{Board: b, Rng: rand.New(rand.NewPCG(1, 2)), Step: time.Millisecond}
		pl.Move(pos.View(), next.View())
		b.Press(left)
		return next
	}
	require.Eventually(t, func() bool { return seen.mirror(2101) != nil }, 5*time.Second, 10*time.Millisecond, "the first board is found")
	// A move before the start tag is no move of the game: wait for it.
	require.Eventually(t, func() bool { return early.Counters().StartTags > 0 }, 5*time.Second, 10*time.Millisecond, "the first board gets its start tag")
	var p1 rules.Position = chess.Start()
	p1 = play(early, p1, "e4", true)
	require.Eventually(t, func() bool { return len(seen.boardsAtPresses(2101)) == 1 }, 5*time.Second, 10*time.Millisecond, "the first board plays")
	require.Nil(t, seen.mirror(2102), "the second board is off")

	late.SwitchOn()
	require.Eventually(t, func() bool { return seen.mirror(2102) != nil }, 5*time.Second, 10*time.Millisecond, "the board switched on late is found")
	var p2 rules.Position = chess.Start()
	require.Eventually(t, func() bool { return tour.StatsNow().Polls > 0 && late.Counters().StartTags > 0 }, 5*time.Second, 10*time.Millisecond,
		"the board switched on late gets its start tag")
	p2 = play(late, p2, "d4", true)
	p1 = play(early, p1, "e5", false)
	require.Eventually(t, func() bool { return len(seen.boardsAtPresses(2102)) == 1 && len(seen.boardsAtPresses(2101)) == 2 }, 5*time.Second, 10*time.Millisecond,
		"both boards' moves are read")
	assert.Equal(t, viewBoard(p2.View()), seen.boardsAtPresses(2102)[0])
	assert.Equal(t, viewBoard(p1.View()), seen.boardsAtPresses(2101)[1])
}

// A board found in mid-game whose game cannot be read from its log since
// the start tag (here it never answers DGT_BUS_SEND_FROM_START) is read
// as it stands, and after three set-up rounds the host reports, once, that
// the moves made while no host polled it are not read (issue 32 F1): the
// arbiter must see to them.
func TestBusBoardNotResumedIsReported(t *testing.T) {
	b := sim.NewBoard(sim.Config{Serial: "03011", Seed: 71, PingSpread: 50 * time.Millisecond, Faults: sim.Faults{NoFromStart: true}})
	line, err := sim.Attach(filepath.Join(t.TempDir(), "bus0"), b)
	require.NoError(t, err)
	t.Cleanup(func() { line.Close() })
	game := scripted(t, "", "e4", "e5")
	b.SetUp(game[0])
	first := startHost(t, line.Path(), []uint16{b.Addr()}, 0) // DGT's timeout: FROM_START is never answered
	require.Eventually(t, func() bool { return b.Counters().StartTags > 0 }, 10*time.Second, 5*time.Millisecond, "the start tag is written")
	first.stop(t)
	pl := &sim.Player{Board: b, Rng: rand.New(rand.NewPCG(1, 9)), Step: time.Millisecond}
	pl.Move(game[0], game[1])
	b.Press(true)
	pl.Move(game[1], game[2])
	b.Press(false)

	second := startHost(t, line.Path(), []uint16{b.Addr()}, 0)
	defer second.stop(t)
	m := second.seen.mirror(b.Addr())
	m.waitFor(t, viewBoard(game[2]), 10*time.Second, "the board as it stands")
	require.Eventually(t, func() bool { return len(m.errors()) > 0 }, 10*time.Second, 5*time.Millisecond, "the board not resumed is reported")
	time.Sleep(300 * time.Millisecond) // ten set-up rounds more
	errs := m.errors()
	require.Len(t, errs, 1, "reported once")
	m.mu.Lock()
	var e dgt.Event
	for _, ev := range m.events {
		if ev.Kind == dgt.EventError {
			e = ev
		}
	}
	m.mu.Unlock()
	require.ErrorIs(t, e.Err, dgt.ErrNotResumed)
	assert.Contains(t, e.Err.Error(), "board 03011, 3 tries")
	assert.Contains(t, e.Err.Error(), "no reply from the board")
	assert.Empty(t, second.seen.boardsAtPresses(b.Addr()), "no press read: the moves are not known")
}
