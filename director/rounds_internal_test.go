package director

import (
	"context"
	"io"
	"log/slog"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	_ "arbiter/rules/chess"
	"arbiter/store"
)

// swiss is a director of a Swiss of n players, not running.
func swiss(t *testing.T, n int) (*Director, *store.DB, uint64) {
	t.Helper()
	db, err := store.Open(filepath.Join(t.TempDir(), "event.db"), nil)
	require.NoError(t, err)
	t.Cleanup(func() { db.Close() })
	tc := Tournament{Name: "Swiss", Game: "chess", System: "swiss-dutch", Rounds: 3, TimeControl: "5m+3s"}
	for i := range n {
		tc.Players = append(tc.Players, store.Player{Name: string(rune('A' + i)), Rating: 2000 - 10*i})
	}
	d, err := New(Config{Tournaments: []Tournament{tc}}, db, slog.New(slog.NewTextHandler(io.Discard, nil)))
	require.NoError(t, err)
	return d, db, d.TournamentIDs()[0]
}

// The round is paired outside the director's lock: board events, the
// console and the tables go on meanwhile.
func TestPairingOutsideTheLock(t *testing.T) {
	d, db, id := swiss(t, 4)
	free := false
	err := d.newRound(context.Background(), id, "pair-round", "auto", "", func(tr *tour, st *store.TournamentState, number int) (*plan, error) {
		if d.mu.TryLock() {
			free = true
			d.mu.Unlock()
		}
		return d.pair(tr, st, number, 0)
	})
	require.NoError(t, err)
	assert.True(t, free, "the director's lock was held while the round was paired")
	rs, err := db.Rounds(id)
	require.NoError(t, err)
	assert.Len(t, rs, 1)
}

// A late entry made while the round is being paired: the round paired
// without the player is not stored (the store sees the change), and the
// round is paired again with them.
func TestRoundPairedAgainAfterAChange(t *testing.T) {
	d, db, id := swiss(t, 4)
	plans := 0
	err := d.newRound(context.Background(), id, "pair-round", "auto", "", func(tr *tour, st *store.TournamentState, number int) (*plan, error) {
		plans++
		if plans == 1 {
			_, err := d.AddPlayer(id, NewPlayer{Name: "Late", Rating: 1500}, "chief", "arrived at the last minute")
			require.NoError(t, err)
		}
		return d.pair(tr, st, number, 0)
	})
	require.NoError(t, err)
	assert.Equal(t, 2, plans, "paired again once")
	rs, err := db.Rounds(id)
	require.NoError(t, err)
	require.Len(t, rs, 1)
	var paired []int
	for _, p := range rs[0].Pairings {
		paired = append(paired, p.First)
		if p.Second != 0 {
			paired = append(paired, p.Second)
		}
	}
	assert.ElementsMatch(t, []int{1, 2, 3, 4, 5}, paired, "the late entry is in the round")
	gs, err := db.Games()
	require.NoError(t, err)
	assert.Len(t, gs, 2, "nothing of the first pairing is stored")
	acts, err := db.Actions(0)
	require.NoError(t, err)
	var whats []string
	for _, a := range acts {
		whats = append(whats, a.What)
	}
	assert.Equal(t, []string{"add-player", "pair-round"}, whats)

	// A tournament that keeps changing under the pairing is not paired.
	plans = 0
	finish := func() {
		for _, p := range rs[0].Pairings {
			if p.GameID != 0 {
				require.NoError(t, db.SetResult(p.GameID, "1-0", "resignation", d.wall(), nil))
			}
		}
	}
	finish()
	err = d.newRound(context.Background(), id, "pair-round", "auto", "", func(tr *tour, st *store.TournamentState, number int) (*plan, error) {
		plans++
		_, err := d.AddPlayer(id, NewPlayer{Name: "Later " + string(rune('0'+plans)), Rating: 1400}, "chief", "late")
		require.NoError(t, err)
		return d.pair(tr, st, number, 0)
	})
	require.ErrorIs(t, err, store.ErrStale)
	assert.Equal(t, repairs, plans)
	rs, err = db.Rounds(id)
	require.NoError(t, err)
	assert.Len(t, rs, 1, "round 2 is not stored")
}
