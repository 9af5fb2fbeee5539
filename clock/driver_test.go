package clock

import (
	"context"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// seen is an event and the host instant the driver delivered it.
type seen struct {
	Event
	host time.Duration
}

type recorder struct {
	mu     sync.Mutex
	epoch  time.Time
	events []seen
}

func (r *recorder) notify(e Event) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.events = append(r.events, seen{e, time.Since(r.epoch)})
}

func (r *recorder) all() []seen {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]seen(nil), r.events...)
}

// runDriver starts a driver for text inside the synctest bubble and
// returns it with its recorder; the driver stops at the end of the test.
func runDriver(t *testing.T, text string, opt Options) (*Driver, *recorder) {
	c := mustClock(t, text, opt)
	rec := &recorder{epoch: time.Now()}
	d := NewDriver(c, rec.epoch, rec.notify)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error)
	go func() { done <- d.Run(ctx) }()
	t.Cleanup(func() {
		cancel()
		assert.ErrorIs(t, <-done, context.Canceled)
	})
	require.NoError(t, d.Do(ctx, func(c *Clock, now time.Duration) { require.NoError(t, c.Start(now)) }))
	return d, rec
}

func TestDriverFlagConfirmedByBoard(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		d, rec := runDriver(t, "5m", Options{})
		time.Sleep(5*time.Minute - time.Nanosecond)
		synctest.Wait()
		assert.Empty(t, rec.all())
		time.Sleep(time.Nanosecond)
		synctest.Wait()
		assert.Equal(t, []seen{{Event{Kind: FlagPending, Side: First, At: 5 * time.Minute, FlagAt: 5 * time.Minute}, 5 * time.Minute}}, rec.all(),
			"the flag is seen at the exact instant, but not decided")
		time.Sleep(100 * time.Millisecond)
		// The board's heartbeat stamped past the flag instant arrives.
		require.NoError(t, d.Do(context.Background(), func(c *Clock, now time.Duration) { c.Delivered(now) }))
		got := rec.all()
		require.Len(t, got, 2)
		assert.Equal(t, Event{Kind: Flag, Side: First, At: 5 * time.Minute, Final: true, Verdict: FlagLoses}, got[1].Event)
		assert.Equal(t, 5*time.Minute+100*time.Millisecond, got[1].host)
	})
}

func TestDriverLatePressBeatsFlag(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		d, rec := runDriver(t, "5m", Options{})
		time.Sleep(5*time.Minute + 200*time.Millisecond)
		// The frame with the press stamped 4:59.990 arrives 210 ms late.
		var err error
		require.NoError(t, d.Do(context.Background(), func(c *Clock, now time.Duration) {
			_, err = c.Press(First, 5*time.Minute-10*time.Millisecond)
		}))
		require.NoError(t, err)
		time.Sleep(time.Hour)
		synctest.Wait()
		var status Status
		var second Reading
		require.NoError(t, d.Do(context.Background(), func(c *Clock, now time.Duration) {
			status, second = c.Status(), c.Reading(Second, now)
		}))
		got := rec.all()
		require.Len(t, got, 3)
		assert.Equal(t, FlagPending, got[0].Kind)
		assert.Equal(t, FlagPending, got[1].Kind, "second's flag instant passes too")
		assert.Equal(t, Second, got[1].Side)
		assert.Equal(t, 10*time.Minute-10*time.Millisecond, got[1].FlagAt)
		assert.Equal(t, LinkSilent, got[2].Kind)
		assert.Equal(t, 10*time.Minute+490*time.Millisecond, got[2].host, "held after the grace")
		assert.Equal(t, Paused, status)
		assert.Equal(t, time.Duration(0), second.Main)
	})
}

func TestDriverSilentLinkHolds(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		d, rec := runDriver(t, "5m", Options{Grace: time.Second})
		time.Sleep(10 * time.Minute)
		synctest.Wait()
		got := rec.all()
		require.Len(t, got, 2)
		assert.Equal(t, seen{Event{Kind: LinkSilent, Side: First, At: 5*time.Minute + time.Second, FlagAt: 5 * time.Minute}, 5*time.Minute + time.Second}, got[1])
		var status Status
		require.NoError(t, d.Do(context.Background(), func(c *Clock, _ time.Duration) { status = c.Status() }))
		assert.Equal(t, Paused, status)
	})
}

func TestDriverNoLinkFlagAtExactInstant(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		_, rec := runDriver(t, "1m:byo=2x30s", Options{NoLink: true})
		time.Sleep(time.Hour)
		synctest.Wait()
		want := []seen{
			{Event{Kind: OvertimeEntered, Side: First, At: time.Minute}, time.Minute},
			{Event{Kind: PeriodLost, Side: First, At: 90 * time.Second}, 90 * time.Second},
			{Event{Kind: Flag, Side: First, At: 2 * time.Minute, Final: true, Verdict: FlagLoses}, 2 * time.Minute},
		}
		assert.Equal(t, want, rec.all())
	})
}

func TestDriverPressesAndPause(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		d, rec := runDriver(t, "5m+2s", Options{NoLink: true})
		bg := context.Background()
		press := func(s Side) {
			require.NoError(t, d.Do(bg, func(c *Clock, now time.Duration) {
				_, err := c.Press(s, now)
				require.NoError(t, err)
			}))
		}
		time.Sleep(10 * time.Second)
		press(First)
		time.Sleep(20 * time.Second)
		require.NoError(t, d.Do(bg, func(c *Clock, now time.Duration) { require.NoError(t, c.Pause(now)) }))
		time.Sleep(time.Hour)
		require.NoError(t, d.Do(bg, func(c *Clock, now time.Duration) { require.NoError(t, c.Resume(now)) }))
		time.Sleep(time.Minute)
		press(Second)
		synctest.Wait()
		assert.Empty(t, rec.all())
		var r Reading
		require.NoError(t, d.Do(bg, func(c *Clock, now time.Duration) { r = c.Reading(Second, now) }))
		assert.Equal(t, 5*time.Minute+2*time.Second-80*time.Second+2*time.Second, r.Main)
		// First now flags 4:54 later.
		time.Sleep(4*time.Minute + 54*time.Second)
		synctest.Wait()
		got := rec.all()
		require.Len(t, got, 1)
		assert.Equal(t, Flag, got[0].Kind)
		assert.Equal(t, 10*time.Second+20*time.Second+time.Hour+time.Minute+4*time.Minute+54*time.Second, got[0].host)
	})
}

func TestDriverStopped(t *testing.T) {
	c := mustClock(t, "5m", Options{})
	d := NewDriver(c, time.Now(), nil)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	assert.ErrorIs(t, d.Run(ctx), context.Canceled)
	assert.ErrorIs(t, d.Do(context.Background(), func(*Clock, time.Duration) {}), ErrDriverStopped)
}
