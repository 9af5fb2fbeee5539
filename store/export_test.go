package store

import (
	"encoding/json"

	bolt "go.etcd.io/bbolt"
)

// AppendMovesInOneTx stores moves in a single transaction, for tests and
// benchmarks that build large events quickly.
func AppendMovesInOneTx(db *DB, ms []Move) error {
	return db.bolt.Update(func(tx *bolt.Tx) error {
		for i := range ms {
			data, err := json.Marshal(&ms[i])
			if err != nil {
				return err
			}
			if err := appendMove(tx, &ms[i], data); err != nil {
				return err
			}
		}
		return nil
	})
}
