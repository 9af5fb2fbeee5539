package store

import (
	"fmt"
	"sync/atomic"
	"time"

	bolt "go.etcd.io/bbolt"
)

// WriteFailure is the last write the disk refused.
type WriteFailure struct {
	Err   error
	Since time.Time // the first of the failures in a row
}

func (f *WriteFailure) Error() string {
	return fmt.Sprintf("writes to the database fail since %s: %v", f.Since.UTC().Format(time.RFC3339), f.Err)
}

func (f *WriteFailure) Unwrap() error { return f.Err }

// writeHealth records whether the disk takes writes.
type writeHealth struct {
	failure atomic.Pointer[WriteFailure]
	fault   atomic.Pointer[func() error]
}

// WriteError returns a *WriteFailure while writes fail (a full disk, an
// I/O error) and nil once a write succeeded again. Errors of a write's
// own logic (a duplicate move, a missing game) do not count.
func (db *DB) WriteError() error {
	if f := db.health.failure.Load(); f != nil {
		return f
	}
	return nil
}

// InjectWriteFault makes every write fail with what f returns (nil: the
// write goes ahead), as a full disk would; nil f removes the fault. For
// tests of what the daemon does when the disk fails.
func (db *DB) InjectWriteFault(f func() error) {
	if f == nil {
		db.health.fault.Store(nil)
		return
	}
	db.health.fault.Store(&f)
}

// update runs fn in a write transaction and records whether the disk took
// the commit.
func (db *DB) update(fn func(tx *bolt.Tx) error) error {
	var fnErr error
	err := db.bolt.Update(func(tx *bolt.Tx) error {
		if f := db.health.fault.Load(); f != nil {
			if err := (*f)(); err != nil {
				return err // fn does not run: fnErr stays nil
			}
		}
		fnErr = fn(tx)
		return fnErr
	})
	switch {
	case err == nil:
		db.health.failure.Store(nil)
	case fnErr == nil:
		// The commit (or the injected disk) failed, not fn's logic.
		since := time.Now()
		if old := db.health.failure.Load(); old != nil {
			since = old.Since
		}
		db.health.failure.Store(&WriteFailure{Err: err, Since: since})
	}
	return err
}
