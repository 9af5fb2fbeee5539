package dgt_test

import (
	"context"
	"flag"
	"fmt"
	"io"
	"log/slog"
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

var dgtGames = flag.Int("dgt.games", 0, "random chess games per case in TestChessGamesOnEmulator (default 1)")

// mirror is the host's picture of the board, built only from the events
// a Conn delivers.
type mirror struct {
	mu      sync.Mutex
	board   [64]rules.Piece
	orient  dgt.Orientation
	events  []dgt.Event
	changed chan struct{}
}

func newMirror() *mirror { return &mirror{changed: make(chan struct{}, 1)} }

func (m *mirror) emit(e dgt.Event) {
	m.mu.Lock()
	switch e.Kind {
	case dgt.EventBoard:
		copy(m.board[:], e.Pieces)
		m.orient = e.Orientation
	case dgt.EventSquare:
		m.board[e.Square] = e.Piece
	}
	m.events = append(m.events, e)
	m.mu.Unlock()
	select {
	case m.changed <- struct{}{}:
	default:
	}
}

func (m *mirror) count(k dgt.EventKind) int {
	m.mu.Lock()
	defer m.mu.Unlock()
	n := 0
	for _, e := range m.events {
		if e.Kind == k {
			n++
		}
	}
	return n
}

func (m *mirror) errors() []string {
	m.mu.Lock()
	defer m.mu.Unlock()
	var s []string
	for _, e := range m.events {
		if e.Kind == dgt.EventError {
			s = append(s, e.Err.Error())
		}
	}
	return s
}

func viewBoard(v rules.View) (b [64]rules.Piece) {
	for sq := range v.Stacks {
		b[sq], _ = v.Top(rules.Square(sq))
	}
	return b
}

func boardString(b [64]rules.Piece) string {
	s := ""
	for r := 7; r >= 0; r-- {
		for f := range 8 {
			p := b[r*8+f]
			if p.Kind == 0 {
				s += "."
			} else {
				s += p.String()
			}
		}
		s += "\n"
	}
	return s
}

// waitFor waits until the mirror shows want, or fails after timeout.
func (m *mirror) waitFor(t *testing.T, want [64]rules.Piece, timeout time.Duration, what string) {
	t.Helper()
	if err := m.wait(want, timeout, what); err != nil {
		t.Fatal(err)
	}
}

// wait waits until the mirror shows want; it is safe off the test's
// goroutine.
func (m *mirror) wait(want [64]rules.Piece, timeout time.Duration, what string) error {
	deadline := time.After(timeout)
	for {
		m.mu.Lock()
		got := m.board
		m.mu.Unlock()
		if got == want {
			return nil
		}
		select {
		case <-m.changed:
		case <-deadline:
			return fmt.Errorf("%s: host shows\n%swant\n%s", what, boardString(got), boardString(want))
		}
	}
}

// rig is an emulated board on a pseudo-terminal with a host Conn on it.
type rig struct {
	board  *sim.Board
	line   *sim.Line
	conn   *dgt.Conn
	mirror *mirror
	cancel context.CancelFunc
	done   chan struct{}
}

func newRig(t testing.TB, bc sim.Config, sc dgt.Config) *rig {
	t.Helper()
	r := &rig{board: sim.NewBoard(bc), mirror: newMirror(), done: make(chan struct{})}
	var err error
	r.line, err = sim.Attach(filepath.Join(t.TempDir(), "dgt0"), r.board)
	require.NoError(t, err)
	r.conn = dgt.NewConn(dgt.ConnConfig{Session: sc, Emit: r.mirror.emit, Logger: slog.New(slog.DiscardHandler)})
	ctx, cancel := context.WithCancel(context.Background())
	r.cancel = cancel
	path := r.line.Path()
	go func() {
		defer close(r.done)
		_ = dgt.Watch(ctx, r.conn, func() (io.ReadWriteCloser, error) { return dgt.OpenSerial(path) }, 20*time.Millisecond)
	}()
	t.Cleanup(func() {
		r.cancel()
		r.line.Close()
		<-r.done
	})
	return r
}

// fastSession settles quickly, for emulated boards that move fast.
var fastSession = dgt.Config{Settle: 25 * time.Millisecond, Poll: 150 * time.Millisecond, Reply: 300 * time.Millisecond, AckTimeout: 200 * time.Millisecond}

// randomGame plays a random legal chess game of up to n plies and returns
// the views the board must show, in order: after a take-back the view
// before the taken-back move comes again.
func randomGame(t *testing.T, rng *rand.Rand, n int, takeBack float64) []rules.View {
	t.Helper()
	pos := chess.Start()
	var p rules.Position = pos
	views := []rules.View{p.View()}
	var history []rules.Position
	for range n {
		if p.Outcome(history).Over() {
			break
		}
		legal := p.Legal()
		// Prefer the interesting moves now and then.
		m := legal[rng.IntN(len(legal))]
		for _, c := range legal {
			s := c.String()
			if (len(s) == 5 || (s[0] == 'e' && (s[2] == 'g' || s[2] == 'c') && (s[1] == '1' || s[1] == '8'))) && rng.IntN(2) == 0 {
				m = c
			}
		}
		next, err := p.Play(m)
		require.NoError(t, err)
		if rng.Float64() < takeBack {
			views = append(views, next.View(), p.View())
			continue
		}
		history = append(history, p)
		p = next
		views = append(views, p.View())
	}
	return views
}

func TestChessGamesOnEmulator(t *testing.T) {
	t.Parallel() // each on its own pseudo-terminal; they mostly wait
	games, plies := 1, 80
	if testing.Short() {
		plies = 30
	}
	if *dgtGames > 0 {
		games = *dgtGames
	}
	noisy := sim.Faults{Drop: 0.05, Duplicate: 0.05, Reorder: 0.3}
	cases := []struct {
		name    string
		rotated bool
		faults  sim.Faults
	}{
		{"clean", false, sim.Faults{}},
		{"rotated", true, sim.Faults{}},
		{"noisy", false, noisy},
		{"noisy rotated", true, noisy},
	}
	for ci, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := newRig(t, sim.Config{Serial: "10001", Rotated: tc.rotated, Faults: tc.faults, Seed: uint64(ci + 1)}, fastSession)
			rng := rand.New(rand.NewPCG(uint64(ci), 7))
			pl := &sim.Player{Board: r.board, Rng: rng, Slide: 0.4, PushOff: 0.3}
			moves := 0
			for g := range games {
				views := randomGame(t, rng, plies, 0.08)
				r.board.SetUp(views[0])
				r.mirror.waitFor(t, viewBoard(views[0]), 5*time.Second, fmt.Sprintf("game %d set-up", g))
				for i := 1; i < len(views); i++ {
					pl.Move(views[i-1], views[i])
					r.mirror.waitFor(t, viewBoard(views[i]), 5*time.Second, fmt.Sprintf("game %d view %d", g, i))
					moves++
				}
			}
			want := dgt.Normal
			if tc.rotated {
				want = dgt.Rotated
			}
			require.Equal(t, want, r.mirror.orient, "orientation")
			if tc.faults == (sim.Faults{}) {
				require.Empty(t, r.mirror.errors(), "a clean board raises no error")
			}
			st := r.conn.Stats()
			t.Logf("%d views read right; session %+v; board %+v", moves, st, r.board.Counters())
		})
	}
}

