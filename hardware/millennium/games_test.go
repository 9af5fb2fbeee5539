package millennium_test

import (
	"flag"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arbiter/arbiter"
	"arbiter/hardware/millennium"
	"arbiter/hardware/millennium/sim"
	"arbiter/internal/eboardtest"
)

var games = flag.Int("millennium.games", 0, "random games per case in TestRandomGamesReadRight (default 20, 1 with -short)")

// human is how a person at the board moves in a case.
type human struct {
	slide, pushOff, liftBack float64
	// unplug is the chance, per move, that the board is knocked off its
	// cable before it and plugged in again after it.
	unplug float64
}

// Random legal chess games, played on the emulated board by a person and
// read through the driver's session into an arbiter session as a table
// runs it, in virtual time: clean, and with a person's noise (captures in
// either order or by pushing the captured piece off, castling with either
// piece first, slides across the squares between, pieces lifted and put
// back), lost, duplicated and damaged reports, writes never echoed and
// replies of the wrong parity, a board turned round or reading from h1,
// and a board knocked off its cable with a move made while it was off.
// Every move is read right, and the only alerts are those of the board
// off its cable.
func TestRandomGamesReadRight(t *testing.T) {
	t.Parallel()
	n, plies := 20, 100
	if testing.Short() {
		n, plies = 1, 40
	}
	if *games > 0 {
		n = *games
	}
	noise := sim.Faults{Drop: 0.05, Duplicate: 0.05, Corrupt: 0.03}
	hands := human{slide: 0.4, pushOff: 0.3, liftBack: 0.15}
	for ci, tc := range []struct {
		name  string
		board sim.Config
		human human
	}{
		{"clean", sim.Config{}, human{}},
		{"human noise", sim.Config{}, hands},
		{"lost and damaged reports", sim.Config{Faults: noise}, hands},
		{"rotated, reading from h1", sim.Config{Rotated: true, Reversed: true, Faults: noise}, hands},
		{"performance, no echoes", sim.Config{Model: sim.Performance, Faults: sim.Faults{NoWriteAck: true, Drop: 0.05}}, hands},
		{"eONE, wrong parity", sim.Config{Model: sim.EONE, Rotated: true, Faults: sim.Faults{WrongParity: true, Duplicate: 0.05}}, hands},
		{"knocked off its cable", sim.Config{Faults: noise}, human{slide: 0.4, pushOff: 0.3, liftBack: 0.15, unplug: 0.05}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			var total, unplugs int
			var st sim.Stats
			for g := range n {
				rng := rand.New(rand.NewPCG(uint64(ci), uint64(g)))
				game := eboardtest.RandomGame(rng, plies)
				bc := tc.board
				bc.Seed = uint64(100*ci + g)
				clock := &eboardtest.Clock{}
				bc.Now = clock.Now
				b := sim.NewBoard(bc)
				tab, err := eboardtest.New(eboardtest.Config{Protocol: millennium.Protocol, Board: b, Clock: clock,
					Setting: millennium.Config{ScanTime: 20}.ReplaySetting()})
				require.NoError(t, err)
				b.SetUp(game.Positions[0].View())
				tab.Wait(3 * time.Second) // a fresh board is named: four writes, each echoed or waited out
				require.NoError(t, tab.Start())
				tab.Wait(time.Second)
				require.True(t, tab.Started, "game %d: the set-up is seen", g)
				pl := tab.Player(rng)
				pl.Step, pl.Slide, pl.PushOff, pl.LiftBack = 60*time.Millisecond, tc.human.slide, tc.human.pushOff, tc.human.liftBack
				for i := range game.SAN {
					tab.Wait(400*time.Millisecond + time.Duration(rng.Int64N(int64(1500*time.Millisecond))))
					off := rng.Float64() < tc.human.unplug
					if off {
						// Knocked off while a player thinks, after the last
						// move was read: a board with no log of its own shows
						// one move made meanwhile, not two.
						for w := 0; len(tab.Moves) < i && w < 20; w++ {
							tab.Wait(250 * time.Millisecond)
						}
						unplugs++
						tab.Unplug()
						tab.Wait(200 * time.Millisecond)
					}
					pl.Move(game.Positions[i].View(), game.Positions[i+1].View())
					if off {
						tab.Wait(300 * time.Millisecond)
						tab.Replug()
						tab.Wait(time.Second) // the cable is put back: the players look
					}
				}
				tab.Wait(3 * time.Second)
				var read []string
				for _, m := range tab.Moves {
					read = append(read, m.Notation)
				}
				require.Equal(t, game.SAN, read, "game %d: every move read right", g)
				for _, a := range tab.Alerts {
					if a.Kind != arbiter.LinkAlert {
						t.Errorf("game %d: a false alert at ply %d: %s", g, len(tab.Moves), a.Message)
					}
				}
				assert.Empty(t, tab.Recoveries, "game %d", g)
				assert.Empty(t, tab.Prompts, "game %d", g)
				assert.Empty(t, tab.Amended, "game %d", g)
				total += len(game.SAN)
				c := b.Counters()
				st.Reports += c.Reports
				st.Dropped += c.Dropped
				st.Duplicated += c.Duplicated
				st.Corrupted += c.Corrupted
				st.LEDCommands += c.LEDCommands
			}
			t.Logf("%d games, %d plies read right; %d unplugs; board: %d reports (%d lost, %d duplicated, %d damaged), %d LED commands",
				n, total, unplugs, st.Reports, st.Dropped, st.Duplicated, st.Corrupted, st.LEDCommands)
		})
	}
}
