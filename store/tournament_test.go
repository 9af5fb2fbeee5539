package store_test

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arbiter/store"
)

// An edit of a tournament stores its record, the players it adds or
// changes and its action in one transaction, from the state f is given.
func TestEditTournament(t *testing.T) {
	db, tr := roundEvent(t)
	require.NoError(t, db.EditTournament(tr.ID, func(st *store.TournamentState) (*store.TournamentEdit, error) {
		require.Len(t, st.Players, 4)
		rec := st.Tournament
		rec.Accelerated = "baku"
		p := st.Players[1]
		p.Withdrawn, p.WithdrawnFrom = true, 1
		late := &store.Player{TournamentID: tr.ID, ID: len(st.Players) + 1, Name: "E"}
		return &store.TournamentEdit{Tournament: &rec, Players: []*store.Player{&p, late},
			Action: &store.Action{Who: "chief", What: "edit", Why: "test", At: wall}}, nil
	}))
	got, err := db.Tournament(tr.ID)
	require.NoError(t, err)
	assert.Equal(t, "baku", got.Accelerated)
	ps, err := db.Players(tr.ID)
	require.NoError(t, err)
	require.Len(t, ps, 5)
	assert.True(t, ps[1].Withdrawn)
	assert.Equal(t, "E", ps[4].Name)
	acts, err := db.Actions(0)
	require.NoError(t, err)
	require.Len(t, acts, 1)
	assert.Equal(t, "edit", acts[0].What)
}

// Nothing of an edit is stored when f refuses it, when a part of it is
// wrong, or when the disk refuses the commit.
func TestEditTournamentAllOrNothing(t *testing.T) {
	db, tr := roundEvent(t)
	refused := errors.New("refused")
	boom := errors.New("disk full")
	act := func() *store.Action { return &store.Action{Who: "chief", What: "edit", At: wall} }
	for _, c := range []struct {
		name  string
		fault error
		edit  func(st *store.TournamentState) (*store.TournamentEdit, error)
		want  string
	}{
		{"f refuses", nil, func(*store.TournamentState) (*store.TournamentEdit, error) { return nil, refused }, "refused"},
		{"no action", nil, func(st *store.TournamentState) (*store.TournamentEdit, error) {
			return &store.TournamentEdit{Tournament: &st.Tournament}, nil
		}, "an action with who and what is required"},
		{"a player of no start number", nil, func(st *store.TournamentState) (*store.TournamentEdit, error) {
			rec := st.Tournament
			rec.Accelerated = "baku"
			return &store.TournamentEdit{Tournament: &rec, Players: []*store.Player{{TournamentID: tr.ID, Name: "E"}}, Action: act()}, nil
		}, "start number 0"},
		{"another tournament's player", nil, func(st *store.TournamentState) (*store.TournamentEdit, error) {
			return &store.TournamentEdit{Players: []*store.Player{{TournamentID: tr.ID + 1, ID: 5, Name: "E"}}, Action: act()}, nil
		}, "of tournament 2"},
		{"another tournament's record", nil, func(st *store.TournamentState) (*store.TournamentEdit, error) {
			rec := st.Tournament
			rec.ID++
			return &store.TournamentEdit{Tournament: &rec, Action: act()}, nil
		}, "the record of tournament 2"},
		{"the disk", boom, func(st *store.TournamentState) (*store.TournamentEdit, error) {
			rec := st.Tournament
			rec.Accelerated = "baku"
			return &store.TournamentEdit{Tournament: &rec, Action: act()}, nil
		}, "disk full"},
	} {
		t.Run(c.name, func(t *testing.T) {
			if c.fault != nil {
				db.InjectWriteFault(func() error { return c.fault })
				defer db.InjectWriteFault(nil)
			}
			err := db.EditTournament(tr.ID, c.edit)
			require.ErrorContains(t, err, c.want)
			db.InjectWriteFault(nil)
			got, err := db.Tournament(tr.ID)
			require.NoError(t, err)
			assert.Equal(t, tr, got)
			ps, err := db.Players(tr.ID)
			require.NoError(t, err)
			assert.Len(t, ps, 4)
			acts, err := db.Actions(0)
			require.NoError(t, err)
			assert.Empty(t, acts)
		})
	}
	require.ErrorIs(t, db.EditTournament(99, func(*store.TournamentState) (*store.TournamentEdit, error) {
		t.Fatal("f runs for no tournament")
		return nil, nil
	}), store.ErrNotFound)
}

// An edit that settles a tournament's alerts resolves its open alerts of
// that kind, and only those, by an action stored after the edit's; with
// none open, no resolution is stored.
func TestEditTournamentSettlesAlerts(t *testing.T) {
	db, tr := roundEvent(t)
	alerts := []store.Alert{
		{Tournament: tr.ID, Kind: "no-pairing", Message: "round 2 cannot be paired", At: wall},
		{Tournament: tr.ID, Kind: "other", Message: "something else", At: wall},
		{Tournament: tr.ID + 1, Kind: "no-pairing", Message: "another tournament's", At: wall},
	}
	for i := range alerts {
		require.NoError(t, db.AddAlert(&alerts[i]))
	}
	end := func(st *store.TournamentState) (*store.TournamentEdit, error) {
		rec := st.Tournament
		rec.EndedAfter = 1
		return &store.TournamentEdit{Tournament: &rec, Action: &store.Action{Who: "chief", What: "end-tournament", At: wall},
			Settles: &store.Settlement{Kind: "no-pairing", By: &store.Action{Who: "chief", Why: "the tournament was ended", At: wall}}}, nil
	}
	require.NoError(t, db.EditTournament(tr.ID, end))
	acts, err := db.Actions(0)
	require.NoError(t, err)
	require.Len(t, acts, 2)
	assert.Equal(t, "end-tournament", acts[0].What)
	assert.Equal(t, "resolve-alert", acts[1].What)
	open, err := db.Alerts(true)
	require.NoError(t, err)
	require.Len(t, open, 2)
	assert.Equal(t, []uint64{2, 3}, []uint64{open[0].ID, open[1].ID})
	all, err := db.Alerts(false)
	require.NoError(t, err)
	assert.Equal(t, acts[1].ID, all[0].Resolution)

	require.NoError(t, db.EditTournament(tr.ID, end))
	acts, err = db.Actions(0)
	require.NoError(t, err)
	assert.Len(t, acts, 3, "nothing left to settle: no resolution")
}
