package store

import (
	"encoding/binary"
	"errors"
	"fmt"
	"strings"

	bolt "go.etcd.io/bbolt"
)

// Buckets of a federation's hub for the halls' alerts and actions,
// created on first use:
//
//	inbox-alerts   <hall>\x00<hall alert id>  -> hub alert id
//	inbox-actions  <hall>\x00<hall action id> -> hub action id
var (
	bucketInboxAlerts  = []byte("inbox-alerts")
	bucketInboxActions = []byte("inbox-actions")
)

// HallAlert links a hall's alert to its copy in the hub's store.
type HallAlert struct {
	Hall   string
	HallID uint64
	HubID  uint64
}

// Alert stores, on the hub, the present state of a hall's alert: the
// first time as a new alert (its board named with the hall, its game the
// hub's game gameID, 0 if none), then by updating that alert's count,
// message, evidence and time. An alert the hall resolved is resolved on
// the hub too, without an action (the hall's action comes as its own
// fact). It returns the hub's ID of the alert.
func (t *ImportTx) Alert(hall string, a Alert, gameID uint64) (uint64, error) {
	if hall == "" || strings.ContainsRune(hall, 0) {
		return 0, fmt.Errorf("import alert %d: bad hall name %q", a.ID, hall)
	}
	var id uint64
	key := inboxKey(hall, a.ID)
	err := func(tx *bolt.Tx) error {
		in, err := tx.CreateBucketIfNotExists(bucketInboxAlerts)
		if err != nil {
			return fmt.Errorf("create bucket %s: %w", bucketInboxAlerts, err)
		}
		alerts := tx.Bucket(bucketAlerts)
		known, ok, err := getID(in, loc{bucketInboxAlerts}, key)
		if err != nil {
			return err
		}
		if ok {
			id = known
			var old Alert
			if err := get(alerts, locAlerts, u64key(id), &old); err != nil {
				return fmt.Errorf("alert %d: %w", id, err)
			}
			old.Count, old.Message, old.Evidence, old.Last = a.Count, a.Message, a.Evidence, a.Last
			if a.Resolved && !old.Resolved {
				old.Resolved = true
			}
			return put(alerts, u64key(id), &old)
		}
		if id, err = alerts.NextSequence(); err != nil {
			return err
		}
		a.ID, a.GameID, a.Tournament, a.Resolution = id, gameID, 0, 0
		if a.BoardID != "" {
			a.BoardID = hall + "/" + a.BoardID
		}
		a.Where = strings.TrimSuffix("hall "+hall+" · "+a.Where, " · ")
		if err := put(alerts, u64key(id), &a); err != nil {
			return err
		}
		return putRaw(in, key, u64key(id))
	}(t.tx)
	if err != nil {
		return 0, fmt.Errorf("import alert %d of hall %s: %w", binary.BigEndian.Uint64(key[len(hall)+1:]), hall, err)
	}
	return id, nil
}

// HallAlerts returns, on the hub, every hall alert imported, by hall and
// the hall's ID.
func (db *DB) HallAlerts() ([]HallAlert, error) {
	var out []HallAlert
	err := db.bolt.View(func(tx *bolt.Tx) error {
		in := tx.Bucket(bucketInboxAlerts)
		if in == nil {
			return nil
		}
		return in.ForEach(func(k, _ []byte) error {
			i := len(k) - 9
			if i < 1 || k[i] != 0 {
				return recordError(loc{bucketInboxAlerts}, k, errors.New("not a hall's alert"))
			}
			hub, _, err := getID(in, loc{bucketInboxAlerts}, k)
			if err != nil {
				return err
			}
			out = append(out, HallAlert{Hall: string(k[:i]), HallID: binary.BigEndian.Uint64(k[i+1:]), HubID: hub})
			return nil
		})
	})
	if err != nil {
		return nil, fmt.Errorf("hall alerts: %w", err)
	}
	return out, nil
}

// Action stores, on the hub, an arbiter action a hall audited, once: it
// joins the hub's audit log with the hall named in who, and the hub's
// game gameID (0 if none). It reports whether the action was new.
func (t *ImportTx) Action(hall string, a Action, gameID uint64) (bool, error) {
	if hall == "" || strings.ContainsRune(hall, 0) {
		return false, fmt.Errorf("import action %d: bad hall name %q", a.ID, hall)
	}
	created := false
	err := func(tx *bolt.Tx) error {
		in, err := tx.CreateBucketIfNotExists(bucketInboxActions)
		if err != nil {
			return fmt.Errorf("create bucket %s: %w", bucketInboxActions, err)
		}
		key := inboxKey(hall, a.ID)
		if _, ok, err := getID(in, loc{bucketInboxActions}, key); err != nil || ok {
			return err
		}
		a.GameID, a.Who = gameID, a.Who+" (hall "+hall+")"
		if err := addAction(tx, &a); err != nil {
			return err
		}
		created = true
		return putRaw(in, key, u64key(a.ID))
	}(t.tx)
	if err != nil {
		return false, fmt.Errorf("import action of hall %s: %w", hall, err)
	}
	return created, nil
}
