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

// Check verifies the database: every page reachable (read through a
// cursor, with memory faults caught), bbolt's page-level consistency
// check, then that every record decodes and that moves are numbered 1, 2,
// 3 ... per game. It returns every problem found, joined; nil means clean.
// A damaged file gives errors wrapping ErrCorrupt, never a crash.
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
			if _, err := readVersion(tx); err != nil {
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
			problems = append(problems, checkRecords(tx)...)
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

func checkRecords(tx *bolt.Tx) []error {
	var problems []error
	each := func(name []byte, check func(k, v []byte) error) {
		_ = tx.Bucket(name).ForEach(func(k, v []byte) error {
			if v == nil {
				return nil
			}
			if err := check(k, v); err != nil {
				problems = append(problems, fmt.Errorf("%s %x: %w", name, k, err))
			}
			return nil
		})
	}
	each(bucketTournaments, func(_, v []byte) error { _, err := decode[Tournament](v); return err })
	each(bucketPlayers, func(_, v []byte) error { _, err := decode[Player](v); return err })
	each(bucketRounds, func(_, v []byte) error { _, err := decode[Round](v); return err })
	each(bucketAlerts, func(_, v []byte) error { _, err := decode[Alert](v); return err })
	each(bucketActions, func(_, v []byte) error { _, err := decode[Action](v); return err })
	each(bucketGames, func(k, v []byte) error {
		if _, err := decode[Game](v); err != nil {
			return err
		}
		if tx.Bucket(bucketMoves).Bucket(k) == nil {
			return errors.New("game has no move bucket")
		}
		return nil
	})
	_ = tx.Bucket(bucketRaw).ForEachBucket(func(board []byte) error {
		want := uint64(0)
		return tx.Bucket(bucketRaw).Bucket(board).ForEach(func(k, v []byte) error {
			f, err := decode[Frame](v)
			switch {
			case err != nil || len(k) != 8:
				problems = append(problems, fmt.Errorf("raw log of board %q, frame %x: %v", board, k, err))
			case want != 0 && beUint64(k) != want || f.Seq != beUint64(k):
				problems = append(problems, fmt.Errorf("raw log of board %q: frame %d found where %d was expected", board, beUint64(k), want))
			}
			if len(k) == 8 {
				want = beUint64(k) + 1
			}
			return nil
		})
	})
	_ = tx.Bucket(bucketMoves).ForEachBucket(func(gk []byte) error {
		if tx.Bucket(bucketGames).Get(gk) == nil {
			problems = append(problems, fmt.Errorf("moves of game %x: the game is missing", gk))
		}
		want := uint32(1)
		return tx.Bucket(bucketMoves).Bucket(gk).ForEach(func(k, v []byte) error {
			m, err := decode[Move](v)
			switch {
			case err != nil:
				problems = append(problems, fmt.Errorf("game %d move %x: %w", beUint64(gk), k, err))
			case beUint32(k) != want || m.Ply != int(want):
				problems = append(problems, fmt.Errorf("game %d: ply %d found where %d was expected", beUint64(gk), beUint32(k), want))
			}
			want = beUint32(k) + 1
			return nil
		})
	})
	return problems
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
