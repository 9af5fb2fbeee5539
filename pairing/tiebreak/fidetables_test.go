package tiebreak

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
)

// phi is the standard normal distribution function, from which FIDE derived
// its tables (σ = 200·√2 rating points).
func phi(x float64) float64 { return 0.5 * math.Erfc(-x/math.Sqrt2) }

func TestExpectedScoreTable(t *testing.T) {
	sigma := 200 * math.Sqrt2
	for d := 0; d <= 900; d++ {
		want := 100 * phi(float64(min(d, 800))/sigma)
		got := expectedPercent(1500+d, 1500)
		assert.InDelta(t, want, float64(got), 1.0, "difference %d", d)
		assert.Equal(t, 100-got, expectedPercent(1500, 1500+d), "mirror at %d", d)
	}
	assert.Equal(t, 50, expectedPercent(1500, 1500))
	assert.Equal(t, 51, expectedPercent(1504, 1500))
	assert.Equal(t, 99, expectedPercent(2235, 1500))
	assert.Equal(t, 100, expectedPercent(2236, 1500))
}

func TestDpTable(t *testing.T) {
	sigma := 200 * math.Sqrt2
	for p := 0; p <= 100; p++ {
		assert.Equal(t, -dp(p), dp(100-p), "symmetry at %d", p)
		if p > 0 {
			assert.Greater(t, dp(p), dp(p-1), "monotone at %d", p)
		}
		if p >= 5 && p <= 95 {
			want := sigma * math.Sqrt2 * math.Erfinv(2*float64(p)/100-1)
			assert.InDelta(t, want, float64(dp(p)), 6, "p = %d %%", p)
		}
	}
	assert.Equal(t, 800, dp(100))
	assert.Equal(t, 677, dp(99))
	assert.Equal(t, 0, dp(50))
}

func TestPerfectPerformance(t *testing.T) {
	games := []ratedGame{{2000, 1}, {2000, 1}}
	assert.Equal(t, 1997, perfectPerformance(games), "two draws against 2000: 50 %% is reached 3 points below")
	games = []ratedGame{{2000, 2}}
	assert.Equal(t, 2736, perfectPerformance(games), "a win needs 100 %%, reached 736 above")
	games = []ratedGame{{2000, 0}, {1800, 0}}
	assert.Equal(t, 1000, perfectPerformance(games))
	// Brute force: the lowest rating whose expected score reaches 1.5/3.
	games = []ratedGame{{2100, 2}, {1900, 1}, {1700, 0}}
	want := 0
	for r := 1000; r < 3000; r++ {
		if expectedPercent(r, 2100)+expectedPercent(r, 1900)+expectedPercent(r, 1700) >= 150 {
			want = r
			break
		}
	}
	assert.Equal(t, want, perfectPerformance(games))
}

func TestRoundHalfUp(t *testing.T) {
	tests := []struct {
		sum      float64
		num, dec int
		want     float64
	}{
		{13, 3, 2, 4.33},
		{9.5, 2, 2, 4.75},
		{0.125, 1, 2, 0.13},
		{0.005, 1, 2, 0.01},
		{-0.125, 1, 2, -0.13},
		{5001, 2, 0, 2501},
		{5001, 4, 0, 1250},
		{2.5, 1, 0, 3},
		{0, 5, 2, 0},
	}
	for _, tc := range tests {
		assert.Equal(t, tc.want, roundHalfUp(tc.sum, tc.num, tc.dec), "%v/%d", tc.sum, tc.num)
	}
}
