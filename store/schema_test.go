package store

import (
	"errors"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	bolt "go.etcd.io/bbolt"
)

// The migration machinery: versions advance one step per migration, each
// recorded with its last step; a migration's batches run in transactions
// of their own until done; a failing step leaves the version before it.
func TestMigrate(t *testing.T) {
	db, err := Open(filepath.Join(t.TempDir(), "m.db"), nil)
	require.NoError(t, err)
	defer db.Close()
	version := func() string {
		var v string
		require.NoError(t, db.bolt.View(func(tx *bolt.Tx) error { v = string(tx.Bucket(bucketMeta).Get(keySchema)); return nil }))
		return v
	}
	batches, txs := 0, map[int]bool{}
	steps := []migration{
		{From: 1, Do: func(tx *bolt.Tx) error { _, err := tx.CreateBucket([]byte("v2")); return err }},
		{From: 2, Batches: func() func(*bolt.Tx) (bool, error) {
			return func(tx *bolt.Tx) (bool, error) {
				batches++
				txs[int(tx.ID())] = true
				return batches == 3, tx.Bucket([]byte("v2")).Put([]byte{byte(batches)}, []byte("b"))
			}
		}, Do: func(tx *bolt.Tx) error { return tx.Bucket([]byte("v2")).Put([]byte("k"), []byte("v3")) }},
	}
	require.NoError(t, db.migrate(1, steps))
	assert.Equal(t, "3", version())
	assert.Equal(t, 3, batches)
	assert.Len(t, txs, 3, "each batch in a transaction of its own")
	require.NoError(t, db.bolt.View(func(tx *bolt.Tx) error {
		assert.Equal(t, "v3", string(tx.Bucket([]byte("v2")).Get([]byte("k"))))
		assert.Equal(t, "b", string(tx.Bucket([]byte("v2")).Get([]byte{3})))
		return nil
	}))

	// Already at version 3: nothing runs.
	require.NoError(t, db.migrate(3, steps))
	assert.Equal(t, 3, batches)

	boom := errors.New("boom")
	failing := []migration{
		{From: 3, Do: func(tx *bolt.Tx) error { _, err := tx.CreateBucket([]byte("v4")); return err }},
		{From: 4, Do: func(tx *bolt.Tx) error { _, _ = tx.CreateBucket([]byte("v5")); return boom }},
	}
	err = db.migrate(3, failing)
	assert.ErrorIs(t, err, boom)
	assert.ErrorContains(t, err, "migrate schema 4 to 5")
	assert.Equal(t, "4", version(), "the step that failed changed nothing; the one before stands")
	require.NoError(t, db.bolt.View(func(tx *bolt.Tx) error {
		assert.NotNil(t, tx.Bucket([]byte("v4")))
		assert.Nil(t, tx.Bucket([]byte("v5")))
		return nil
	}))

	gap := []migration{{From: 5, Do: func(*bolt.Tx) error { return nil }}}
	assert.ErrorContains(t, db.migrate(4, gap), "no migration from schema version 4")
}
