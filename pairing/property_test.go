package pairing_test

import (
	"testing"

	"arbiter/pairing"
	"arbiter/pairing/generate"
	"arbiter/pairing/trf"
	"github.com/stretchr/testify/require"
)

// checkRound verifies the absolute criteria on round r (1-based) of t:
// no rematch of a played game, colour difference within ±2 and no colour
// three times in a row except for topscorers in the last round, and a
// legal pairing-allocated bye.
func checkRound(t *testing.T, tour *trf.Tournament, r int) {
	t.Helper()
	last := r == tour.Rounds
	byID := map[int]*trf.Player{}
	for i := range tour.Players {
		byID[tour.Players[i].ID] = &tour.Players[i]
	}
	for _, p := range tour.Players {
		if len(p.Games) < r {
			continue
		}
		g := p.Games[r-1]
		if g.Result == 'U' {
			for _, h := range p.Games[:r-1] {
				require.False(t, h.Result == 'U' || h.Result == '+' || h.Result == 'F', "round %d: player %d got a second bye or a bye after a win without playing", r, p.ID)
			}
		}
		if g.Opponent == 0 {
			continue
		}
		for k, h := range p.Games[:r-1] {
			if h.Opponent == g.Opponent && h.Played() {
				t.Fatalf("round %d: %d meets %d again after a played game in round %d", r, p.ID, g.Opponent, k+1)
			}
		}
		if last || !g.Played() {
			continue
		}
		diff, run, prev := 0, 0, byte(0)
		for _, h := range p.Games[:r] {
			if !h.Played() {
				continue
			}
			if h.Colour == 'w' {
				diff++
			} else {
				diff--
			}
			if h.Colour == prev {
				run++
			} else {
				run, prev = 1, h.Colour
			}
		}
		// Topscorer exceptions apply only in the last round, skipped above.
		require.LessOrEqual(t, diff, 2, "round %d: player %d colour difference %d", r, p.ID, diff)
		require.GreaterOrEqual(t, diff, -2, "round %d: player %d colour difference %d", r, p.ID, diff)
		require.Less(t, run, 3, "round %d: player %d has the same colour three times", r, p.ID)
	}
}

func TestPropertiesOnGeneratedTournaments(t *testing.T) {
	n := 40
	if testing.Short() {
		n = 8
	}
	if pairing.RaceEnabled {
		n = 6
	}
	for seed := uint64(1); seed <= uint64(n); seed++ {
		cfg := generate.DefaultConfig()
		cfg.Players = 9 + int(seed*7)%50
		cfg.Rounds = 5 + int(seed)%5
		cfg.ForfeitRate, cfg.RetiredRate, cfg.HalfPointByeRate, cfg.ZeroPointByeRate = 15, 60, 20, 40
		tour, err := generate.Tournament(cfg, seed)
		var nv *pairing.NoValidPairingError
		if err != nil {
			require.ErrorAs(t, err, &nv, "seed %d", seed)
			continue
		}
		for r := 1; r <= tour.Rounds; r++ {
			checkRound(t, tour, r)
		}
		// Determinism: pairing the same history again gives the same round.
		r := 1 + int(seed)%tour.Rounds
		before := pairing.BeforeRound(tour, r)
		a, err := pairing.Pair(before, pairing.Options{Round: r})
		require.NoError(t, err)
		b, err := pairing.Pair(before, pairing.Options{Round: r})
		require.NoError(t, err)
		require.Equal(t, a, b)
		require.True(t, pairing.Same(a, pairing.Played(tour, r)), "seed %d round %d", seed, r)
	}
}
