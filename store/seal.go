package store

import (
	bolt "go.etcd.io/bbolt"
)

// sealer seals the records of a database of schema 1 (the migration to
// schema 2), at most max in one step (0: no limit), going on from where
// the step before stopped. A record already sealed is left as it is, so
// that a migration interrupted by a crash goes on where it was.
type sealer struct {
	max   int
	todo  []loc  // buckets with records still to seal, in order; nil before the first step
	after []byte // the last key done in todo[0]
}

func newSealer(max int) *sealer { return &sealer{max: max} }

// step seals the next records in tx, and reports whether every record is
// sealed.
func (s *sealer) step(tx *bolt.Tx) (done bool, err error) {
	if s.todo == nil {
		s.todo = []loc{}
		_ = tx.ForEach(func(name []byte, b *bolt.Bucket) error {
			s.todo = append(s.todo, buckets(b, loc{append([]byte(nil), name...)})...)
			return nil
		})
	}
	n := 0
	for len(s.todo) > 0 && (s.max == 0 || n < s.max) {
		b := bucketAt(tx, s.todo[0])
		if b == nil {
			s.todo, s.after = s.todo[1:], nil
			continue
		}
		sealed, err := s.sealBucket(b, n)
		if err != nil {
			return false, err
		}
		n += sealed
	}
	return len(s.todo) == 0, nil
}

// sealBucket seals the next records of b, the bucket todo[0], n records
// having been sealed in this step, and returns how many it sealed. It
// moves on to the next bucket when b is done.
func (s *sealer) sealBucket(b *bolt.Bucket, n int) (sealed int, _ error) {
	meta := len(s.todo[0]) == 1 && string(s.todo[0][0]) == string(bucketMeta)
	var keys, values [][]byte
	c := b.Cursor()
	k, v := s.resume(c)
	for ; k != nil && (s.max == 0 || n+sealed < s.max); k, v = c.Next() {
		s.after = append(s.after[:0], k...)
		if v == nil || (meta && isSchemaMark(k)) {
			continue // a nested bucket, or the schema's own marks
		}
		if _, ok, _ := unseal(k, v); ok {
			continue
		}
		keys = append(keys, append([]byte(nil), k...))
		values = append(values, seal(k, v))
		sealed++
	}
	if k == nil {
		s.todo, s.after = s.todo[1:], nil
	}
	for i := range keys {
		if err := b.Put(keys[i], values[i]); err != nil {
			return sealed, err
		}
	}
	return sealed, nil
}

// resume places c on the first record after the last one done.
func (s *sealer) resume(c *bolt.Cursor) (k, v []byte) {
	if s.after == nil {
		return c.First()
	}
	if k, v = c.Seek(s.after); k != nil && string(k) == string(s.after) {
		return c.Next()
	}
	return k, v
}

// isSchemaMark reports whether k is the key of one of the schema's own
// marks in the meta bucket, which stay bare.
func isSchemaMark(k []byte) bool {
	return string(k) == string(keyApp) || string(k) == string(keySchema)
}

// buckets lists b, at l, and the buckets nested in it, in order.
func buckets(b *bolt.Bucket, l loc) []loc {
	out := []loc{l}
	_ = b.ForEachBucket(func(name []byte) error {
		out = append(out, buckets(b.Bucket(name), append(l[:len(l):len(l)], append([]byte(nil), name...)))...)
		return nil
	})
	return out
}

// bucketAt returns the bucket at l, or nil.
func bucketAt(tx *bolt.Tx, l loc) *bolt.Bucket {
	if len(l) == 0 {
		return nil
	}
	b := tx.Bucket(l[0])
	for _, name := range l[1:] {
		if b == nil {
			return nil
		}
		b = b.Bucket(name)
	}
	return b
}
