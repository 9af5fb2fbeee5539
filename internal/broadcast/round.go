package broadcast

import (
	"time"
)

// round is the state of one round of one target, stepped by the pusher's
// loop with the instant as an argument: changed, start, finish.
//
// A round is pending from its first change until a send of its latest
// state is accepted: while it is dirty (it may have changed since its last
// send began) or a send is in flight.
type round struct {
	url string
	// accepted is the digest of the last body the endpoint accepted, ""
	// before the first (kept in the database).
	accepted string
	// dirty: the round may differ from what the endpoint has.
	dirty    bool
	inFlight bool
	// last is when the last send began: the next begins Interval later at
	// the earliest.
	last time.Time
	// notBefore is the end of the pause after a failure (the backoff, or
	// the endpoint's Retry-After).
	notBefore time.Time
	// failures counts the failed sends since the last success.
	failures int
	lastErr  error
	lastCode int // the last answer's status, 0 when none came
}

// pending reports whether the endpoint may not have the round's latest
// state.
func (r *round) pending() bool { return r.dirty || r.inFlight }

// changed notes that the round may have changed.
func (r *round) changed() { r.dirty = true }

// due returns when the round's next send may begin, and false when it has
// nothing to send or a send is in flight.
func (r *round) due(interval time.Duration) (time.Time, bool) {
	if !r.dirty || r.inFlight {
		return time.Time{}, false
	}
	at := r.notBefore
	if !r.last.IsZero() {
		if next := r.last.Add(interval); next.After(at) {
			at = next
		}
	}
	return at, true
}

// start begins a send at now: changes from now on make the round dirty
// again.
func (r *round) start(now time.Time) {
	r.dirty, r.inFlight, r.last = false, true, now
}

// outcome is how one send of a round ended.
type outcome struct {
	key    key
	digest string // of the body written; "" when it could not be written
	// sent: the body was POSTed. A body equal to the one accepted last is
	// not sent again.
	sent       bool
	status     int           // the answer's HTTP status; 0: no answer
	retryAfter time.Duration // the answer's Retry-After; 0: none
	err        error         // nil: the endpoint has the body
	// canceled: the send was cut short because the pusher was stopping;
	// it is no failure of the endpoint.
	canceled bool
	at       time.Time // when the send ended
}

// finish records a send's outcome. wait is the pause after the n-th
// failure in a row; a Retry-After replaces it. It reports whether the
// endpoint accepted a new body.
func (r *round) finish(o outcome, wait func(n int) time.Duration) (accepted bool) {
	r.inFlight = false
	r.lastCode = o.status
	switch {
	case o.err == nil:
		if o.sent {
			r.accepted = o.digest
			accepted = true
		}
		r.failures, r.lastErr, r.notBefore = 0, nil, time.Time{}
	case o.canceled:
		r.dirty = true
	default:
		r.dirty = true
		r.failures++
		r.lastErr = o.err
		pause := wait(r.failures)
		if o.retryAfter > 0 {
			pause = min(o.retryAfter, maxRetryAfter)
		}
		r.notBefore = o.at.Add(pause)
	}
	return accepted
}

// backoff is the pause after the n-th failure in a row: Backoff doubled
// n-1 times, at most MaxBackoff, drawn between its half and its whole.
func (p *Pusher) backoff(n int) time.Duration {
	d := p.Backoff
	for i := 1; i < n && d < p.MaxBackoff; i++ {
		d *= 2
	}
	d = min(d, p.MaxBackoff)
	return d/2 + time.Duration(p.Rand()*float64(d/2))
}
