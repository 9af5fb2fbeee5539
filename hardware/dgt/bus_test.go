package dgt_test

import (
	"context"
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

// busRig is a line of emulated boards in bus mode with a tournament loop
// on it; each board's events go to its own mirror.
type busRig struct {
	boards  []*sim.Board
	mirrors map[uint16]*mirror
	tour    *dgt.Tournament
	line    *sim.Line
}

func newBusRig(t *testing.T, n int, faults sim.Faults) *busRig {
	t.Helper()
	r := &busRig{mirrors: map[uint16]*mirror{}}
	for i := range n {
		b := sim.NewBoard(sim.Config{Serial: fmt.Sprintf("%05d", 20001+i), Rotated: i == 1, Faults: faults,
			Seed: uint64(40 + i), PingSpread: 100 * time.Millisecond})
		r.boards = append(r.boards, b)
		r.mirrors[b.Addr()] = newMirror()
	}
	var err error
	r.line, err = sim.Attach(filepath.Join(t.TempDir(), "bus0"), r.boards...)
	require.NoError(t, err)
	port, err := dgt.OpenSerial(r.line.Path())
	require.NoError(t, err)
	// The boards answer a ping to every board within 100 ms (PingSpread):
	// the ping's window bounds answers that will come, and is generous, so
	// that a loaded host takes them all. Where no reply is silent, so is
	// the reply timeout; silent replies cost the default.
	cfg := dgt.BusConfig{PingWindow: time.Second}
	if faults.BusSilent == 0 {
		cfg.Timeout = time.Second
	}
	bus, err := dgt.NewBus(port, cfg)
	require.NoError(t, err)
	var mu sync.Mutex
	r.tour = dgt.NewTournament(bus, dgt.TournamentConfig{
		// The first board is known; the others are found by pinging.
		Boards: []uint16{r.boards[0].Addr()},
		Poll:   30 * time.Millisecond,
		Verify: 3,
		Emit: func(e dgt.Event) {
			mu.Lock()
			m := r.mirrors[e.Addr]
			mu.Unlock()
			require.NotNil(t, m, "event from unknown board %d", e.Addr)
			m.emit(e)
		},
	})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- r.tour.Run(ctx) }()
	t.Cleanup(func() {
		cancel()
		require.NoError(t, <-done)
		port.Close()
		r.line.Close()
	})
	return r
}

func TestBusTournamentOnEmulator(t *testing.T) {
	cases := []struct {
		name   string
		faults sim.Faults
	}{
		{"clean", sim.Faults{}},
		{"corrupt and silent replies", sim.Faults{BusCorrupt: 0.1, BusSilent: 0.05}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := newBusRig(t, 3, tc.faults)
			start := chess.Start().View()
			// The boards start empty; the arbiters set them up, and the
			// loop tags the start once all three are ready.
			for i, b := range r.boards {
				pl := &sim.Player{Board: b, Rng: rand.New(rand.NewPCG(uint64(i), 20)), Step: 2 * time.Millisecond}
				pl.Move(rules.View{Stacks: make([][]rules.Piece, 64)}, start)
			}
			for i, b := range r.boards {
				r.mirrors[b.Addr()].waitFor(t, viewBoard(start), 10*time.Second, fmt.Sprintf("board %d set-up", i))
			}
			require.Eventually(t, func() bool { return r.tour.StatsNow().Polls > 0 }, 10*time.Second, 5*time.Millisecond,
				"the start tags are written")
			// Three games at once.
			var wg sync.WaitGroup
			errs := make([]error, len(r.boards))
			for i, b := range r.boards {
				rng := rand.New(rand.NewPCG(uint64(i), 21))
				views := randomGame(t, rng, 16, 0.1)
				wg.Add(1)
				go func() {
					defer wg.Done()
					pl := &sim.Player{Board: b, Rng: rng, Step: 2 * time.Millisecond}
					for k := 1; k < len(views); k++ {
						pl.Move(views[k-1], views[k])
						b.Press(k%2 == 1)
						if errs[i] = r.mirrors[b.Addr()].wait(viewBoard(views[k]), 10*time.Second, fmt.Sprintf("board %d view %d", i, k)); errs[i] != nil {
							return
						}
					}
				}()
			}
			wg.Wait()
			for _, err := range errs {
				require.NoError(t, err)
			}
			for i, b := range r.boards {
				m := r.mirrors[b.Addr()]
				assert.Equal(t, 1, m.count(dgt.EventIdentified), "board %d", i)
				want := dgt.Normal
				if i == 1 {
					want = dgt.Rotated
				}
				assert.Equal(t, want, m.orient, "board %d", i)
				assert.Positive(t, m.count(dgt.EventLever), "board %d: presses come from the log's time tags", i)
			}
			st := r.tour.StatsNow()
			t.Logf("%+v", st)
			// Corrupt changes are asked for again with REPEAT_CHANGES, so
			// nothing is lost and nothing needs a replay, but where every
			// try of a request failed (each reply silent or corrupt, a
			// chance of 0.15³ a request here, more often on a host too
			// loaded to read a reply within the timeout).
			assert.LessOrEqual(t, st.Replays, st.Unanswered, "no changes lost but with unanswered requests")
			if tc.faults == (sim.Faults{}) {
				assert.Zero(t, st.Replays, "no changes lost")
			}
			if tc.faults.BusCorrupt > 0 {
				corrupted := 0
				for _, b := range r.boards {
					corrupted += b.Counters().BusCorrupted
				}
				assert.Positive(t, corrupted)
			}
		})
	}
}

func TestBusReplaysLostChanges(t *testing.T) {
	r := newBusRig(t, 1, sim.Faults{})
	b, m := r.boards[0], r.mirrors[r.boards[0].Addr()]
	views := scripted(t, "", "e2e4", "e7e5", "g1f3")
	pl := &sim.Player{Board: b, Rng: rand.New(rand.NewPCG(1, 1))}
	b.SetUp(views[0])
	m.waitFor(t, viewBoard(views[0]), 5*time.Second, "start")
	require.Eventually(t, func() bool { return r.tour.StatsNow().Polls > 0 }, 5*time.Second, 10*time.Millisecond)
	pl.Move(views[0], views[1])
	m.waitFor(t, viewBoard(views[1]), 5*time.Second, "e4")
	before := r.tour.StatsNow().Replays
	// e5's changes are lost between board and host.
	pl.Move(views[1], views[2])
	b.DropChanges()
	m.waitFor(t, viewBoard(views[2]), 5*time.Second, "e5, replayed from the start tag")
	st := r.tour.StatsNow()
	assert.Greater(t, st.Replays, before)
	assert.Zero(t, st.Resyncs, "the replay from the start tag agrees with the board")
	pl.Move(views[2], views[3])
	m.waitFor(t, viewBoard(views[3]), 5*time.Second, "Nf3")
}
