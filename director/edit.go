package director

import (
	"fmt"

	"arbiter/store"
)

// edit changes tournament id as f decides from the tournament, its
// players and its rounds as stored, under the director's lock: f fills in
// e (the tournament's new record, the players added or changed, the
// alerts it settles) and returns the action's data. The change and the
// action what, by who for why, are stored in one transaction, and the
// tournament's new record is then kept for the running event; nothing
// changes if f fails. f runs inside the store's write transaction: it
// must not use the store.
func (d *Director) edit(id uint64, what, who, why string, f func(tr *tour, st *store.TournamentState, e *store.TournamentEdit) (string, error)) error {
	tr := d.tour(id)
	if tr == nil {
		return fmt.Errorf("tournament %d: %w", id, store.ErrNotFound)
	}
	if err := d.keptElsewhere(what); err != nil {
		return err
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	var e store.TournamentEdit
	err := d.db.EditTournament(id, func(st *store.TournamentState) (*store.TournamentEdit, error) {
		e = store.TournamentEdit{}
		data, err := f(tr, st, &e)
		if err != nil {
			return nil, err
		}
		e.Action = &store.Action{Who: who, What: what, Why: why, Data: data, At: d.wall()}
		return &e, nil
	})
	if err == nil && e.Tournament != nil {
		tr.rec = *e.Tournament
	}
	return err
}