// scripted plays moves from a FEN and returns the views in order.
func scripted(t *testing.T, fen string, moves ...string) []rules.View {
	t.Helper()
	var p rules.Position = chess.Start()
	if fen != "" {
		var err error
		p, err = chess.ParseFEN(fen)
		require.NoError(t, err)
	}
	views := []rules.View{p.View()}
	for _, s := range moves {
		_, next, err := rules.PlayText(p, s)
		require.NoError(t, err, s)
		p = next
		views = append(views, p.View())
	}
	return views
}

func TestSpecialMovesOnEmulator(t *testing.T) {
	t.Parallel() // each on its own pseudo-terminal; they mostly wait
	games := map[string][]rules.View{
		"en passant and castling both ways": scripted(t, "",
			"e2e4", "g8f6", "e4e5", "d7d5", "e5d6", "d8d6", "g1f3", "c8g4", "f1e2", "b8c6", "e1g1", "e8c8"),
		"promotions with capture": scripted(t, "r7/1P5k/8/8/8/8/5p2/K5N1 w - - 0 1",
			"b7a8q", "f2g1n", "a1b1", "g1e2"),
	}
	r := newRig(t, sim.Config{Serial: "10002", Faults: sim.Faults{Reorder: 0.5, Duplicate: 0.1}, Seed: 3}, fastSession)
	seeds := uint64(6)
	if testing.Short() {
		seeds = 2
	}
	for name, views := range games {
		for seed := range seeds {
			// Each seed orders the pieces differently: king or rook
			// first, the captured pawn before or after, pushed off.
			rng := rand.New(rand.NewPCG(seed, 11))
			pl := &sim.Player{Board: r.board, Rng: rng, Slide: 0.5, PushOff: 0.5}
			r.board.SetUp(views[0])
			r.mirror.waitFor(t, viewBoard(views[0]), 5*time.Second, name+" set-up")
			for i := 1; i < len(views); i++ {
				pl.Move(views[i-1], views[i])
				r.mirror.waitFor(t, viewBoard(views[i]), 5*time.Second, fmt.Sprintf("%s seed %d ply %d", name, seed, i))
			}
			// Take the whole game back, move by move.
			for i := len(views) - 1; i > 0; i-- {
				pl.Move(views[i], views[i-1])
				r.mirror.waitFor(t, viewBoard(views[i-1]), 5*time.Second, fmt.Sprintf("%s seed %d take-back to ply %d", name, seed, i-1))
			}
		}
	}
}

