package millennium_test

import (
	"flag"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"arbiter/hardware/millennium"
	"arbiter/hardware/millennium/sim"
	"arbiter/internal/eboardtest"
)

var games = flag.Int("millennium.games", 0, "random games per case in TestRandomGamesReadRight (default 20, 1 with -short)")

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
	quick := [2]time.Duration{400 * time.Millisecond, 1900 * time.Millisecond}
	clean := eboardtest.Human{Step: 60 * time.Millisecond, Think: quick}
	hands := eboardtest.Human{Step: 60 * time.Millisecond, Think: quick, Slide: 0.4, PushOff: 0.3, LiftBack: 0.15}
	cable := hands
	cable.Unplug = 0.05
	for ci, tc := range []struct {
		name  string
		board sim.Config
		human eboardtest.Human
	}{
		{"clean", sim.Config{}, clean},
		{"human noise", sim.Config{}, hands},
		{"lost and damaged reports", sim.Config{Faults: noise}, hands},
		{"rotated, reading from h1", sim.Config{Rotated: true, Reversed: true, Faults: noise}, hands},
		{"performance, no echoes", sim.Config{Model: sim.Performance, Faults: sim.Faults{NoWriteAck: true, Drop: 0.05}}, hands},
		{"eONE, wrong parity", sim.Config{Model: sim.EONE, Rotated: true, Faults: sim.Faults{WrongParity: true, Duplicate: 0.05}}, hands},
		{"knocked off its cable", sim.Config{Faults: noise}, cable},
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
				unplugs += tab.Play(game, tc.human, rng)
				tab.Wait(3 * time.Second)
				require.NoError(t, tab.Check(game), "game %d", g)
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
