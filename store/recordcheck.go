package store

import (
	"errors"
	"fmt"

	bolt "go.etcd.io/bbolt"
)

// checkRecords checks every stored record of a database of the given
// schema version, and returns a problem per damaged record, naming it:
//
//   - its seal: every value but the schema's own marks is sealed from
//     schema 2 on, and its checksum matches its key and bytes;
//   - that it decodes as what its bucket holds, and agrees with its key
//     (a game's ID, a move's game and ply, a frame's board and number);
//   - the links between records: the moves of a game are numbered 1, 2,
//     3 ... under a game that exists, a board's raw frames without gaps,
//     and each bucket's ID sequence is ahead of its IDs, so that no new
//     record is given an ID in use.
func checkRecords(tx *bolt.Tx, version int) []error {
	var problems []error
	bad := func(l loc, k []byte, err error) {
		problems = append(problems, recordError(l, k, err))
	}
	// payload unseals v, reporting what is wrong; ok is false then.
	payload := func(l loc, k, v []byte) ([]byte, bool) {
		p, sealed, err := unseal(k, v)
		switch {
		case err != nil:
			bad(l, k, err)
			return nil, false
		case !sealed && version >= 2:
			bad(l, k, errNoSeal)
			return nil, false
		}
		return p, true
	}
	// each calls check with the payload of every record of the bucket at
	// l: nil for a record whose seal is wrong (already reported), so that
	// a check that numbers records goes on counting.
	each := func(b *bolt.Bucket, l loc, check func(k, p []byte) error) {
		_ = b.ForEach(func(k, v []byte) error {
			if v == nil {
				return nil // a nested bucket: walked by its own check
			}
			p, ok := payload(l, k, v)
			if !ok {
				p = nil
			} else if p == nil {
				p = []byte{}
			}
			if err := check(k, p); err != nil {
				bad(l, k, err)
			}
			return nil
		})
	}
	// sound wraps a check that needs a readable record.
	sound := func(check func(k, p []byte) error) func(k, p []byte) error {
		return func(k, p []byte) error {
			if p == nil {
				return nil
			}
			return check(k, p)
		}
	}
	// keyed decodes p as a T and checks that key is the key it is stored
	// under.
	keyed := func(k []byte, p []byte, decode func(p []byte) ([]byte, error)) error {
		want, err := decode(p)
		if err != nil {
			return err
		}
		if string(want) != string(k) {
			return fmt.Errorf("stored under key %x, but the record says %x", k, want)
		}
		return nil
	}
	seqAhead := func(b *bolt.Bucket, l loc) {
		if k, _ := b.Cursor().Last(); len(k) == 8 && b.Sequence() < beUint64(k) {
			problems = append(problems, fmt.Errorf("bucket %s: its ID sequence %d is behind its last ID %d: a new record would overwrite one", l, b.Sequence(), beUint64(k)))
		}
	}

	each(tx.Bucket(bucketTournaments), locTournaments, sound(func(k, p []byte) error {
		return keyed(k, p, func(p []byte) ([]byte, error) { t, err := fromJSON[Tournament](p); return u64key(t.ID), err })
	}))
	seqAhead(tx.Bucket(bucketTournaments), locTournaments)
	each(tx.Bucket(bucketPlayers), locPlayers, sound(func(k, p []byte) error {
		return keyed(k, p, func(p []byte) ([]byte, error) {
			r, err := fromJSON[Player](p)
			return pairKey(r.TournamentID, uint32(r.ID)), err
		})
	}))
	each(tx.Bucket(bucketRounds), locRounds, sound(func(k, p []byte) error {
		return keyed(k, p, func(p []byte) ([]byte, error) {
			r, err := fromJSON[Round](p)
			return pairKey(r.TournamentID, uint32(r.Number)), err
		})
	}))
	each(tx.Bucket(bucketAlerts), locAlerts, sound(func(k, p []byte) error {
		return keyed(k, p, func(p []byte) ([]byte, error) { a, err := fromJSON[Alert](p); return u64key(a.ID), err })
	}))
	seqAhead(tx.Bucket(bucketAlerts), locAlerts)
	each(tx.Bucket(bucketActions), locActions, sound(func(k, p []byte) error {
		return keyed(k, p, func(p []byte) ([]byte, error) { a, err := fromJSON[Action](p); return u64key(a.ID), err })
	}))
	seqAhead(tx.Bucket(bucketActions), locActions)
	moves := tx.Bucket(bucketMoves)
	each(tx.Bucket(bucketGames), locGames, sound(func(k, p []byte) error {
		if err := keyed(k, p, func(p []byte) ([]byte, error) { g, err := fromJSON[Game](p); return u64key(g.ID), err }); err != nil {
			return err
		}
		if moves.Bucket(k) == nil {
			return errors.New("the game has no move bucket")
		}
		return nil
	}))
	seqAhead(tx.Bucket(bucketGames), locGames)
	_ = moves.ForEachBucket(func(gk []byte) error {
		l := loc{bucketMoves, gk}
		if tx.Bucket(bucketGames).Get(gk) == nil {
			problems = append(problems, fmt.Errorf("moves of game %s: the game is missing", l))
		}
		want := uint32(1)
		each(moves.Bucket(gk), l, func(k, p []byte) error {
			if len(k) != 4 {
				return fmt.Errorf("a move key of %d bytes", len(k))
			}
			defer func() { want = beUint32(k) + 1 }()
			if beUint32(k) != want {
				return fmt.Errorf("game %d: ply %d found where %d was expected", beUint64(gk), beUint32(k), want)
			}
			if p == nil {
				return nil
			}
			m, err := fromJSON[Move](p)
			switch {
			case err != nil:
				return err
			case string(u64key(m.GameID)) != string(gk):
				return fmt.Errorf("the move says it is of game %d", m.GameID)
			case m.Ply != int(beUint32(k)):
				return fmt.Errorf("the move says it is ply %d", m.Ply)
			}
			return nil
		})
		return nil
	})
	raw := tx.Bucket(bucketRaw)
	_ = raw.ForEachBucket(func(board []byte) error {
		l := loc{bucketRaw, board}
		want := uint64(0)
		each(raw.Bucket(board), l, func(k, p []byte) error {
			if len(k) != 8 {
				return fmt.Errorf("a frame key of %d bytes", len(k))
			}
			defer func() { want = beUint64(k) + 1 }()
			if want != 0 && beUint64(k) != want {
				return fmt.Errorf("raw log of board %q: frame %d found where %d was expected", board, beUint64(k), want)
			}
			if p == nil {
				return nil
			}
			f, err := fromJSON[Frame](p)
			switch {
			case err != nil:
				return err
			case f.Seq != beUint64(k) || (f.BoardID != "" && f.BoardID != string(board)):
				return fmt.Errorf("the frame says it is frame %d of board %q", f.Seq, f.BoardID)
			}
			return nil
		})
		return nil
	})
	meta := tx.Bucket(bucketMeta)
	_ = meta.ForEach(func(k, v []byte) error {
		if string(k) == string(keyApp) || string(k) == string(keySchema) || v == nil {
			return nil // the schema's own marks stay bare
		}
		payload(locMeta, k, v)
		return nil
	})
	if out := tx.Bucket(bucketOutbox); out != nil {
		each(out, locOutbox, sound(func(k, p []byte) error {
			if len(k) != 8 {
				return fmt.Errorf("a game key of %d bytes", len(k))
			}
			_, err := fromJSON[OutboxCursor](p)
			return err
		}))
	}
	for _, name := range [][]byte{bucketInbox, bucketInboxAlerts, bucketInboxActions} {
		if in := tx.Bucket(name); in != nil {
			each(in, loc{name}, sound(func(k, p []byte) error {
				if i := len(k) - 9; i < 1 || k[i] != 0 {
					return errors.New("not a hall's key")
				}
				if len(p) != 8 {
					return fmt.Errorf("an ID of %d bytes", len(p))
				}
				return nil
			}))
		}
	}
	// Buckets of no known kind: their records' seals at least.
	_ = tx.ForEach(func(name []byte, b *bolt.Bucket) error {
		if known(name) {
			return nil
		}
		var walk func(b *bolt.Bucket, l loc)
		walk = func(b *bolt.Bucket, l loc) {
			_ = b.ForEach(func(k, v []byte) error {
				if v == nil {
					walk(b.Bucket(k), append(l[:len(l):len(l)], k))
					return nil
				}
				payload(l, k, v)
				return nil
			})
		}
		walk(b, loc{name})
		return nil
	})
	return problems
}

// known reports whether name is a top-level bucket checkRecords knows.
func known(name []byte) bool {
	for _, b := range append(allBuckets[:len(allBuckets):len(allBuckets)], bucketOutbox, bucketInbox, bucketInboxAlerts, bucketInboxActions) {
		if string(b) == string(name) {
			return true
		}
	}
	return false
}