func TestUnplugOnEmulator(t *testing.T) {
	r := newRig(t, sim.Config{Serial: "10003", Seed: 5}, fastSession)
	views := scripted(t, "", "e2e4", "e7e5", "g1f3")
	rng := rand.New(rand.NewPCG(1, 2))
	pl := &sim.Player{Board: r.board, Rng: rng}
	r.board.SetUp(views[0])
	r.mirror.waitFor(t, viewBoard(views[0]), 5*time.Second, "set-up")
	pl.Move(views[0], views[1])
	r.mirror.waitFor(t, viewBoard(views[1]), 5*time.Second, "e4")
	boards := r.mirror.count(dgt.EventBoard)
	r.line.Unplug()
	require.Eventually(t, func() bool { return r.mirror.count(dgt.EventLinkLost) == 1 }, 5*time.Second, 10*time.Millisecond)
	// Black moves while the cable is out; nothing can be reported.
	pl.Move(views[1], views[2])
	time.Sleep(100 * time.Millisecond)
	require.NoError(t, r.line.Replug())
	r.mirror.waitFor(t, viewBoard(views[2]), 5*time.Second, "e5 after the replug")
	assert.Equal(t, 1, r.mirror.count(dgt.EventLinkBack))
	assert.Equal(t, boards+1, r.mirror.count(dgt.EventBoard), "the board is read whole after the link came back")
	pl.Move(views[2], views[3])
	r.mirror.waitFor(t, viewBoard(views[3]), 5*time.Second, "Nf3")
	assert.Equal(t, 1, r.mirror.count(dgt.EventIdentified), "one board, one identity")
}

