package emu

import (
	"context"
	"math/rand/v2"
	"sync"
	"time"

	"arbiter/board"
	"arbiter/rules"
)

// Table is an emulated board as a person's hands meet it, and as it is
// set up between games.
type Table interface {
	Hands
	// SetUp puts the pieces of a view on the board at once.
	SetUp(v rules.View)
}

// SeatConfig describes a [Seat].
type SeatConfig struct {
	// ID is the board id the board's handshake gives.
	ID string
	// Line is the board's cable; Board the board on it.
	Line  *Line
	Board Table
	// Player is the people's hands.
	Player *Player
	// Think is the shortest and the longest time a person thinks before a
	// move.
	Think [2]time.Duration
	// Prepare, if set, runs once before the first set-up: what the
	// arbiter does to a board before the first game (a Certabo set's
	// calibration).
	Prepare func(ctx context.Context) error
	// SetUpTime is how long the people take to set the pieces up: Restore
	// waits it (default 1.5 s).
	SetUpTime time.Duration
}

// Seat is an emulated e-board without a clock on its cable, and the two
// people who play on it ([board.Simulated]): the demo's and the
// rehearsals' Millennium and Certabo boards.
type Seat struct {
	cfg      SeatConfig
	prepared sync.Once
	prepErr  error
}

// NewSeat returns the seat of cfg.
func NewSeat(cfg SeatConfig) *Seat {
	if cfg.SetUpTime <= 0 {
		cfg.SetUpTime = 1500 * time.Millisecond
	}
	return &Seat{cfg: cfg}
}

// ID implements [board.Simulated].
func (s *Seat) ID() string { return s.cfg.ID }

// Port implements [board.Simulated].
func (s *Seat) Port() board.Port { return board.Port{Path: s.cfg.Line.Path()} }

// WaitHost implements [board.Simulated]: the board talks whether the
// host listens or not.
func (s *Seat) WaitHost(context.Context) error { return nil }

// Idle implements [board.Simulated]: the board's reports are its
// heartbeats.
func (s *Seat) Idle() {}

// Heartbeat implements [board.Simulated].
func (s *Seat) Heartbeat() time.Duration { return time.Second }

// Answer implements [board.Simulated]: the board has no display to ask
// on.
func (s *Seat) Answer(rules.Color, int) {}

// Close implements [board.Simulated].
func (s *Seat) Close() error { return s.cfg.Line.Close() }

// Restore implements [board.Simulated]: the people set the pieces up
// (the first time after the arbiter prepared the board).
func (s *Seat) Restore(ctx context.Context, want rules.View) error {
	if s.cfg.Prepare != nil {
		s.prepared.Do(func() { s.prepErr = s.cfg.Prepare(ctx) })
		if s.prepErr != nil {
			return s.prepErr
		}
	}
	s.cfg.Board.SetUp(want)
	return Sleep(ctx, s.cfg.SetUpTime)
}

// Move implements [board.Simulated]: the person thinks, then moves; a
// board without a clock needs no press.
func (s *Seat) Move(ctx context.Context, pos, next rules.Position, _ rules.Move, rng *rand.Rand) error {
	think := s.cfg.Think[0]
	if s.cfg.Think[1] > s.cfg.Think[0] {
		think += time.Duration(rng.Int64N(int64(s.cfg.Think[1] - s.cfg.Think[0])))
	}
	if err := Sleep(ctx, think); err != nil {
		return err
	}
	s.cfg.Player.Move(pos.View(), next.View())
	return nil
}

// Sleep waits d, or until ctx ends.
func Sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}
