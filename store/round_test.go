package store_test

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arbiter/store"
)

// roundEvent stores a tournament of four players.
func roundEvent(t *testing.T) (*store.DB, store.Tournament) {
	t.Helper()
	db, _ := openTemp(t)
	tr := store.Tournament{Name: "Open", Game: "chess", System: "round-robin", Rounds: 3, Created: wall}
	require.NoError(t, db.CreateTournament(&tr))
	for i := 1; i <= 4; i++ {
		require.NoError(t, db.PutPlayer(&store.Player{TournamentID: tr.ID, ID: i, Name: string(rune('A' + i - 1))}))
	}
	return db, tr
}

func newRound(st store.TournamentState, number int) *store.NewRound {
	id := st.Tournament.ID
	nr := &store.NewRound{
		Round: store.Round{TournamentID: id, Number: number, PairedAt: wall, Pairings: []store.Pairing{
			{Board: 1, First: 1, Second: 4}, {Board: 2, First: 2, Second: 3}, {Board: 3, First: 5, Result: "bye"}}},
		Games: []*store.Game{
			{TournamentID: id, Round: number, BoardNo: 1, Game: "chess", First: "A", Second: "D", FirstID: 1, SecondID: 4, Started: wall},
			{TournamentID: id, Round: number, BoardNo: 2, Game: "chess", First: "B", Second: "C", FirstID: 2, SecondID: 3, Started: wall,
				Result: "1-0", Reason: "forfeit", Ended: wall},
		},
		Paired:  &store.Action{Who: "auto", What: "pair-round", Why: "the previous round is complete", At: wall},
		Decided: map[int]*store.Action{1: {Who: "auto", What: "set-result", Why: "a player is withdrawn or absent", Data: "1-0 forfeit", At: wall}},
		From:    st.Digest,
	}
	return nr
}

// A round is stored whole in one transaction: its games with their IDs on
// the pairings, the forfeit's result on its pairing, the pairing's action
// and the forfeit's.
func TestCreateRound(t *testing.T) {
	db, tr := roundEvent(t)
	st, err := db.TournamentState(tr.ID)
	require.NoError(t, err)
	require.Len(t, st.Players, 4)
	assert.Empty(t, st.Rounds)
	nr := newRound(st, 1)
	require.NoError(t, db.CreateRound(nr))

	rs, err := db.Rounds(tr.ID)
	require.NoError(t, err)
	require.Len(t, rs, 1)
	ps := rs[0].Pairings
	assert.Equal(t, []store.Pairing{
		{Board: 1, First: 1, Second: 4, GameID: 1}, {Board: 2, First: 2, Second: 3, GameID: 2, Result: "+/-"}, {Board: 3, First: 5, Result: "bye"}}, ps)
	g, err := db.Game(2)
	require.NoError(t, err)
	assert.Equal(t, "1-0", g.Result)
	assert.Equal(t, "forfeit", g.Reason)
	ms, err := db.Moves(2)
	require.NoError(t, err)
	assert.Empty(t, ms, "a game's move bucket is made with it")
	acts, err := db.Actions(0)
	require.NoError(t, err)
	require.Len(t, acts, 2)
	assert.Equal(t, "pair-round", acts[0].What)
	assert.Equal(t, "set-result", acts[1].What)
	assert.Equal(t, uint64(2), acts[1].GameID)
	require.NoError(t, db.Check())

	// The same round again is refused: it was paired from a tournament
	// that has changed (by the round itself).
	again := newRound(st, 1)
	require.ErrorIs(t, db.CreateRound(again), store.ErrStale)
	st2, err := db.TournamentState(tr.ID)
	require.NoError(t, err)
	again = newRound(st2, 1)
	require.ErrorIs(t, db.CreateRound(again), store.ErrStale, "round 1 is stored already")
	gs, err := db.Games()
	require.NoError(t, err)
	assert.Len(t, gs, 2, "nothing of a refused round is stored")
}

// A round paired from a tournament that changed meanwhile (a late entry,
// a result, a withdrawal) is refused, and nothing of it is stored.
func TestCreateRoundRefusesStaleState(t *testing.T) {
	for _, c := range []struct {
		name   string
		change func(db *store.DB, tr store.Tournament) error
	}{
		{"late entry", func(db *store.DB, tr store.Tournament) error {
			return db.PutPlayer(&store.Player{TournamentID: tr.ID, ID: 5, Name: "E"})
		}},
		{"withdrawal", func(db *store.DB, tr store.Tournament) error {
			return db.PutPlayer(&store.Player{TournamentID: tr.ID, ID: 2, Name: "B", Withdrawn: true, WithdrawnFrom: 1})
		}},
		{"tournament", func(db *store.DB, tr store.Tournament) error {
			tr.EndedAfter = 0
			tr.Accelerated = "baku"
			return db.UpdateTournament(&tr)
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			db, tr := roundEvent(t)
			st, err := db.TournamentState(tr.ID)
			require.NoError(t, err)
			require.NoError(t, c.change(db, tr))
			err = db.CreateRound(newRound(st, 1))
			require.ErrorIs(t, err, store.ErrStale)
			rs, err := db.Rounds(tr.ID)
			require.NoError(t, err)
			assert.Empty(t, rs)
			gs, err := db.Games()
			require.NoError(t, err)
			assert.Empty(t, gs)
			acts, err := db.Actions(0)
			require.NoError(t, err)
			assert.Empty(t, acts)
		})
	}
}

// A round whose commit fails (the disk refuses it) leaves nothing.
func TestCreateRoundAllOrNothing(t *testing.T) {
	db, tr := roundEvent(t)
	st, err := db.TournamentState(tr.ID)
	require.NoError(t, err)
	boom := errors.New("disk full")
	db.InjectWriteFault(func() error { return boom })
	require.ErrorIs(t, db.CreateRound(newRound(st, 1)), boom)
	db.InjectWriteFault(nil)
	gs, err := db.Games()
	require.NoError(t, err)
	assert.Empty(t, gs)
	nr := newRound(st, 2)
	err = db.CreateRound(nr)
	require.Error(t, err, "round 2 before round 1")
	assert.Contains(t, err.Error(), "round 1 is not stored")
	require.NoError(t, db.CreateRound(newRound(st, 1)))
}

// A round that settles the tournament's alerts resolves them in its own
// transaction, after its pairing's and forfeits' actions.
func TestCreateRoundSettlesAlerts(t *testing.T) {
	db, tr := roundEvent(t)
	a := store.Alert{Tournament: tr.ID, Kind: "no-pairing", Message: "round 1 cannot be paired", At: wall}
	require.NoError(t, db.AddAlert(&a))
	st, err := db.TournamentState(tr.ID)
	require.NoError(t, err)
	nr := newRound(st, 1)
	nr.Settles = &store.Settlement{Kind: "no-pairing", By: &store.Action{Who: "chief", Why: "round 1 was paired (pair-round-manual)", At: wall}}
	require.NoError(t, db.CreateRound(nr))
	acts, err := db.Actions(0)
	require.NoError(t, err)
	require.Len(t, acts, 3)
	assert.Equal(t, []string{"pair-round", "set-result", "resolve-alert"}, []string{acts[0].What, acts[1].What, acts[2].What})
	open, err := db.Alerts(true)
	require.NoError(t, err)
	assert.Empty(t, open)
}
