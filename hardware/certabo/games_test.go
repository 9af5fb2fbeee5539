package certabo_test

import (
	"flag"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"arbiter/hardware/certabo"
	"arbiter/hardware/certabo/sim"
	"arbiter/internal/eboardtest"
	"arbiter/rules/chess"
)

var games = flag.Int("certabo.games", 0, "random games per case in TestRandomGamesReadRight (default 20, 1 with -short)")

// calibrate shows the table's board the start position with the spare
// queens on d3 and d6, then with the spare rooks, bishops and knights, as
// an arbiter calibrating a set does, then the start position; it returns
// when the host knows every chip.
func calibrate(t *testing.T, tab *eboardtest.Table, b *sim.Board, cal *certabo.Calibration) {
	t.Helper()
	learn := func(want int, what string) {
		t.Helper()
		for range 40 {
			if cal.Len() == want {
				return
			}
			tab.Wait(250 * time.Millisecond)
		}
		require.Equal(t, want, cal.Len(), what)
	}
	b.SetUpCalibration()
	learn(34, "the set and its spare queens are learnt")
	b.SetUpSpares(chess.Start().View())
	learn(40, "the spares are learnt too")
	b.SetUp(chess.Start().View())
	tab.Wait(2 * time.Second)
}

// Random legal chess games, played on the emulated board by a person and
// read through the driver's session into an arbiter session as a table
// runs it, in virtual time, after the set was calibrated: clean, and with
// a person's noise (captures in either order or by pushing the captured
// piece off, castling with either piece first, slides, pieces lifted and
// put back, promotions with captured pieces or spares), junk read on empty
// squares and chips misread, frames lost or cut short, LED commands lost,
// a board turned round, and a board knocked off its cable with a move made
// while it was off. Every move is read right, and the only alerts are
// those of the board off its cable.
func TestRandomGamesReadRight(t *testing.T) {
	t.Parallel()
	n, plies := 20, 100
	if testing.Short() {
		n, plies = 1, 40
	}
	if *games > 0 {
		n = *games
	}
	noise := sim.Faults{Junk: 0.05, Misread: 0.01, Drop: 0.03, Cut: 0.02, LoseLEDs: 0.2}
	// A board that sends three frames a second and takes a square's value
	// from two of them wants a second or more between two players' moves,
	// and a hand that moves faster than it reads.
	think := [2]time.Duration{1200 * time.Millisecond, 3200 * time.Millisecond}
	clean := eboardtest.Human{Step: 40 * time.Millisecond, Think: think}
	hands := eboardtest.Human{Step: 40 * time.Millisecond, Think: think, Slide: 0.4, PushOff: 0.3, LiftBack: 0.15}
	cable := hands
	cable.Unplug = 0.05
	for ci, tc := range []struct {
		name  string
		board sim.Config
		human eboardtest.Human
	}{
		{"clean", sim.Config{}, clean},
		{"human noise", sim.Config{AckLEDs: true}, hands},
		{"junk, misreads, lost frames", sim.Config{Faults: noise}, hands},
		{"rotated", sim.Config{Rotated: true, Faults: noise}, hands},
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
				bc.Seed, bc.Chip = uint64(100*ci+g), byte(g)
				rotated := bc.Rotated
				bc.Rotated = false // a set is calibrated on the board as its maker labels it
				b := sim.NewBoard(bc)
				tab, err := eboardtest.New(eboardtest.Config{Protocol: certabo.Protocol, Board: b})
				require.NoError(t, err)
				calibrate(t, tab, b, tab.Replayer().Session().(*certabo.Session).Calibration())
				if rotated {
					// The players sit the other way round.
					b.Turn()
					b.SetUp(chess.Start().View())
					tab.Wait(2 * time.Second)
				}
				require.NoError(t, tab.Start())
				tab.Wait(2 * time.Second)
				require.True(t, tab.Started, "game %d: the set-up is seen", g)
				unplugs += tab.Play(game, tc.human, rng)
				tab.Wait(4 * time.Second)
				require.NoError(t, tab.Check(game), "game %d: board %+v", g, b.Counters())
				total += len(game.SAN)
				c := b.Counters()
				st.Frames += c.Frames
				st.Dropped += c.Dropped
				st.Cut += c.Cut
				st.Junk += c.Junk
				st.Misread += c.Misread
				st.LEDCommands += c.LEDCommands
				st.LEDsLost += c.LEDsLost
				st.Unknown += c.Unknown
			}
			t.Logf("%d games, %d plies read right; %d unplugs; board: %d frames (%d lost, %d cut), %d junk and %d misread squares, %d LED commands (%d lost), %d pieces of another set",
				n, total, unplugs, st.Frames, st.Dropped, st.Cut, st.Junk, st.Misread, st.LEDCommands, st.LEDsLost, st.Unknown)
		})
	}
}
