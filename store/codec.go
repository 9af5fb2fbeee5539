package store

import (
	"encoding/json"
	"fmt"

	bolt "go.etcd.io/bbolt"
)

// put stores v as JSON, sealed, at key of bucket b.
func put(b *bolt.Bucket, key []byte, v any) error {
	data, err := json.Marshal(v)
	if err != nil {
		return fmt.Errorf("encode %T: %w", v, err)
	}
	return b.Put(key, seal(key, data))
}

// putRaw stores payload, sealed, at key of bucket b.
func putRaw(b *bolt.Bucket, key, payload []byte) error {
	return b.Put(key, seal(key, payload))
}

// get decodes the record at key of the bucket b, which lies at l, into v;
// the JSON decoder copies, so v is safe to use after the transaction
// ends. A damaged record fails with a *RecordError naming it.
func get(b *bolt.Bucket, l loc, key []byte, v any) error {
	data := b.Get(key)
	if data == nil {
		return ErrNotFound
	}
	return decodeInto(l, key, data, v)
}

// getRaw returns the payload of the record at key of the bucket b, which
// lies at l, in b's memory (valid during the transaction only), or nil.
func getRaw(b *bolt.Bucket, l loc, key []byte) ([]byte, error) {
	data := b.Get(key)
	if data == nil {
		return nil, nil
	}
	payload, _, err := unseal(key, data)
	if err != nil {
		return nil, recordError(l, key, err)
	}
	return payload, nil
}

// getID returns the ID stored at key of the bucket b, which lies at l
// (the federation's inboxes), and whether there is one.
func getID(b *bolt.Bucket, l loc, key []byte) (uint64, bool, error) {
	payload, err := getRaw(b, l, key)
	switch {
	case err != nil:
		return 0, false, err
	case payload == nil:
		return 0, false, nil
	case len(payload) != 8:
		return 0, false, recordError(l, key, fmt.Errorf("an ID of %d bytes", len(payload)))
	}
	return beUint64(payload), true, nil
}

// decodeInto unseals the value data stored at key of the bucket at l and
// decodes it into v.
func decodeInto(l loc, key, data []byte, v any) error {
	payload, _, err := unseal(key, data)
	if err == nil {
		if err = json.Unmarshal(payload, v); err != nil {
			err = fmt.Errorf("decode %T: %w", v, err)
		}
	}
	if err != nil {
		return recordError(l, key, err)
	}
	return nil
}

// list decodes every record of b, which lies at l, whose key starts with
// prefix.
func list[T any](b *bolt.Bucket, l loc, prefix []byte) ([]T, error) {
	var out []T
	c := b.Cursor()
	for k, v := c.Seek(prefix); k != nil && hasPrefix(k, prefix); k, v = c.Next() {
		if v == nil {
			continue // nested bucket
		}
		t, err := decode[T](l, k, v)
		if err != nil {
			return nil, err
		}
		out = append(out, t)
	}
	return out, nil
}

func hasPrefix(k, prefix []byte) bool {
	return len(k) >= len(prefix) && string(k[:len(prefix)]) == string(prefix)
}

// decode decodes the record v stored at key of the bucket at l.
func decode[T any](l loc, key, v []byte) (T, error) {
	var t T
	err := decodeInto(l, key, v, &t)
	return t, err
}

// fromJSON decodes a JSON document that is not a stored record (a line
// of an exported event).
func fromJSON[T any](data []byte) (T, error) {
	var t T
	err := json.Unmarshal(data, &t)
	return t, err
}
