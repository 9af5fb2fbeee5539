package sensorboard

import (
	"math"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// simulateClocks feeds a TimeMap with frames of a board whose clock runs
// at (1 - drift) of the host's, sent every period and delayed by a
// transport delay of at least minDelay plus exponential jitter and
// occasional queueing spikes. It returns the largest error of the mapping
// over the last minute (after a 10 s warm-up), against the true instant the frame was stamped.
func simulateClocks(t *testing.T, m *TimeMap, driftPPM float64, dur, period time.Duration, seed uint64) time.Duration {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, seed))
	const epoch = 5 * time.Hour // the host started long before the board
	minDelay := 300 * time.Microsecond
	var worst time.Duration
	for host := time.Duration(0); host < dur; host += period {
		// The board's clock at true host instant `host`.
		boardNs := float64(host) * (1 - driftPPM*1e-6)
		boardMs := int64(boardNs / float64(time.Millisecond))
		// The instant the board's ms tick began, on the host's timeline.
		stamped := time.Duration(float64(boardMs*int64(time.Millisecond)) / (1 - driftPPM*1e-6))
		delay := minDelay + time.Duration(rng.ExpFloat64()*float64(2*time.Millisecond))
		if rng.IntN(50) == 0 {
			delay += 400 * time.Millisecond // a USB hiccup
		}
		recv := epoch + host + delay
		m.Observe(boardMs, recv)
		at, ok := m.Map(boardMs)
		require.True(t, ok)
		if host > dur-time.Minute && host > 10*time.Second {
			e := at - (epoch + stamped)
			if e < 0 {
				e = -e
			}
			worst = max(worst, e)
		}
	}
	return worst
}

func TestTimeMapAccuracy(t *testing.T) {
	tests := []struct {
		name     string
		driftPPM float64
		dur      time.Duration
		maxErr   time.Duration
	}{
		{"no drift, one minute", 0, time.Minute, 2 * time.Millisecond},
		{"no drift, ten minutes", 0, 10 * time.Minute, 2 * time.Millisecond},
		{"50 ppm slow, ten minutes", 50, 10 * time.Minute, 3 * time.Millisecond},
		{"80 ppm fast, thirty minutes", -80, 30 * time.Minute, 3 * time.Millisecond},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var m TimeMap
			worst := simulateClocks(t, &m, tc.driftPPM, tc.dur, 200*time.Millisecond, 7)
			assert.LessOrEqual(t, worst, tc.maxErr)
			if tc.dur >= 10*time.Minute {
				assert.InDelta(t, tc.driftPPM, m.DriftPPM(), 10, "fitted drift")
			}
		})
	}
}

// Without the drift term a plain minimum over a five-minute window is off
// by about drift × window; the fit must do much better.
func TestTimeMapDriftMatters(t *testing.T) {
	var m TimeMap
	worst := simulateClocks(t, &m, 100, 20*time.Minute, 200*time.Millisecond, 9)
	plainMinError := time.Duration(100e-6 * float64(5*time.Minute))
	require.Greater(t, plainMinError, 20*time.Millisecond)
	assert.Less(t, worst, plainMinError/5)
}

func TestTimeMapUnhealthy(t *testing.T) {
	var m TimeMap
	_, ok := m.Map(0)
	assert.False(t, ok, "empty map")
	// A board whose clock runs twice as fast is not a clock we can map.
	for i := range int64(200) {
		m.Observe(i*2000, time.Duration(i)*time.Second)
	}
	_, ok = m.Map(400_000)
	assert.False(t, ok)
	m.Reset()
	assert.Zero(t, m.Samples())
	m.Observe(1000, 3*time.Second)
	at, ok := m.Map(1500)
	assert.True(t, ok)
	assert.Equal(t, 3500*time.Millisecond, at)
}

func TestTimeMapMinimumFilter(t *testing.T) {
	var m TimeMap
	// Delays of 5, 1 and 9 ms: the 1 ms sample sets the offset.
	m.Observe(100, 105*time.Millisecond)
	m.Observe(200, 201*time.Millisecond)
	m.Observe(300, 309*time.Millisecond)
	at, ok := m.Map(400)
	require.True(t, ok)
	assert.Equal(t, 401*time.Millisecond, at)
	assert.False(t, math.IsNaN(m.DriftPPM()))
}
