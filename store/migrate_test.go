package store

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	bolt "go.etcd.io/bbolt"
)

// schema1 copies the schema 1 fixture (an event written by the store
// before records were sealed: every kind of record, made by that code)
// and returns its path.
func schema1(t *testing.T) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", "schema1-event.db"))
	require.NoError(t, err)
	path := filepath.Join(t.TempDir(), "old.db")
	require.NoError(t, os.WriteFile(path, data, 0o600))
	return path
}

// schema1Export is the fixture's export, written by the code of schema 1.
func schema1Export(t *testing.T) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", "schema1-event.jsonl"))
	require.NoError(t, err)
	return string(data)
}

func exported(t *testing.T, db *DB) string {
	t.Helper()
	var b bytes.Buffer
	require.NoError(t, db.Export(&b))
	return b.String()
}

// sealedCount counts the sealed and bare values of the file (the
// schema's own marks apart).
func sealedCount(t *testing.T, db *DB) (sealed, bare int) {
	t.Helper()
	require.NoError(t, db.bolt.View(func(tx *bolt.Tx) error {
		return tx.ForEach(func(name []byte, b *bolt.Bucket) error {
			for _, l := range buckets(b, loc{name}) {
				_ = bucketAt(tx, l).ForEach(func(k, v []byte) error {
					if v == nil || (string(l[0]) == string(bucketMeta) && (string(k) == "app" || string(k) == "schema")) {
						return nil
					}
					if _, ok, _ := unseal(k, v); ok {
						sealed++
					} else {
						bare++
					}
					return nil
				})
			}
			return nil
		})
	}))
	return sealed, bare
}

// A database of schema 1 opens read-only as it is (nothing written, its
// records read without checksums, its check clean), and is migrated at
// its first read-write open: every record sealed, the version 2, and the
// event exactly as it was (its export byte for byte the one schema 1
// wrote).
func TestMigrateSchema1(t *testing.T) {
	path := schema1(t)
	before, err := os.ReadFile(path)
	require.NoError(t, err)

	db, err := Open(path, &Options{ReadOnly: true})
	require.NoError(t, err)
	v, err := db.Version()
	require.NoError(t, err)
	assert.Equal(t, 1, v)
	require.NoError(t, db.Check())
	assert.Equal(t, schema1Export(t), exported(t, db))
	_, bare := sealedCount(t, db)
	assert.Positive(t, bare)
	require.NoError(t, db.Close())
	after, err := os.ReadFile(path)
	require.NoError(t, err)
	assert.Equal(t, before, after, "a read-only open writes nothing")

	db, err = Open(path, nil)
	require.NoError(t, err)
	defer db.Close()
	v, err = db.Version()
	require.NoError(t, err)
	assert.Equal(t, 2, v)
	sealed, bare := sealedCount(t, db)
	assert.Zero(t, bare, "every record is sealed")
	assert.Equal(t, 33+4, sealed, "the export's 33 records, and the hub's 3 inbox entries and 1 outbox cursor")
	require.NoError(t, db.Check())
	assert.Equal(t, schema1Export(t), exported(t, db))
	ms, err := db.Moves(1)
	require.NoError(t, err)
	require.Len(t, ms, 5)
	assert.Equal(t, "Bb5", ms[4].Notation)
	id, err := db.ImportedGame("east", 7)
	require.NoError(t, err)
	assert.Equal(t, uint64(3), id)
}

// A migration stopped midway (a crash after some of its transactions):
// the file is still of version 1, with records of both forms; it reads as
// it is, and the next read-write open finishes the migration.
func TestMigrateSchema1Interrupted(t *testing.T) {
	path := schema1(t)
	db, err := Open(path, &Options{ReadOnly: true, NoVerify: true})
	require.NoError(t, err)
	require.NoError(t, db.Close())
	bdb, err := bolt.Open(path, 0o600, nil)
	require.NoError(t, err)
	s := newSealer(7)
	for range 2 {
		require.NoError(t, bdb.Update(func(tx *bolt.Tx) error { _, err := s.step(tx); return err }))
	}
	require.NoError(t, bdb.Close())

	db, err = Open(path, &Options{ReadOnly: true})
	require.NoError(t, err)
	sealed, bare := sealedCount(t, db)
	assert.Equal(t, 14, sealed, "two steps of 7")
	assert.Positive(t, bare)
	v, err := db.Version()
	require.NoError(t, err)
	assert.Equal(t, 1, v)
	require.NoError(t, db.Check())
	assert.Equal(t, schema1Export(t), exported(t, db))
	require.NoError(t, db.Close())

	db, err = Open(path, nil)
	require.NoError(t, err)
	defer db.Close()
	_, bare = sealedCount(t, db)
	assert.Zero(t, bare)
	require.NoError(t, db.Check())
	assert.Equal(t, schema1Export(t), exported(t, db))
}

// The migration seals in transactions of at most sealBatch records: each
// step stops there and the next goes on where it stopped.
func TestSealerSteps(t *testing.T) {
	path := schema1(t)
	bdb, err := bolt.Open(path, 0o600, nil)
	require.NoError(t, err)
	defer bdb.Close()
	s := newSealer(5)
	steps := 0
	for done := false; !done; steps++ {
		require.NoError(t, bdb.Update(func(tx *bolt.Tx) error { var err error; done, err = s.step(tx); return err }))
		require.Less(t, steps, 100)
	}
	assert.Equal(t, 8, steps, "37 records, 5 a step")
	again := newSealer(0)
	require.NoError(t, bdb.Update(func(tx *bolt.Tx) error {
		done, err := again.step(tx)
		assert.True(t, done)
		return err
	}))
}