func TestClockOnEmulator(t *testing.T) {
	t.Parallel() // each on its own pseudo-terminal; they mostly wait
	cases := []struct {
		name   string
		faults sim.Faults
	}{
		{"clean", sim.Faults{}},
		{"lost acknowledgement", sim.Faults{DropAcks: 1}},
		{"clock lags a second", sim.Faults{ClockLag: time.Second}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := newRig(t, sim.Config{Serial: "10004", Faults: tc.faults, Seed: 9}, fastSession)
			r.board.SetUp(chess.Start().View())
			r.board.ConnectClock(0, 0)
			require.Eventually(t, func() bool { return r.mirror.count(dgt.EventBoard) == 1 }, 5*time.Second, 10*time.Millisecond)
			require.NoError(t, r.conn.SetClock(5*time.Minute, 4*time.Minute, rules.White))
			require.NoError(t, r.conn.ShowText(dgt.Text{Frames: []string{"TOUCH"}}))
			require.Eventually(t, func() bool { return r.board.Text() == "TOUCH   " }, 5*time.Second, 10*time.Millisecond,
				"the text follows the time once that is acknowledged")
			// White presses (left display), then Black.
			time.Sleep(300 * time.Millisecond)
			r.board.Press(true)
			time.Sleep(300 * time.Millisecond)
			r.board.Press(false)
			if !assert.Eventually(t, func() bool { return r.mirror.count(dgt.EventLever) == 2 }, 5*time.Second, 10*time.Millisecond) {
				t.Fatalf("two presses, events %v", r.mirror.list())
			}
			r.mirror.mu.Lock()
			defer r.mirror.mu.Unlock()
			var sides []rules.Color
			var last *dgt.Event
			for _, e := range r.mirror.events {
				switch e.Kind {
				case dgt.EventLever:
					require.True(t, e.SideKnown)
					sides = append(sides, e.Side)
				case dgt.EventClock:
					if last != nil {
						// Time never runs backwards for the side whose clock runs.
						if e.Clock.LeftTurn && last.Clock.LeftTurn {
							assert.LessOrEqual(t, e.White, last.White)
						}
						if e.Clock.RightTurn && last.Clock.RightTurn {
							assert.LessOrEqual(t, e.Black, last.Black)
						}
					}
					e := e
					last = &e
				case dgt.EventError:
					t.Errorf("unexpected error: %v", e.Err)
				}
			}
			assert.Equal(t, []rules.Color{rules.White, rules.Black}, sides)
			require.NotNil(t, last)
			assert.InDelta(t, float64(4*time.Minute), float64(last.Black), float64(2*time.Second))
		})
	}
}

func (m *mirror) list() []string {
	m.mu.Lock()
	defer m.mu.Unlock()
	var s []string
	for _, e := range m.events {
		s = append(s, e.String())
	}
	return s
}

func TestLogRecoveryOnEmulator(t *testing.T) {
	for _, rotated := range []bool{false, true} {
		t.Run(fmt.Sprintf("rotated=%t", rotated), func(t *testing.T) {
			r := newRig(t, sim.Config{Serial: "10005", Rotated: rotated, Seed: 4}, fastSession)
			views := scripted(t, "", "e2e4", "e7e5", "g1f3", "b8c6", "f1b5", "a7a6", "b5c6", "d7c6", "e1g1")
			pl := &sim.Player{Board: r.board, Rng: rand.New(rand.NewPCG(3, 3)), Slide: 0.5}
			r.board.SetUp(rules.View{Stacks: make([][]rules.Piece, 64)})
			r.board.ConnectClock(5*time.Minute, 5*time.Minute)
			r.mirror.waitFor(t, viewBoard(rules.View{Stacks: make([][]rules.Piece, 64)}), 5*time.Second, "empty board")
			// The pieces are set up one by one, as arbiters do.
			pl.Move(rules.View{Stacks: make([][]rules.Piece, 64)}, views[0])
			for i := 1; i < len(views); i++ {
				pl.Move(views[i-1], views[i])
				r.board.Press(i%2 == 1) // White's press halts the left display
			}
			r.mirror.waitFor(t, viewBoard(views[len(views)-1]), 5*time.Second, "the game")
			// The host crashes; a new one reads the board's log.
			r.cancel()
			<-r.done
			fresh := newMirror()
			conn := dgt.NewConn(dgt.ConnConfig{Session: fastSession, Emit: fresh.emit})
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			port, err := dgt.OpenSerial(r.line.Path())
			require.NoError(t, err)
			defer port.Close()
			go func() { _ = conn.Run(ctx, port) }()
			l, err := conn.ReadLog(ctx)
			require.NoError(t, err)
			rec, err := dgt.Recover(l)
			require.NoError(t, err)
			require.Zero(t, rec.Damaged)
			require.Len(t, rec.Presses, len(views)-1)
			want := dgt.Normal
			if rotated {
				want = dgt.Rotated
			}
			assert.Equal(t, want, rec.Orientation)
			for i, p := range rec.Presses {
				pieces, _ := p.Position.Chess(rec.Orientation)
				assert.Equal(t, viewBoard(views[i+1]), [64]rules.Piece(pieces), "position at press %d", i+1)
				assert.Equal(t, i%2 == 0, p.Left, "press %d side", i+1)
			}
		})
	}
}
