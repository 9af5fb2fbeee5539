package plug

import (
	"context"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"time"

	"arbiter/board"
	"arbiter/hardware/sensorboard/sim"
	"arbiter/rules"
)

// simulate makes one of our boards on a pseudo-terminal, its link
// Dir/board-ID, set up for the game: every board with an even Number
// also senses piece identities and faces, so that both classes of our
// hardware play.
func simulate(c board.SimConfig) (board.Simulated, error) {
	caps := board.CapHeight | board.CapClockDisplay | board.CapText
	if c.Number%2 == 0 {
		caps |= board.CapIdentity | board.CapFace
	}
	b, err := sim.NewBoard(sim.Config{
		ID: c.ID, Geometry: c.Game.Geometry(), Graph: sim.GraphName(c.Game), Caps: caps, Seed: c.Seed*1000 + c.Number,
		Faults: sim.LinkFaults(c.Faults),
	}, sim.NewReal())
	if err != nil {
		return nil, err
	}
	p, err := sim.Attach(b, filepath.Join(c.Dir, "board-"+c.ID))
	if err != nil {
		return nil, fmt.Errorf("simulated board %s: %w", c.ID, err)
	}
	r := sim.NewRunner(b, sim.NewReal())
	speed := c.Speed
	if speed <= 0 {
		speed = 1
	}
	r.Human = sim.DefaultHuman.Scaled(speed)
	return &simulated{game: c.Game, board: b, pty: p, runner: r}, nil
}

// simulated is one of our boards on a pseudo-terminal, and the people's
// hands on it.
type simulated struct {
	game   rules.Game
	board  *sim.Board
	pty    *sim.PTY
	runner *sim.Runner
}

func (s *simulated) ID() string               { return s.board.ID() }
func (s *simulated) Port() board.Port         { return board.Port{Path: s.pty.Path()} }
func (s *simulated) Close() error             { return s.pty.Close() }
func (s *simulated) Idle()                    { s.board.Idle() }
func (s *simulated) Heartbeat() time.Duration { return s.board.Config().Heartbeat }

func (s *simulated) WaitHost(ctx context.Context) error { return s.runner.WaitHost(ctx) }

func (s *simulated) Move(ctx context.Context, pos, next rules.Position, m rules.Move, rng *rand.Rand) error {
	steps, err := sim.PlanMove(s.game.Geometry(), pos.View(), next.View(), m, pos.Turn(), s.runner.Human, rng)
	if err != nil {
		return fmt.Errorf("plan %s: %w", m, err)
	}
	return s.runner.Run(ctx, steps)
}

func (s *simulated) Answer(side rules.Color, choice int) {
	s.board.Press(board.ButtonAnswer, board.Side(side), board.AnswerChoice+uint8(choice))
}

// Restore puts the board back to view want by hand: every square that
// differs is cleared and rebuilt, every zone refilled.
func (s *simulated) Restore(ctx context.Context, want rules.View) error {
	pause := func() error {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(40 * time.Millisecond):
			return nil
		}
	}
	cur := s.board.View()
	var rebuild []rules.Square
	for i := range want.Stacks {
		sq := rules.Square(i)
		if slices.Equal(cur.Stacks[i], want.Stacks[i]) {
			continue
		}
		rebuild = append(rebuild, sq)
		if n := len(cur.Stacks[i]); n > 0 {
			if _, err := s.board.Lift(sq, n); err != nil {
				return err
			}
			if err := pause(); err != nil {
				return err
			}
		}
	}
	for _, sq := range rebuild {
		if len(want.Stacks[sq]) > 0 {
			s.board.Place(sq, want.Stacks[sq]...)
			if err := pause(); err != nil {
				return err
			}
		}
	}
	for z := range want.Zones {
		for _, pc := range cur.Zones[z] {
			if err := s.board.Take(z, pc); err != nil {
				return err
			}
		}
		for _, pc := range want.Zones[z] {
			s.board.Put(z, pc)
		}
	}
	return pause()
}
