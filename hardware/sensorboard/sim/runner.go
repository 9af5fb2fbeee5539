package sim

import (
	"context"
	"fmt"
	"math/rand/v2"
	"time"

	"arbiter/board"
	"arbiter/rules"
)

// Plug is the cable of a board: what the runner pulls out and puts back to
// simulate a disconnection. [PTY] implements it.
type Plug interface {
	Unplug()
	Replug() error
}

// Runner plays turns on a board as a person would, with the board's
// physical faults.
type Runner struct {
	Board *Board
	Clock Clock
	Human Human
	// Plug, if set, is pulled for the Disconnect fault.
	Plug Plug
	// Outage is how long a disconnection lasts (default 1 s).
	Outage time.Duration
	// Answer, if set, is asked about every turn; when it says so, the
	// player presses the answer button with the value (promote or not,
	// which piece) just before pressing the clock, as a board without
	// face sensing needs for a shogi promotion.
	Answer func(t Turn) (value uint8, ok bool)

	rng *rand.Rand
}

// NewRunner returns a runner for b with the default human.
func NewRunner(b *Board, clock Clock) *Runner {
	return &Runner{Board: b, Clock: clock, Human: DefaultHuman, Outage: time.Second,
		rng: rand.New(rand.NewPCG(b.cfg.Seed, 0xC0FFEE))}
}

// WaitHost returns when the host has talked to the board since its last
// power-up.
func (r *Runner) WaitHost(ctx context.Context) error {
	select {
	case <-r.Board.Connected():
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// sleep waits until t, sending heartbeats while the board is quiet.
func (r *Runner) sleep(ctx context.Context, t time.Duration) error {
	hb := r.Board.cfg.Heartbeat
	for {
		now := r.Clock.Now()
		if now >= t {
			r.Board.Idle()
			return nil
		}
		next := min(t, now+hb)
		if err := r.Clock.SleepUntil(ctx, next); err != nil {
			return err
		}
		r.Board.Idle()
	}
}

// Play waits for the host, then plays every turn.
func (r *Runner) Play(ctx context.Context, turns []Turn) error {
	if err := r.WaitHost(ctx); err != nil {
		return err
	}
	g := r.Board.cfg.Geometry
	f := r.Board.cfg.Faults
	for i, t := range turns {
		if !r.Board.View().Equal(t.Before) {
			return fmt.Errorf("turn %d %s: the board does not show the position before it", i+1, t.Move)
		}
		if r.chance(f.KnockOver) {
			if err := r.run(ctx, PlanKnock(g, t.Before, r.knockable(t.Before), r.Human, r.rng)); err != nil {
				return fmt.Errorf("turn %d: knock-over: %w", i+1, err)
			}
		}
		steps, err := PlanMove(g, t.Before, t.After, t.Move, t.Mover, r.Human, r.rng)
		if err != nil {
			return fmt.Errorf("turn %d %s: %w", i+1, t.Move, err)
		}
		if r.Answer != nil {
			if v, ok := r.Answer(t); ok {
				steps = answerBeforePress(steps, board.SideOf(t.Mover), v)
			}
		}
		if err := r.run(ctx, steps); err != nil {
			return fmt.Errorf("turn %d %s: %w", i+1, t.Move, err)
		}
		if r.Plug != nil && r.chance(f.Disconnect) {
			if err := r.outage(ctx); err != nil {
				return fmt.Errorf("turn %d: %w", i+1, err)
			}
		}
	}
	return nil
}

// outage unplugs the board for a while; it restarts when plugged in.
func (r *Runner) outage(ctx context.Context) error {
	r.Plug.Unplug()
	if err := NewReal().SleepUntil(ctx, r.Outage); err != nil {
		return err
	}
	if err := r.Plug.Replug(); err != nil {
		return fmt.Errorf("replug: %w", err)
	}
	return r.WaitHost(ctx)
}

func (r *Runner) chance(rate float64) bool { return rate > 0 && r.rng.Float64() < rate }

// knockable picks the highest stack, the likeliest to fall.
func (r *Runner) knockable(v rules.View) rules.Square {
	best, bh := rules.Square(0), -1
	for sq, st := range v.Stacks {
		if len(st) > bh || (len(st) == bh && r.rng.IntN(2) == 0) {
			best, bh = rules.Square(sq), len(st)
		}
	}
	return best
}

// Run executes steps from now on.
func (r *Runner) Run(ctx context.Context, steps []Step) error { return r.run(ctx, steps) }

func (r *Runner) run(ctx context.Context, steps []Step) error {
	base := r.Clock.Now()
	for _, s := range steps {
		if err := r.sleep(ctx, base+s.At); err != nil {
			return err
		}
		if err := r.Board.Do(s); err != nil {
			return err
		}
	}
	return nil
}

// answerBeforePress puts an answer press just before the final clock press.
func answerBeforePress(steps []Step, side board.Side, value uint8) []Step {
	n := len(steps)
	press := steps[n-1]
	at := press.At - 150*time.Millisecond
	if n > 1 && at < steps[n-2].At {
		at = steps[n-2].At
	}
	ans := Step{At: at, Op: OpPress, Button: board.ButtonAnswer, Side: side, Value: value}
	return append(steps[:n-1:n-1], ans, press)
}
