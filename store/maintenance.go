package store

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	bolt "go.etcd.io/bbolt"
)

// Backup writes a consistent copy of the database to path while the event
// goes on: it runs in a read transaction, so writers are not blocked. The
// copy is written to a temporary file, synced, checked (it must open as
// Open checks a file) and renamed into place, so path never holds half a
// backup or a damaged one. An existing file at path is refused.
func (db *DB) Backup(path string) error {
	if _, err := os.Stat(path); err == nil {
		return fmt.Errorf("backup to %s: file exists", path)
	}
	return WriteChecked(path, func(w io.Writer) error {
		_, err := db.WriteTo(w)
		return err
	})
}

// WriteChecked writes a database copy to path through a temporary file
// beside it: fill writes the copy, which is synced, then opened read-only
// and checked page by page and record by record, and only then renamed
// to path. On any failure nothing is left behind and path is untouched.
func WriteChecked(path string, fill func(w io.Writer) error) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), ".backup-*.tmp")
	if err != nil {
		return fmt.Errorf("backup to %s: %w", path, err)
	}
	defer os.Remove(tmp.Name())
	err = fill(tmp)
	if err == nil {
		err = tmp.Sync()
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		var c *DB
		if c, err = Open(tmp.Name(), &Options{ReadOnly: true}); err == nil {
			err = c.Close()
		} else {
			err = fmt.Errorf("the copy does not check: %w", err)
		}
	}
	if err == nil {
		err = os.Rename(tmp.Name(), path)
	}
	if err != nil {
		return fmt.Errorf("backup to %s: %w", path, err)
	}
	return nil
}

// WriteTo writes a consistent copy of the whole database file to w, in a
// read transaction: writers go on meanwhile.
func (db *DB) WriteTo(w io.Writer) (int64, error) {
	var n int64
	err := db.bolt.View(func(tx *bolt.Tx) error {
		var err error
		n, err = tx.WriteTo(w)
		return err
	})
	return n, err
}

// Check verifies the database: both meta pages, every page reachable
// (read through a cursor, with memory faults caught), bbolt's page-level
// consistency check, then every record (see checkRecords): its checksum,
// that it decodes and agrees with its key, and that moves are numbered 1,
// 2, 3 ... per game. It returns every problem found, joined, each damaged
// record named (a *RecordError); nil means clean. A damaged file gives
// errors wrapping ErrCorrupt, never a crash.
func (db *DB) Check() error {
	return db.check(true)
}

// verify is the check Open runs before the first write. A file that is not
// (or not yet) an arbiter database of this version passes, so that prepare
// can say which.
func (db *DB) verify() error {
	return db.check(false)
}

func (db *DB) check(strict bool) error {
	var problems []error
	var failed bool
	err := recovered(func() error {
		return db.bolt.View(func(tx *bolt.Tx) error {
			problems = append(problems, checkPages(tx, db.path)...)
			if len(problems) > 0 {
				return nil
			}
			version, err := readVersion(tx)
			if err != nil {
				if strict {
					problems = append(problems, err)
				}
				return nil
			}
			for _, name := range allBuckets {
				if tx.Bucket(name) == nil {
					problems = append(problems, fmt.Errorf("bucket %s is missing", name))
				}
			}
			if len(problems) > 0 {
				return nil
			}
			problems = append(problems, checkRecords(tx, version)...)
			return nil
		})
	}, &failed)
	if err != nil {
		problems = append(problems, err)
	}
	switch {
	case len(problems) == 0:
		return nil
	case len(problems) == 1 && (errors.Is(problems[0], ErrForeign) || errors.Is(problems[0], ErrTooNew)):
		return problems[0]
	case len(problems) == 1:
		return fmt.Errorf("%w: %w", ErrCorrupt, problems[0])
	}
	return fmt.Errorf("%w (%d problems):\n%w", ErrCorrupt, len(problems), errors.Join(problems...))
}

// Compact writes a compacted copy of the database to path (which must not
// exist), dropping free pages. The event can go on while it runs.
func (db *DB) Compact(path string) error {
	if _, err := os.Stat(path); err == nil {
		return fmt.Errorf("compact to %s: file exists", path)
	}
	dst, err := bolt.Open(path, 0o600, nil)
	if err != nil {
		return fmt.Errorf("compact to %s: %w", path, err)
	}
	if err := bolt.Compact(dst, db.bolt, 64<<20); err != nil {
		dst.Close()
		os.Remove(path)
		return fmt.Errorf("compact to %s: %w", path, err)
	}
	return dst.Close()
}
