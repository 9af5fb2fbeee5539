package demo

import (
	"context"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"time"

	"arbiter/hardware/dgt/driver"
	dgtsim "arbiter/hardware/dgt/sim"
	"arbiter/hardware/sensorboard/sim"
	"arbiter/rules"
)

// addDGT plugs a simulated DGT e-board (serial number serial, with a
// clock) into a chess table of tournament: its people move the pieces and
// press the lever as at our own boards, and the daemon reads it through
// the DGT driver on the port [Demo.DGTPaths] lists.
func (dm *Demo) addDGT(tournament uint64, serial string, n uint64) error {
	b := dgtsim.NewBoard(dgtsim.Config{Serial: serial, Seed: dm.seed*1000 + n})
	b.ConnectClock(0, 0)
	path := filepath.Join(dm.dir, "dgt-"+serial)
	line, err := dgtsim.Attach(path, b)
	if err != nil {
		return fmt.Errorf("demo DGT board %s: %w", serial, err)
	}
	dm.lines = append(dm.lines, line)
	dm.dgtPaths = append(dm.dgtPaths, path)
	t, err := dm.d.AddTable(tournament, driver.IDPrefix+serial)
	if err != nil {
		return err
	}
	rng := rand.New(rand.NewPCG(dm.seed, n))
	h := ScaledHuman(dgtHuman, dm.speed)
	dm.players[t.ID] = &player{d: dm.d, stats: dm.stats, plies: dm.plies, table: t, rng: rng, news: make(chan news, 64),
		hands: &dgtHands{board: b, human: h, whiteRight: dm.whiteRight, pl: &dgtsim.Player{Board: b, Rng: rand.New(rand.NewPCG(dm.seed, n+1)), Slide: 0.2,
			Step: max(h.Hand[1], time.Millisecond)}},
		patience: min(30*time.Second, max(3*time.Second, time.Duration(float64(2*time.Minute)/dm.speed)))}
	return nil
}

// DGTPaths returns the serial ports of the simulated DGT boards, for the
// DGT driver.
func (dm *Demo) DGTPaths() []string { return dm.dgtPaths }

// dgtHuman is how long a person at a DGT board thinks, moves a piece and
// reaches for the lever, at human speed.
var dgtHuman = sim.Human{
	Think: [2]time.Duration{2 * time.Second, 20 * time.Second},
	Hand:  [2]time.Duration{200 * time.Millisecond, 600 * time.Millisecond},
	Press: [2]time.Duration{400 * time.Millisecond, 1200 * time.Millisecond},
}

// dgtHands play on a simulated DGT board: White sits at the clock's left
// display unless whiteRight (boards.dgt.white_right).
type dgtHands struct {
	board      *dgtsim.Board
	pl         *dgtsim.Player
	human      sim.Human
	whiteRight bool
}

func (h *dgtHands) waitHost(context.Context) error { return nil }

// restore sets the pieces up as wanted, as the people do between games;
// the host's watchdog reads the board whole.
func (h *dgtHands) restore(ctx context.Context, want rules.View) error {
	h.board.SetUp(want)
	return sleep(ctx, 1500*time.Millisecond)
}

func (h *dgtHands) move(ctx context.Context, pos, next rules.Position, _ rules.Move, rng *rand.Rand) error {
	if err := sleep(ctx, between(rng, h.human.Think)); err != nil {
		return err
	}
	h.pl.Move(pos.View(), next.View())
	if err := sleep(ctx, between(rng, h.human.Press)); err != nil {
		return err
	}
	h.board.Press((pos.Turn() == rules.White) != h.whiteRight)
	return nil
}

func (h *dgtHands) idle()                    {}
func (h *dgtHands) heartbeat() time.Duration { return time.Second }

// answer has nothing to do: a DGT board sees the promoted piece, so no
// question is asked.
func (h *dgtHands) answer(rules.Color, int) {}

func between(rng *rand.Rand, r [2]time.Duration) time.Duration {
	if r[1] <= r[0] {
		return r[0]
	}
	return r[0] + time.Duration(rng.Int64N(int64(r[1]-r[0])))
}

func sleep(ctx context.Context, d time.Duration) error {
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-time.After(d):
		return nil
	}
}
