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
	c := &recordChecker{tx: tx, version: version}
	for _, k := range keyedKinds {
		c.each(tx.Bucket(k.bucket), k.loc, sound(func(key, p []byte) error { return keyed(key, p, k.key) }))
		if k.sequenced {
			c.seqAhead(tx.Bucket(k.bucket), k.loc)
		}
	}
	c.games()
	c.moves()
	c.raw()
	c.meta()
	c.outbox()
	c.inboxes()
	c.unknown()
	return c.problems
}

// A recordChecker gathers the problems checkRecords finds in one
// transaction.
type recordChecker struct {
	tx       *bolt.Tx
	version  int
	problems []error
}

// bad reports that the record at key k of l is damaged.
func (c *recordChecker) bad(l loc, k []byte, err error) {
	c.problems = append(c.problems, recordError(l, k, err))
}

// payload unseals v, reporting what is wrong; ok is false then.
func (c *recordChecker) payload(l loc, k, v []byte) ([]byte, bool) {
	p, sealed, err := unseal(k, v)
	switch {
	case err != nil:
		c.bad(l, k, err)
		return nil, false
	case !sealed && c.version >= 2:
		c.bad(l, k, errNoSeal)
		return nil, false
	}
	return p, true
}

// each calls check with the payload of every record of the bucket at l:
// nil for a record whose seal is wrong (already reported), so that a
// check that numbers records goes on counting.
func (c *recordChecker) each(b *bolt.Bucket, l loc, check func(k, p []byte) error) {
	_ = b.ForEach(func(k, v []byte) error {
		if v == nil {
			return nil // a nested bucket: walked by its own check
		}
		p, ok := c.payload(l, k, v)
		if !ok {
			p = nil
		} else if p == nil {
			p = []byte{}
		}
		if err := check(k, p); err != nil {
			c.bad(l, k, err)
		}
		return nil
	})
}

// seqAhead reports a bucket whose ID sequence is behind its last ID.
func (c *recordChecker) seqAhead(b *bolt.Bucket, l loc) {
	if k, _ := b.Cursor().Last(); len(k) == 8 && b.Sequence() < beUint64(k) {
		c.problems = append(c.problems, fmt.Errorf("bucket %s: its ID sequence %d is behind its last ID %d: a new record would overwrite one", l, b.Sequence(), beUint64(k)))
	}
}

// sound wraps a check that needs a readable record.
func sound(check func(k, p []byte) error) func(k, p []byte) error {
	return func(k, p []byte) error {
		if p == nil {
			return nil
		}
		return check(k, p)
	}
}

// keyed decodes p with decode and checks that k is the key the record
// says it is stored under.
func keyed(k []byte, p []byte, decode func(p []byte) ([]byte, error)) error {
	want, err := decode(p)
	if err != nil {
		return err
	}
	if string(want) != string(k) {
		return fmt.Errorf("stored under key %x, but the record says %x", k, want)
	}
	return nil
}

// A keyedKind is a bucket of JSON records each stored under the key it
// names: decoding a record gives that key.
type keyedKind struct {
	bucket    []byte
	loc       loc
	key       func(p []byte) ([]byte, error)
	sequenced bool // its keys are IDs from the bucket's sequence
}

// keyedKinds are the buckets checked by their records' keys alone, in
// the order checkRecords checks them (games, checked with their moves,
// come after).
var keyedKinds = []keyedKind{
	{bucketTournaments, locTournaments, func(p []byte) ([]byte, error) {
		t, err := fromJSON[Tournament](p)
		return u64key(t.ID), err
	}, true},
	{bucketPlayers, locPlayers, func(p []byte) ([]byte, error) {
		r, err := fromJSON[Player](p)
		return pairKey(r.TournamentID, uint32(r.ID)), err
	}, false},
	{bucketRounds, locRounds, func(p []byte) ([]byte, error) {
		r, err := fromJSON[Round](p)
		return pairKey(r.TournamentID, uint32(r.Number)), err
	}, false},
	{bucketAlerts, locAlerts, func(p []byte) ([]byte, error) {
		a, err := fromJSON[Alert](p)
		return u64key(a.ID), err
	}, true},
	{bucketActions, locActions, func(p []byte) ([]byte, error) {
		a, err := fromJSON[Action](p)
		return u64key(a.ID), err
	}, true},
}

