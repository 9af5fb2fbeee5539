package driver

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"time"

	"arbiter/board"
	"arbiter/hardware/dgt"
	dgtsim "arbiter/hardware/dgt/sim"
	"arbiter/rules"
)

// simulateSingle makes a DGT e-board with a clock on a pseudo-terminal,
// its serial number the five digits of c.Index and its link
// Dir/dgt-<serial>.
func simulateSingle(c board.SimConfig) (board.Simulated, error) {
	return simulate(c, fmt.Sprintf("%05d", c.Index), false)
}

// simulateBus makes a line of one DGT e-board in bus mode on a
// pseudo-terminal, the board at bus address 3000 plus c.Index, its link
// Dir/dgt-bus-<address>.
func simulateBus(c board.SimConfig) (board.Simulated, error) {
	return simulate(c, fmt.Sprintf("%05d", 3000+c.Index), true)
}

// dgtHuman is how long a person at a DGT board thinks, moves a piece and
// reaches for the lever, at human speed.
var dgtHuman = struct{ think, hand, press [2]time.Duration }{
	think: [2]time.Duration{2 * time.Second, 20 * time.Second},
	hand:  [2]time.Duration{200 * time.Millisecond, 600 * time.Millisecond},
	press: [2]time.Duration{400 * time.Millisecond, 1200 * time.Millisecond},
}

func simulate(c board.SimConfig, serial string, bus bool) (board.Simulated, error) {
	if err := fitsDGT(c.Game); err != nil {
		return nil, err
	}
	speed := c.Speed
	if speed <= 0 {
		speed = 1
	}
	scale := func(r [2]time.Duration) [2]time.Duration {
		return [2]time.Duration{time.Duration(float64(r[0]) / speed), time.Duration(float64(r[1]) / speed)}
	}
	b := dgtsim.NewBoard(dgtsim.Config{Serial: serial, Seed: c.Seed*1000 + c.Number})
	b.ConnectClock(0, 0)
	name, id := "dgt-"+serial, IDPrefix+serial
	if bus {
		name, id = "dgt-bus-"+serial, busID(b.Addr())
	}
	line, err := dgtsim.Attach(filepath.Join(c.Dir, name), b)
	if err != nil {
		return nil, fmt.Errorf("simulated DGT board %s: %w", serial, err)
	}
	s := &simulated{id: id, board: b, line: line, think: scale(dgtHuman.think), press: scale(dgtHuman.press),
		whiteRight: settingsOf(c.Settings).WhiteRight,
		player: &dgtsim.Player{Board: b, Rng: rand.New(rand.NewPCG(c.Seed, c.Number+1)), Slide: 0.2,
			Step: max(scale(dgtHuman.hand)[1], time.Millisecond)}}
	s.port = board.Port{Path: line.Path()}
	if bus {
		s.port.Keys = &BusPort{Addresses: []int{int(b.Addr())}}
	}
	return s, nil
}

// fitsDGT refuses a game a DGT board cannot show: one on another board
// than 8x8, or with pieces a chess set does not have.
func fitsDGT(g rules.Game) error {
	if g == nil {
		return errors.New("a simulated DGT board needs a game")
	}
	i := info("a DGT board", dgt.Version{}, Caps)
	if err := i.Fits(g.Geometry()); err != nil {
		return fmt.Errorf("%s cannot be played on a DGT board: %w", g.Name(), err)
	}
	v := g.Start().View()
	for _, st := range v.Stacks {
		for _, p := range st {
			if _, ok := dgt.PieceOf(p); !ok || len(st) > 1 {
				return fmt.Errorf("%s cannot be played on a DGT board: its %s is not a chess piece", g.Name(), p)
			}
		}
	}
	return nil
}

// simulated is a simulated DGT board and the people's hands on it: White
// sits at the clock's left display unless whiteRight (boards.dgt.white_right).
type simulated struct {
	id           string
	port         board.Port
	board        *dgtsim.Board
	line         *dgtsim.Line
	player       *dgtsim.Player
	think, press [2]time.Duration
	whiteRight   bool
}

func (s *simulated) ID() string                     { return s.id }
func (s *simulated) Port() board.Port               { return s.port }
func (s *simulated) Close() error                   { return s.line.Close() }
func (s *simulated) WaitHost(context.Context) error { return nil }
func (s *simulated) Idle()                          {}
func (s *simulated) Heartbeat() time.Duration       { return time.Second }

// Answer has nothing to do: a DGT board sees the promoted piece, so no
// question is asked.
func (s *simulated) Answer(rules.Color, int) {}

// Restore sets the pieces up as wanted, as the people do between games;
// the host's watchdog reads the board whole.
func (s *simulated) Restore(ctx context.Context, want rules.View) error {
	s.board.SetUp(want)
	return sleep(ctx, 1500*time.Millisecond)
}

func (s *simulated) Move(ctx context.Context, pos, next rules.Position, _ rules.Move, rng *rand.Rand) error {
	if err := sleep(ctx, between(rng, s.think)); err != nil {
		return err
	}
	s.player.Move(pos.View(), next.View())
	if err := sleep(ctx, between(rng, s.press)); err != nil {
		return err
	}
	s.board.Press((pos.Turn() == rules.White) != s.whiteRight)
	return nil
}

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
