package store

import (
	"fmt"

	bolt "go.etcd.io/bbolt"
)

// AddAlert stores an alert for the human arbiter and sets its ID.
func (db *DB) AddAlert(a *Alert) error {
	return db.update(func(tx *bolt.Tx) error {
		b := tx.Bucket(bucketAlerts)
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
		all, err := list[Alert](tx.Bucket(bucketAlerts), nil)
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
	if a == nil || a.Who == "" {
		return fmt.Errorf("resolve alert %d: an action with who is required", alertID)
	}
	return db.update(func(tx *bolt.Tx) error {
		b := tx.Bucket(bucketAlerts)
		var al Alert
		if err := get(b, u64key(alertID), &al); err != nil {
			return fmt.Errorf("alert %d: %w", alertID, err)
		}
		if al.GameID != 0 && a.GameID == 0 {
			a.GameID = al.GameID
		}
		if err := addAction(tx, a); err != nil {
			return err
		}
		al.Resolved, al.Resolution = true, a.ID
		return put(b, u64key(alertID), &al)
	})
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
		all, err := list[Action](tx.Bucket(bucketActions), nil)
		for _, a := range all {
			if gameID == 0 || a.GameID == gameID {
				as = append(as, a)
			}
		}
		return err
	})
	return as, err
}
