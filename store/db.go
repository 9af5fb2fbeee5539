package store

import (
	"errors"
	"fmt"
	"io/fs"
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
	// NoVerify skips the full check of every page and record at open
	// (the header and the shape of the page trees are always checked). "db check" uses it to report problems
	// itself; nothing that writes should.
	NoVerify bool
}

// DB is an open event database. It is safe for concurrent use.
type DB struct {
	bolt   *bolt.DB
	path   string
	health writeHealth
}

// Open opens the database at path. A file that does not exist is created
// as a new, empty event (unless opts.ReadOnly); a file that exists but is
// empty, damaged, truncated or not an arbiter database is refused with an
// error wrapping ErrEmpty, ErrTruncated, ErrCorrupt or ErrForeign, and left
// untouched: the header is checked before bbolt maps the file, and every
// page and record is checked (see Check) before the first write. If
// another process holds the database, Open fails within opts.LockTimeout
// with an error wrapping ErrLocked.
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
	switch {
	case exists:
		if !fi.Mode().IsRegular() {
			return nil, fmt.Errorf("open %s: %w: not a regular file", path, ErrForeign)
		}
		if err := sniff(path, fi.Size()); err != nil {
			return nil, fmt.Errorf("open %s: %w", path, err)
		}
	case o.ReadOnly || !errors.Is(statErr, fs.ErrNotExist):
		return nil, fmt.Errorf("open %s: %w", path, statErr)
	}
	var bdb *bolt.DB
	err := safely(func() error {
		var err error
		bdb, err = bolt.Open(path, 0o600, &bolt.Options{
			Timeout:  o.LockTimeout,
			ReadOnly: o.ReadOnly,
		})
		return err
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
	if exists {
		var err error
		if o.NoVerify {
			err = db.bolt.View(func(tx *bolt.Tx) error { return checkTrees(path, uint64(tx.ID())) })
		} else {
			err = db.verify() // its page checks begin with checkTrees
		}
		if err != nil && !errors.Is(err, ErrCorrupt) {
			err = fmt.Errorf("%w: %w", ErrCorrupt, err)
		}
		if err != nil {
			bdb.Close()
			return nil, fmt.Errorf("open %s: %w", path, err)
		}
	}
	if err := safely(func() error { return db.prepare(exists) }); err != nil {
		bdb.Close()
		return nil, fmt.Errorf("open %s: %w", path, err)
	}
	return db, nil
}

// sniff refuses, before bbolt opens it, a file that bbolt would
// initialise (an empty file), crash on (a truncated one) or write to (one
// that is not a bbolt file).
func sniff(path string, size int64) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	return checkHeader(f, size)
}

// Path returns the file the database was opened from.
func (db *DB) Path() string { return db.path }

// Close closes the database. Every acknowledged write is already on disk.
func (db *DB) Close() error { return db.bolt.Close() }

// Bolt returns the underlying bbolt database for maintenance tools.
func (db *DB) Bolt() *bolt.DB { return db.bolt }
