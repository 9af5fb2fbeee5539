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
	exists, err := existing(path, o.ReadOnly)
	if err != nil {
		return nil, fmt.Errorf("open %s: %w", path, err)
	}
	bdb, err := openBolt(path, o)
	if err != nil {
		return nil, fmt.Errorf("open %s: %w", path, err)
	}
	db := &DB{bolt: bdb, path: path}
	if exists {
		if err := db.checkOnOpen(o.NoVerify); err != nil {
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

// existing reports whether a database file is at path, and refuses what
// is there if it is not a regular file that bbolt may open (see sniff), or
// nothing is there and a read-only database is asked for.
func existing(path string, readOnly bool) (bool, error) {
	fi, err := os.Stat(path)
	switch {
	case err == nil:
		if !fi.Mode().IsRegular() {
			return true, fmt.Errorf("%w: not a regular file", ErrForeign)
		}
		return true, sniff(path, fi.Size())
	case readOnly || !errors.Is(err, fs.ErrNotExist):
		return false, err
	}
	return false, nil
}

// openBolt opens the bbolt database at path, turning bbolt's errors into
// the store's: ErrLocked, ErrForeign, ErrCorrupt.
func openBolt(path string, o Options) (*bolt.DB, error) {
	var bdb *bolt.DB
	err := safely(func() error {
		var err error
		bdb, err = bolt.Open(path, 0o600, &bolt.Options{
			Timeout:  o.LockTimeout,
			ReadOnly: o.ReadOnly,
		})
		return err
	})
	switch {
	case err == nil:
		return bdb, nil
	case errors.Is(err, bolterrors.ErrTimeout):
		return nil, ErrLocked
	case errors.Is(err, bolterrors.ErrInvalid), errors.Is(err, bolterrors.ErrVersionMismatch):
		return nil, ErrForeign
	case errors.Is(err, bolterrors.ErrChecksum):
		return nil, fmt.Errorf("%w: %v", ErrCorrupt, err)
	}
	return nil, err
}

// checkOnOpen checks the pages of an existing database, and its records unless
// noVerify is set; what it finds wraps ErrCorrupt.
func (db *DB) checkOnOpen(noVerify bool) error {
	var err error
	if noVerify {
		err = db.bolt.View(func(tx *bolt.Tx) error { return checkTrees(db.path, uint64(tx.ID())) })
	} else {
		err = db.verify() // its page checks begin with checkTrees
	}
	if err != nil && !errors.Is(err, ErrCorrupt) {
		err = fmt.Errorf("%w: %w", ErrCorrupt, err)
	}
	return err
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
