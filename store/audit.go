package store

import (
	"errors"
	"fmt"

	bolt "go.etcd.io/bbolt"
)

// groupScan bounds how far back AddAlert looks for an open alert of the
// same cause.
const groupScan = 1000

// AddAlert stores an alert for the human arbiter and sets its ID. An open
// alert of the same kind about the same table, game, tournament and item
// (a port) takes it instead: its count goes up and its message, evidence
// and time become the newest, so that a cause repeated many times is one
// alert.
func (db *DB) AddAlert(a *Alert) error {
	if a.Count == 0 {
		a.Count = 1
	}
	if a.Last.IsZero() {
		a.Last = a.At
	}
	return db.update(func(tx *bolt.Tx) error {
		b := tx.Bucket(bucketAlerts)
		c := b.Cursor()
		n := 0
		for k, v := c.Last(); k != nil && n < groupScan; k, v = c.Prev() {
			n++
			var old Alert
			if err := decodeInto(locAlerts, k, v, &old); err != nil {
				return err
			}
			if old.Resolved || old.Kind != a.Kind || old.GameID != a.GameID || old.BoardID != a.BoardID || old.Tournament != a.Tournament || old.Item != a.Item {
				continue
			}
			old.Count += max(a.Count, 1)
			old.Message, old.Evidence, old.Last = a.Message, a.Evidence, a.Last
			if a.Where != "" {
				old.Where = a.Where
			}
			if a.Advice != "" {
				old.Advice = a.Advice
			}
			*a = old
			return put(b, k, &old)
		}
		id, err := b.NextSequence()
		if err != nil {
			return err
		}
		a.ID = id
		return put(b, u64key(id), a)
	})
}

// Alerts returns every alert in ID order; with openOnly, only unresolved
// ones.
func (db *DB) Alerts(openOnly bool) ([]Alert, error) {
	var as []Alert
	err := db.bolt.View(func(tx *bolt.Tx) error {
		all, err := list[Alert](tx.Bucket(bucketAlerts), locAlerts, nil)
		for _, a := range all {
			if !openOnly || !a.Resolved {
				as = append(as, a)
			}
		}
		return err
	})
	return as, err
}

// ResolveAlert marks an alert resolved by the given arbiter action, stored
// in the same transaction.
func (db *DB) ResolveAlert(alertID uint64, a *Action) error {
	return db.ResolveAlerts([]uint64{alertID}, a)
}

// ResolveAlerts marks several alerts resolved by one arbiter action,
// stored in the same transaction: all of them or, on an error, none.
func (db *DB) ResolveAlerts(ids []uint64, a *Action) error {
	if a == nil || a.Who == "" {
		return fmt.Errorf("resolve alerts %v: an action with who is required", ids)
	}
	if len(ids) == 0 {
		return errors.New("resolve alerts: no alert given")
	}
	return db.update(func(tx *bolt.Tx) error { return resolveAlerts(tx, ids, a) })
}

// resolveAlerts marks the alerts ids resolved by a, stored first.
func resolveAlerts(tx *bolt.Tx, ids []uint64, a *Action) error {
	b := tx.Bucket(bucketAlerts)
	als := make([]Alert, len(ids))
	for i, id := range ids {
		if err := get(b, locAlerts, u64key(id), &als[i]); err != nil {
			return fmt.Errorf("alert %d: %w", id, err)
		}
		if als[i].Resolved {
			return fmt.Errorf("alert %d is already resolved", id)
		}
	}
	if len(ids) == 1 && als[0].GameID != 0 && a.GameID == 0 {
		a.GameID = als[0].GameID
	}
	if a.What == "" {
		a.What = "resolve-alert"
	}
	if err := addAction(tx, a); err != nil {
		return err
	}
	for i := range als {
		als[i].Resolved, als[i].Resolution = true, a.ID
		if err := put(b, u64key(ids[i]), &als[i]); err != nil {
			return err
		}
	}
	return nil
}

// Settlement resolves a tournament's open alerts of one kind, as part of
// a change that settles them (a round paired, the tournament ended).
type Settlement struct {
	// Kind is the kind of the tournament's open alerts to resolve.
	Kind string
	// By is the action that resolves them, stored only if one is open.
	By *Action
}

// settle resolves tournament id's open alerts of kind s.Kind by s.By; s
// may be nil.
func settle(tx *bolt.Tx, id uint64, s *Settlement) error {
	if s == nil {
		return nil
	}
	if s.By == nil || s.By.Who == "" {
		return fmt.Errorf("settle %s alerts: an action with who is required", s.Kind)
	}
	all, err := list[Alert](tx.Bucket(bucketAlerts), locAlerts, nil)
	var ids []uint64
	for _, a := range all {
		if !a.Resolved && a.Tournament == id && a.Kind == s.Kind {
			ids = append(ids, a.ID)
		}
	}
	if err != nil || len(ids) == 0 {
		return err
	}
	return resolveAlerts(tx, ids, s.By)
}

// AddAction stores an arbiter action and sets its ID. It returns after the
// commit, so the action may then be acknowledged.
func (db *DB) AddAction(a *Action) error {
	if a.Who == "" || a.What == "" {
		return fmt.Errorf("action: who and what are required")
	}
	return db.update(func(tx *bolt.Tx) error { return addAction(tx, a) })
}

func addAction(tx *bolt.Tx, a *Action) error {
	b := tx.Bucket(bucketActions)
	id, err := b.NextSequence()
	if err != nil {
		return err
	}
	a.ID = id
	return put(b, u64key(id), a)
}

// Actions returns every arbiter action in order; with gameID non-zero,
// only that game's.
func (db *DB) Actions(gameID uint64) ([]Action, error) {
	var as []Action
	err := db.bolt.View(func(tx *bolt.Tx) error {
		all, err := list[Action](tx.Bucket(bucketActions), locActions, nil)
		for _, a := range all {
			if gameID == 0 || a.GameID == gameID {
				as = append(as, a)
			}
		}
		return err
	})
	return as, err
}
