package director_test

import (
	"context"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arbiter/board"
	"arbiter/director"
	"arbiter/rules"
	"arbiter/store"
)

// writes returns how many write transactions f made on db.
func writes(t *testing.T, db *store.DB, f func() error) int {
	t.Helper()
	var n atomic.Int32
	db.InjectWriteFault(func() error { n.Add(1); return nil })
	defer db.InjectWriteFault(nil)
	require.NoError(t, f())
	return int(n.Load())
}

// handEvent is a Swiss of four players and four rounds paired on the
// arbiter's command.
func handEvent(t *testing.T) (context.Context, *director.Director, *store.DB, uint64) {
	t.Helper()
	cfg := eventConfig(t, "swiss-dutch", 4, 4)
	cfg.Tournaments[0].AutoPair = false
	d, db := newEventFrom(t, cfg)
	return run(t, d), d, db, d.TournamentIDs()[0]
}

// blockedByHand plays rounds 1 to 3 of handEvent: round 4 cannot be
// paired, and the arbiter is told so.
func blockedByHand(t *testing.T) (context.Context, *director.Director, *store.DB, uint64) {
	t.Helper()
	ctx, d, db, id := handEvent(t)
	for n := 1; n <= 3; n++ {
		require.NoError(t, d.PairNextRound(ctx, id, "chief", "round "+string(rune('0'+n))))
		finishRound(t, ctx, d, waitRound(t, db, id, n))
	}
	require.Error(t, d.PairNextRound(ctx, id, "chief", "round 4"))
	require.NotEmpty(t, d.Blocked(id))
	return ctx, d, db, id
}

