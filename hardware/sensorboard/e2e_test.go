package sensorboard_test

import (
	"context"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"arbiter/board"
	sb "arbiter/hardware/sensorboard"
	"arbiter/hardware/sensorboard/sim"
	"arbiter/rules"
)

// fakeMove is a test-only rules.Move: the planner needs only From and To.
type fakeMove struct{ from, to rules.Square }

func (m fakeMove) From() rules.Square { return m.from }
func (m fakeMove) To() rules.Square   { return m.to }
func (m fakeMove) String() string     { return fmt.Sprintf("%d-%d", m.from, m.to) }

// chessLike returns an 8x8 start view with one piece on each square of
// ranks 1, 2, 7 and 8.
func chessLike(g *rules.Geometry) rules.View {
	v := rules.NewView(g)
	back := "RNBQKBNR"
	for f := range 8 {
		v.Stacks[g.Square(f, 0)] = []rules.Piece{{Color: rules.First, Kind: rules.Kind(back[f])}}
		v.Stacks[g.Square(f, 1)] = []rules.Piece{{Color: rules.First, Kind: 'P'}}
		v.Stacks[g.Square(f, 6)] = []rules.Piece{{Color: rules.Second, Kind: 'P'}}
		v.Stacks[g.Square(f, 7)] = []rules.Piece{{Color: rules.Second, Kind: rules.Kind(back[f])}}
	}
	return v
}

// towerGame makes n random turns on v: move the top k of a random stack
// onto another square, capturing (removing) a lone enemy piece there
// half of the time, so that heights, towers and captures all occur.
func towerGame(g *rules.Geometry, v rules.View, n int, rng *rand.Rand) []sim.Turn {
	var turns []sim.Turn
	mover := rules.First
	for range n {
		var froms []rules.Square
		for sq, st := range v.Stacks {
			if len(st) > 0 && st[len(st)-1].Color == mover {
				froms = append(froms, rules.Square(sq))
			}
		}
		from := froms[rng.IntN(len(froms))]
		to := rules.Square(rng.IntN(g.Len()))
		for to == from {
			to = rules.Square(rng.IntN(g.Len()))
		}
		after := v.Clone()
		st := after.Stacks[from]
		k := 1 + rng.IntN(len(st))
		moving := slices.Clone(st[len(st)-k:])
		after.Stacks[from] = st[:len(st)-k]
		dst := after.Stacks[to]
		if len(dst) == 1 && dst[0].Color != mover && rng.IntN(2) == 0 {
			dst = nil // a chess-style capture
		}
		after.Stacks[to] = append(slices.Clone(dst), moving...)
		turns = append(turns, sim.Turn{Move: fakeMove{from, to}, Mover: mover, Before: v, After: after})
		v = after
		mover = mover.Other()
	}
	return turns
}

// collector keeps what a consumer of the driver sees, per board.
type collector struct {
	mu     sync.Mutex
	events map[string][]board.Event
	model  map[string][]board.SquareState
}

func newCollector() *collector {
	return &collector{events: map[string][]board.Event{}, model: map[string][]board.SquareState{}}
}

func (c *collector) handle(e board.Event) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.events[e.Board] = append(c.events[e.Board], e)
	switch e.Kind {
	case board.EventHello:
		if c.model[e.Board] == nil {
			c.model[e.Board] = make([]board.SquareState, e.Info.Cells)
		}
	case board.EventSquare:
		c.model[e.Board][e.Square] = board.SquareState{Height: uint8(e.Height), Saturated: e.Saturated, Top: e.Top}
	case board.EventSnapshot:
		c.model[e.Board] = slices.Clone(e.Snapshot.Squares)
	}
}

func (c *collector) snapshot(board string) ([]board.Event, []board.SquareState) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return slices.Clone(c.events[board]), slices.Clone(c.model[board])
}

// fastHuman plays quickly so that real-time tests stay short.
var fastHuman = sim.Human{
	Think: [2]time.Duration{20 * time.Millisecond, 60 * time.Millisecond},
	Hand:  [2]time.Duration{5 * time.Millisecond, 20 * time.Millisecond},
	Glide: [2]time.Duration{2 * time.Millisecond, 5 * time.Millisecond},
	Press: [2]time.Duration{5 * time.Millisecond, 20 * time.Millisecond},

	TouchBack: 0.2, Adjust: 0.1, Slide: 0.3, OneByOne: 0.3, TurnAfter: 0.5,
}

type rig struct {
	t      *testing.T
	dir    string
	col    *collector
	driver *sb.Driver
	cancel context.CancelFunc
	done   chan error
}

func startDriver(t *testing.T, dir string, cfg sb.Config) *rig {
	t.Helper()
	r := &rig{t: t, dir: dir, col: newCollector(), done: make(chan error, 1)}
	cfg.Ports = append(cfg.Ports, sb.PortSpec{Glob: filepath.Join(dir, "board-*")})
	if cfg.Scan == 0 {
		cfg.Scan = 50 * time.Millisecond
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	if cfg.ReadTimeout == 0 {
		cfg.ReadTimeout = 20 * time.Millisecond
	}
	if h := cfg.Handler; h != nil {
		cfg.Handler = func(e board.Event) {
			h(e)
			r.col.handle(e)
		}
	} else {
		cfg.Handler = r.col.handle
	}
	d, err := sb.New(cfg)
	require.NoError(t, err)
	r.driver = d
	ctx, cancel := context.WithCancel(context.Background())
	r.cancel = cancel
	go func() { r.done <- d.Run(ctx) }()
	t.Cleanup(r.stop)
	return r
}

func (r *rig) stop() {
	if r.cancel == nil {
		return
	}
	r.cancel()
	r.cancel = nil
	select {
	case <-r.done:
	case <-time.After(5 * time.Second):
		r.t.Error("driver did not stop")
	}
}

// settle waits until the consumer's model equals the board's sensors and
// no dump is outstanding.
func (r *rig) settle(b *sim.Board, timeout time.Duration) {
	r.t.Helper()
	deadline := time.Now().Add(timeout)
	for {
		_, model := r.col.snapshot(b.ID())
		if slices.Equal(model, b.Sensed()) {
			return
		}
		if time.Now().After(deadline) {
			require.Equal(r.t, b.Sensed(), model, "consumer's picture of %s never matched the board", b.ID())
		}
		time.Sleep(20 * time.Millisecond)
	}
}
