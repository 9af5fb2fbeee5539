package store

import (
	"errors"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	bolt "go.etcd.io/bbolt"
)

// The migration machinery: versions advance one step per migration inside
// the caller's transaction, and a failing step leaves the old version.
func TestMigrate(t *testing.T) {
	db, err := Open(filepath.Join(t.TempDir(), "m.db"), nil)
	require.NoError(t, err)
	defer db.Close()

	steps := []migration{
		{From: 1, Do: func(tx *bolt.Tx) error { _, err := tx.CreateBucket([]byte("v2")); return err }},
		{From: 2, Do: func(tx *bolt.Tx) error { return tx.Bucket([]byte("v2")).Put([]byte("k"), []byte("v3")) }},
	}
	require.NoError(t, db.bolt.Update(func(tx *bolt.Tx) error { return migrate(tx, 1, steps) }))
	require.NoError(t, db.bolt.View(func(tx *bolt.Tx) error {
		assert.Equal(t, "3", string(tx.Bucket(bucketMeta).Get(keySchema)))
		assert.Equal(t, "v3", string(tx.Bucket([]byte("v2")).Get([]byte("k"))))
		return nil
	}))

	// Already at version 3: nothing runs.
	require.NoError(t, db.bolt.Update(func(tx *bolt.Tx) error { return migrate(tx, 3, steps) }))

	boom := errors.New("boom")
	failing := []migration{
		{From: 3, Do: func(tx *bolt.Tx) error { _, err := tx.CreateBucket([]byte("v4")); return err }},
		{From: 4, Do: func(*bolt.Tx) error { return boom }},
	}
	err = db.bolt.Update(func(tx *bolt.Tx) error { return migrate(tx, 3, failing) })
	assert.ErrorIs(t, err, boom)
	assert.ErrorContains(t, err, "migrate schema 4 to 5")
	require.NoError(t, db.bolt.View(func(tx *bolt.Tx) error {
		assert.Equal(t, "3", string(tx.Bucket(bucketMeta).Get(keySchema)), "a failed migration changes nothing")
		assert.Nil(t, tx.Bucket([]byte("v4")))
		return nil
	}))

	gap := []migration{{From: 5, Do: func(*bolt.Tx) error { return nil }}}
	err = db.bolt.Update(func(tx *bolt.Tx) error { return migrate(tx, 3, gap) })
	assert.ErrorContains(t, err, "no migration from schema version 3")
}