// Every story of the arbiter's writes what it changes and the action
// that audits it in one transaction: a crash keeps all of it or none.
func TestEachStoryIsOneTransaction(t *testing.T) {
	for _, c := range []struct {
		name  string
		story func(t *testing.T) (*store.DB, func() error)
	}{
		{"entry", func(t *testing.T) (*store.DB, func() error) {
			_, d, db, id := handEvent(t)
			return db, func() error {
				_, err := d.AddPlayer(id, director.NewPlayer{Name: "Late Entrant", Rating: 1500}, "chief", "arrived")
				return err
			}
		}},
		{"bye", func(t *testing.T) (*store.DB, func() error) {
			_, d, db, id := handEvent(t)
			return db, func() error { return d.RequestBye(id, 2, 2, director.ResultZeroBye, "chief", "asked") }
		}},
		{"withdrawal", func(t *testing.T) (*store.DB, func() error) {
			_, d, db, id := handEvent(t)
			return db, func() error { return d.Withdraw(context.Background(), id, 3, false, "chief", "ill") }
		}},
		{"readmission", func(t *testing.T) (*store.DB, func() error) {
			ctx, d, db, id := handEvent(t)
			require.NoError(t, d.Withdraw(ctx, id, 3, false, "chief", "ill"))
			return db, func() error { return d.Readmit(id, 3, "chief", "well again") }
		}},
		{"round time control", func(t *testing.T) (*store.DB, func() error) {
			_, d, db, id := handEvent(t)
			return db, func() error { return d.SetRoundTimeControl(id, 3, "3m+2s", "chief", "blitz finish") }
		}},
		{"acceleration", func(t *testing.T) (*store.DB, func() error) {
			_, d, db, id := handEvent(t)
			return db, func() error { return d.SetAccelerated(id, "baku", "chief", "many players") }
		}},
		{"moves from the scoresheet", func(t *testing.T) (*store.DB, func() error) {
			ctx, d, db, id := handEvent(t)
			require.NoError(t, d.PairNextRound(ctx, id, "chief", "round 1"))
			g := waitRound(t, db, id, 1).Pairings[0].GameID
			return db, func() error {
				_, err := d.EnterMoves(g, "1. e4 e5 2. Nf3 Nc6", "chief", "scoresheet")
				return err
			}
		}},
		{"result corrected", func(t *testing.T) (*store.DB, func() error) {
			ctx, d, db, id := handEvent(t)
			require.NoError(t, d.PairNextRound(ctx, id, "chief", "round 1"))
			g := waitRound(t, db, id, 1).Pairings[0].GameID
			require.NoError(t, d.SetResult(ctx, g, rules.Draw(rules.Agreement), "chief", "scoresheet"))
			return db, func() error {
				return d.CorrectResult(ctx, g, rules.Win(rules.First, rules.ArbiterDecision), "chief", "misread")
			}
		}},
		{"tournament ended and its alert settled", func(t *testing.T) (*store.DB, func() error) {
			_, d, db, id := blockedByHand(t)
			return db, func() error { return d.EndTournament(id, "chief", "no fourth round") }
		}},
		{"round paired by hand and its alert settled", func(t *testing.T) (*store.DB, func() error) {
			ctx, d, db, id := blockedByHand(t)
			boards, err := director.ParseManual("1 - 2\n3 - 4")
			require.NoError(t, err)
			return db, func() error { return d.PairByHand(ctx, id, boards, "chief", "organiser's decision") }
		}},
		{"waiting game started", func(t *testing.T) (*store.DB, func() error) {
			d, db := newEvent(t, "swiss-dutch", 4, 2)
			id := d.TournamentIDs()[0]
			tbl, err := d.AddTable(id, "B1")
			require.NoError(t, err)
			d.BoardEvent(context.Background(), board.Event{Kind: board.EventHello, Board: "B1", Info: &board.Info{ID: "B1"}})
			d.BoardEvent(context.Background(), board.Event{Kind: board.EventHealth, Board: "B1", Health: board.NotResponding})
			ctx := run(t, d)
			waitRound(t, db, id, 1)
			require.Eventually(t, func() bool { a, err := db.Alerts(true); return err == nil && len(a) == 1 }, 5*time.Second, 5*time.Millisecond)
			require.Zero(t, tbl.Live().GameID)
			return db, func() error { return d.StartWaiting(ctx, "B1", "chief", "the board's cable is being replaced") }
		}},
		{"handicap", func(t *testing.T) (*store.DB, func() error) {
			g := newBoardGame(t, "shogi", "")
			return g.db, func() error { return g.d.SetHandicap(g.ctx, g.id, "lance", "chief", "teaching game") }
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			db, story := c.story(t)
			assert.Equal(t, 1, writes(t, db, story))
		})
	}
}

// An open no-pairing alert is settled with the change that settles it.
func TestEndTournamentSettlesItsAlert(t *testing.T) {
	_, d, db, id := blockedByHand(t)
	open, err := db.Alerts(true)
	require.NoError(t, err)
	require.Len(t, open, 1)
	require.NoError(t, d.EndTournament(id, "chief", "no fourth round"))
	open, err = db.Alerts(true)
	require.NoError(t, err)
	assert.Empty(t, open)
	acts := actionsOf(t, db, "resolve-alert")
	require.Len(t, acts, 1)
	assert.Equal(t, "the tournament was ended", acts[0].Why)
	assert.Greater(t, acts[0].ID, actionsOf(t, db, "end-tournament")[0].ID)
}

// A no-show's forfeit is the result with its action, then the player's
// absence with its own: two transactions, each whole.
func TestNoShowIsTwoWholeTransactions(t *testing.T) {
	ctx, d, db, id := handEvent(t)
	require.NoError(t, d.PairNextRound(ctx, id, "chief", "round 1"))
	p := waitRound(t, db, id, 1).Pairings[0]
	assert.Equal(t, 2, writes(t, db, func() error {
		return d.SetResult(ctx, p.GameID, rules.Win(rules.First, rules.Forfeit), "chief", "did not appear")
	}))
	ps, err := db.Players(id)
	require.NoError(t, err)
	assert.True(t, ps[p.Second-1].Absent)
	require.Len(t, actionsOf(t, db, "absent"), 1)
}