// games checks each game's key and that it has a move bucket.
func (c *recordChecker) games() {
	moves := c.tx.Bucket(bucketMoves)
	c.each(c.tx.Bucket(bucketGames), locGames, sound(func(k, p []byte) error {
		if err := keyed(k, p, func(p []byte) ([]byte, error) { g, err := fromJSON[Game](p); return u64key(g.ID), err }); err != nil {
			return err
		}
		if moves.Bucket(k) == nil {
			return errors.New("the game has no move bucket")
		}
		return nil
	}))
	c.seqAhead(c.tx.Bucket(bucketGames), locGames)
}

// moves checks that each game's moves are of a game that exists and
// numbered 1, 2, 3 ...
func (c *recordChecker) moves() {
	moves := c.tx.Bucket(bucketMoves)
	_ = moves.ForEachBucket(func(gk []byte) error {
		l := loc{bucketMoves, gk}
		if c.tx.Bucket(bucketGames).Get(gk) == nil {
			c.problems = append(c.problems, fmt.Errorf("moves of game %s: the game is missing", l))
		}
		want := uint32(1)
		c.each(moves.Bucket(gk), l, func(k, p []byte) error {
			if len(k) != 4 {
				return fmt.Errorf("a move key of %d bytes", len(k))
			}
			defer func() { want = beUint32(k) + 1 }()
			if beUint32(k) != want {
				return fmt.Errorf("game %d: ply %d found where %d was expected", beUint64(gk), beUint32(k), want)
			}
			return checkMove(gk, k, p)
		})
		return nil
	})
}

// checkMove checks that the move p, stored under game key gk and ply key
// k, says it is that game's ply.
func checkMove(gk, k, p []byte) error {
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
}

// raw checks that each board's raw frames are numbered without gaps.
func (c *recordChecker) raw() {
	raw := c.tx.Bucket(bucketRaw)
	_ = raw.ForEachBucket(func(board []byte) error {
		l := loc{bucketRaw, board}
		want := uint64(0)
		c.each(raw.Bucket(board), l, func(k, p []byte) error {
			if len(k) != 8 {
				return fmt.Errorf("a frame key of %d bytes", len(k))
			}
			defer func() { want = beUint64(k) + 1 }()
			if want != 0 && beUint64(k) != want {
				return fmt.Errorf("raw log of board %q: frame %d found where %d was expected", board, beUint64(k), want)
			}
			return checkFrame(board, k, p)
		})
		return nil
	})
}

// checkFrame checks that the frame p, stored under board and frame key
// k, says it is that board's frame.
func checkFrame(board, k, p []byte) error {
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
}

// meta checks the seals of the meta bucket's values but the schema's own
// marks.
func (c *recordChecker) meta() {
	_ = c.tx.Bucket(bucketMeta).ForEach(func(k, v []byte) error {
		if isSchemaMark(k) || v == nil {
			return nil // the schema's own marks stay bare
		}
		c.payload(locMeta, k, v)
		return nil
	})
}

// outbox checks the outbox's cursors, if there is an outbox.
func (c *recordChecker) outbox() {
	out := c.tx.Bucket(bucketOutbox)
	if out == nil {
		return
	}
	c.each(out, locOutbox, sound(func(k, p []byte) error {
		if len(k) != 8 {
			return fmt.Errorf("a game key of %d bytes", len(k))
		}
		_, err := fromJSON[OutboxCursor](p)
		return err
	}))
}

// inboxes checks the keys and IDs of the inboxes there are.
func (c *recordChecker) inboxes() {
	for _, name := range [][]byte{bucketInbox, bucketInboxAlerts, bucketInboxActions} {
		if in := c.tx.Bucket(name); in != nil {
			c.each(in, loc{name}, sound(func(k, p []byte) error {
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
}

// unknown checks, in buckets of no known kind, their records' seals at
// least.
func (c *recordChecker) unknown() {
	_ = c.tx.ForEach(func(name []byte, b *bolt.Bucket) error {
		if !known(name) {
			c.seals(b, loc{name})
		}
		return nil
	})
}

// seals checks the seal of every record of b, at l, and of its nested
// buckets.
func (c *recordChecker) seals(b *bolt.Bucket, l loc) {
	_ = b.ForEach(func(k, v []byte) error {
		if v == nil {
			c.seals(b.Bucket(k), append(l[:len(l):len(l)], k))
			return nil
		}
		c.payload(l, k, v)
		return nil
	})
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
