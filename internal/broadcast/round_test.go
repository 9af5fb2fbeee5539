package broadcast

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
)

// The pause after the n-th failure doubles from Backoff up to MaxBackoff
// and is drawn between its half and its whole.
func TestBackoff(t *testing.T) {
	for _, tc := range []struct {
		n        int
		min, max time.Duration
	}{
		{1, time.Second, 2 * time.Second},
		{2, 2 * time.Second, 4 * time.Second},
		{3, 4 * time.Second, 8 * time.Second},
		{4, 8 * time.Second, 16 * time.Second},
		{5, 15 * time.Second, 30 * time.Second},
		{6, 15 * time.Second, 30 * time.Second},
		{60, 15 * time.Second, 30 * time.Second},
	} {
		p := &Pusher{Backoff: DefaultInterval, MaxBackoff: DefaultMaxBackoff}
		p.Rand = func() float64 { return 0 }
		assert.Equal(t, tc.min, p.backoff(tc.n), "failure %d, least", tc.n)
		p.Rand = func() float64 { return 1 }
		assert.Equal(t, tc.max, p.backoff(tc.n), "failure %d, most", tc.n)
	}
}

func TestRetryAfter(t *testing.T) {
	now := time.Date(2026, 11, 21, 10, 0, 0, 0, time.UTC)
	for _, tc := range []struct {
		header string
		want   time.Duration
	}{
		{"", 0},
		{"7", 7 * time.Second},
		{" 120 ", 2 * time.Minute},
		{"0", 0},
		{"Sat, 21 Nov 2026 10:00:30 GMT", 30 * time.Second},
		{"Sat, 21 Nov 2026 09:00:00 GMT", 0}, // past
		{"-5", 0},
		{"soon", 0},
	} {
		assert.Equal(t, tc.want, retryAfter(tc.header, now), "%q", tc.header)
	}
}

// A round's steps: a failure's pause is the backoff, or the Retry-After
// (capped); a success clears the failures; a send cut short by the stop
// is no failure; the interval holds between two sends.
func TestRoundSteps(t *testing.T) {
	now := time.Date(2026, 11, 21, 10, 0, 0, 0, time.UTC)
	wait := func(n int) time.Duration { return time.Duration(n) * 10 * time.Second }
	var r round
	_, ok := r.due(2 * time.Second)
	assert.False(t, ok, "nothing to send")
	r.changed()
	at, ok := r.due(2 * time.Second)
	assert.True(t, ok)
	assert.True(t, at.IsZero(), "a first send is due at once")
	r.start(now)
	_, ok = r.due(2 * time.Second)
	assert.False(t, ok, "in flight")
	assert.True(t, r.pending())

	assert.False(t, r.finish(outcome{sent: true, status: 500, err: errRefused, at: now.Add(time.Second)}, wait))
	at, _ = r.due(2 * time.Second)
	assert.Equal(t, now.Add(11*time.Second), at, "the backoff after the first failure")

	r.start(at)
	assert.False(t, r.finish(outcome{sent: true, status: 429, retryAfter: time.Hour, err: errRefused, at: at}, wait))
	next, _ := r.due(2 * time.Second)
	assert.Equal(t, at.Add(maxRetryAfter), next, "Retry-After, capped")
	assert.Equal(t, 2, r.failures)

	r.start(next)
	assert.False(t, r.finish(outcome{sent: true, err: errRefused, canceled: true, at: next}, wait))
	assert.Equal(t, 2, r.failures, "a send cut short is no failure")
	assert.True(t, r.pending())

	r.start(next.Add(time.Second))
	assert.True(t, r.finish(outcome{sent: true, status: 200, digest: "abc", at: next.Add(time.Second)}, wait))
	assert.False(t, r.pending())
	assert.Equal(t, 0, r.failures)
	assert.Equal(t, "abc", r.accepted)
	r.changed()
	at, _ = r.due(2 * time.Second)
	assert.Equal(t, next.Add(3*time.Second), at, "the interval since the last send")
}
