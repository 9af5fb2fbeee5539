package store

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"time"

	bolt "go.etcd.io/bbolt"
	bolterrors "go.etcd.io/bbolt/errors"
)

// Errors returned by Open.
var (
	// ErrLocked means another process holds the database.
	ErrLocked = errors.New("database is in use by another arbiter process")
	// ErrForeign means the file is not an arbiter database.
	ErrForeign = errors.New("not an arbiter database")
	// ErrCorrupt means the file is damaged.
	ErrCorrupt = errors.New("database file is corrupt")
	// ErrTooNew means the database was written by a newer arbiter.
	ErrTooNew = errors.New("database schema is newer than this arbiter")
)

// ErrNotFound is returned when a record does not exist.
var ErrNotFound = errors.New("not found")

// Options configure Open.
type Options struct {
	// LockTimeout bounds the wait for a database that another process
	// holds. Zero means one second.
	LockTimeout time.Duration
	// ReadOnly opens the database for reading only (check, export,
	// backup of a stopped event).
	ReadOnly bool
}

// DB is an open event database. It is safe for concurrent use.
type DB struct {
	bolt *bolt.DB
	path string
}

// Open opens the database at path, creating it if the file does not exist.
// A file that exists but is not an arbiter database, or is damaged, is
// refused and left untouched. If another process holds the database, Open
// fails within opts.LockTimeout with an error wrapping ErrLocked.
func Open(path string, opts *Options) (*DB, error) {
	var o Options
	if opts != nil {
		o = *opts
	}
	if o.LockTimeout <= 0 {
		o.LockTimeout = time.Second
	}
	fi, statErr := os.Stat(path)
	exists := statErr == nil
	if exists {
		if err := sniff(path, fi.Size()); err != nil {
			return nil, fmt.Errorf("open %s: %w", path, err)
		}
	} else if o.ReadOnly {
		return nil, fmt.Errorf("open %s: %w", path, statErr)
	}
	bdb, err := bolt.Open(path, 0o600, &bolt.Options{
		Timeout:  o.LockTimeout,
		ReadOnly: o.ReadOnly,
	})
	if err != nil {
		switch {
		case errors.Is(err, bolterrors.ErrTimeout):
			return nil, fmt.Errorf("open %s: %w", path, ErrLocked)
		case errors.Is(err, bolterrors.ErrInvalid), errors.Is(err, bolterrors.ErrVersionMismatch):
			return nil, fmt.Errorf("open %s: %w", path, ErrForeign)
		case errors.Is(err, bolterrors.ErrChecksum):
			return nil, fmt.Errorf("open %s: %w: %v", path, ErrCorrupt, err)
		}
		return nil, fmt.Errorf("open %s: %w", path, err)
	}
	db := &DB{bolt: bdb, path: path}
	if err := db.prepare(exists && fi.Size() > 0); err != nil {
		bdb.Close()
		return nil, fmt.Errorf("open %s: %w", path, err)
	}
	return db, nil
}

// sniff refuses files that bbolt would try to use but that are not bbolt
// files, before bbolt can write to them. bbolt itself rejects most foreign
// files, but an empty file it would initialise; we only take empty files
// we could have created ourselves.
func sniff(path string, size int64) error {
	if size == 0 {
		return nil
	}
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	head := make([]byte, 32)
	n, _ := f.Read(head)
	head = head[:n]
	// bbolt's meta page: magic 0xED0CDAED (little endian) at offset 16.
	if len(head) < 20 || !bytes.Equal(head[16:20], []byte{0xED, 0xDA, 0x0C, 0xED}) {
		return ErrForeign
	}
	return nil
}

// Path returns the file the database was opened from.
func (db *DB) Path() string { return db.path }

// Close closes the database. Every acknowledged write is already on disk.
func (db *DB) Close() error { return db.bolt.Close() }

// Bolt returns the underlying bbolt database for maintenance tools.
func (db *DB) Bolt() *bolt.DB { return db.bolt }
