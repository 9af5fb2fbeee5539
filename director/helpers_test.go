package director_test

import (
	"context"
	"testing"
	"time"

	"arbiter/arbiter"
	"arbiter/director"
	"arbiter/rules"
)

// run runs d until the test ends, and waits for it to stop (clocks
// stored) before the database is closed.
func run(t *testing.T, d *director.Director) context.Context {
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		d.Run(ctx)
		close(done)
	}()
	t.Cleanup(func() {
		cancel()
		<-done
	})
	return ctx
}

func heartbeat(at time.Duration) arbiter.Event {
	return arbiter.Event{Kind: arbiter.Heartbeat, At: at}
}

func arbiterEvent(at time.Duration, heights []int) arbiter.Event {
	return arbiter.Event{Kind: arbiter.StateDump, At: at, Heights: heights}
}

func square(at time.Duration, sq rules.Square, h int) arbiter.Event {
	return arbiter.Event{Kind: arbiter.SquareChanged, At: at, Square: sq, Height: h}
}

func press(at time.Duration, side rules.Color) arbiter.Event {
	return arbiter.Event{Kind: arbiter.ClockPressed, At: at, Side: side}
}
