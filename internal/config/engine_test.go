package config_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arbiter/internal/config"
	"arbiter/pairing"
	"arbiter/pairing/generate"
	"arbiter/pairing/trf"
)

// swiss is a configuration of one Swiss of n players and the given rounds.
func swiss(n, rounds int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "event:\n  name: x\ntournaments:\n  - name: T\n    game: shogi\n    system: swiss-dutch\n    rounds: %d\n    players:\n", rounds)
	for i := range n {
		fmt.Fprintf(&b, "      - {name: P%d}\n", i+1)
	}
	return b.String()
}

// The rule of the warnings checked against the pairing engine: a Swiss
// the configuration accepts without a warning is paired to its end by
// pairing/generate whatever the results (sampled), and the warned six
// players in four rounds do get stuck.
func TestFeasibilityAgreesWithThePairingEngine(t *testing.T) {
	seeds := uint64(20)
	if testing.Short() {
		seeds = 4
	}
	for n := 2; n <= 12; n++ {
		// The most rounds accepted without a word.
		rounds := 0
		for r := 1; r < n+n%2; r++ {
			c, err := config.Parse([]byte(swiss(n, r)), "t.yaml", nil)
			require.NoError(t, err, "%d players, %d rounds", n, r)
			if len(c.Warnings()) > 0 {
				break
			}
			rounds = r
		}
		require.Positive(t, rounds)
		for seed := uint64(1); seed <= seeds; seed++ {
			cfg := generate.DefaultConfig()
			cfg.Players, cfg.Rounds = n, rounds
			_, err := generate.Tournament(cfg, seed)
			assert.NoError(t, err, "%d players, %d rounds, seed %d: accepted without a warning but stuck", n, rounds, seed)
		}
	}

	stuck := 0
	for seed := uint64(1); seed <= 100 && stuck == 0; seed++ {
		cfg := generate.DefaultConfig()
		cfg.Players, cfg.Rounds = 6, 4
		if _, err := generate.Tournament(cfg, seed); err != nil {
			stuck++
		}
	}
	assert.Positive(t, stuck, "six players in four rounds never got stuck")
}

// The example of the warning: six players in two groups of three, each
// having met the whole other group, cannot be paired a fourth time.
func TestTwoGroupsOfThreeCannotPlayAFourthRound(t *testing.T) {
	tr := &trf.Tournament{Rounds: 4, InitialColour: 'w', Scoring: trf.DefaultScoring}
	for id := 1; id <= 6; id++ {
		tr.Players = append(tr.Players, trf.Player{ID: id, Name: fmt.Sprintf("P%d", id), Rating: 2100 - 10*id})
	}
	// Round r: player i of {1,2,3} meets player 4+(i+r)%3 of {4,5,6}.
	for r := range 3 {
		for i := range 3 {
			a, b := i+1, 4+(i+r)%3
			ca, cb := byte('w'), byte('b')
			if (i+r)%2 == 1 {
				ca, cb = cb, ca
			}
			tr.Players[a-1].Games = append(tr.Players[a-1].Games, trf.Game{Opponent: b, Colour: ca, Result: '='})
			tr.Players[b-1].Games = append(tr.Players[b-1].Games, trf.Game{Opponent: a, Colour: cb, Result: '='})
			tr.Players[a-1].Points += 0.5
			tr.Players[b-1].Points += 0.5
		}
	}
	_, err := pairing.Pair(tr, pairing.Options{Round: 4})
	var nv *pairing.NoValidPairingError
	require.True(t, errors.As(err, &nv), "round 4 was paired: %v", err)
	t.Log(nv.Reason)

	// And the configuration says so.
	c, err := config.Parse([]byte(swiss(6, 4)), "t.yaml", nil)
	require.NoError(t, err)
	require.Len(t, c.Warnings(), 1)
	assert.Contains(t, c.Warnings()[0].String(), "leave none for round 4 (when the players split into groups of 3 and 3")
}
