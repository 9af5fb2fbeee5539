package clock

import (
	"context"
	"errors"
	"time"
)

// Driver runs a Clock in one goroutine: it applies requests in order and
// fires the clock's deadlines with a timer. Instants are offsets from the
// driver's epoch on the host's monotonic clock.
type Driver struct {
	clock  *Clock
	epoch  time.Time
	notify func(Event)
	reqs   chan request
	done   chan struct{} // closed when Run returns
	buf    []Event
}

type request struct {
	f    func(c *Clock, now time.Duration)
	done chan struct{}
}

// ErrDriverStopped is returned by Do once Run has returned.
var ErrDriverStopped = errors.New("clock driver stopped")

// NewDriver returns a driver for c. Instants are time.Since(epoch); epoch
// must carry a monotonic reading (take it from time.Now). notify receives
// every clock event, in order, on the driver's goroutine; it must not
// block for long and must not call Do.
func NewDriver(c *Clock, epoch time.Time, notify func(Event)) *Driver {
	if notify == nil {
		notify = func(Event) {}
	}
	return &Driver{clock: c, epoch: epoch, notify: notify, reqs: make(chan request), done: make(chan struct{})}
}

// Now is the current instant on the driver's timeline.
func (d *Driver) Now() time.Duration { return time.Since(d.epoch) }

// Run serves requests and fires deadlines until ctx is done. Call it once.
func (d *Driver) Run(ctx context.Context) error {
	defer close(d.done)
	timer := time.NewTimer(time.Hour)
	defer timer.Stop()
	for {
		now := d.Now()
		if dl, ok := d.clock.NextDeadline(now); ok {
			timer.Reset(max(dl.At-now, 0))
		} else {
			timer.Stop()
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case r := <-d.reqs:
			r.f(d.clock, d.Now())
			close(r.done)
		case <-timer.C:
			d.clock.Advance(d.Now())
		}
		d.buf = d.clock.Events(d.buf[:0])
		for _, e := range d.buf {
			d.notify(e)
		}
	}
}

// Do runs f on the driver's goroutine with the clock and the current
// instant, and waits for it. Presses should pass their own (board) instant
// to the clock rather than now.
func (d *Driver) Do(ctx context.Context, f func(c *Clock, now time.Duration)) error {
	r := request{f: f, done: make(chan struct{})}
	select {
	case d.reqs <- r:
	case <-d.done:
		return ErrDriverStopped
	case <-ctx.Done():
		return ctx.Err()
	}
	select {
	case <-r.done:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}
