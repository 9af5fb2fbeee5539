package sim

import (
	"context"
	"sync"
	"time"
)

// Clock is the simulator's time. A [Virtual] clock runs a game as fast as
// the host reads it (scripted mode, for tests); a [Real] clock sleeps like
// a person (demo mode).
type Clock interface {
	// Now returns the time since the clock started.
	Now() time.Duration
	// SleepUntil returns when Now has reached t, or when ctx ends.
	SleepUntil(ctx context.Context, t time.Duration) error
}

// Virtual is a clock that jumps to the next instant asked for, without
// sleeping. Its zero value starts at 0.
type Virtual struct {
	mu  sync.Mutex
	now time.Duration
}

// Now implements [Clock].
func (c *Virtual) Now() time.Duration {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

// SleepUntil implements [Clock]: it advances the clock to t at once.
func (c *Virtual) SleepUntil(ctx context.Context, t time.Duration) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	c.mu.Lock()
	if t > c.now {
		c.now = t
	}
	c.mu.Unlock()
	return nil
}

// Real is the wall clock, read monotonically from its epoch.
type Real struct {
	Epoch time.Time
}

// NewReal returns a real clock starting now.
func NewReal() *Real { return &Real{Epoch: time.Now()} }

// Now implements [Clock].
func (c *Real) Now() time.Duration { return time.Since(c.Epoch) }

// SleepUntil implements [Clock].
func (c *Real) SleepUntil(ctx context.Context, t time.Duration) error {
	d := t - c.Now()
	if d <= 0 {
		return ctx.Err()
	}
	tm := time.NewTimer(d)
	defer tm.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-tm.C:
		return nil
	}
}
