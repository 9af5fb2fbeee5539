package store

import (
	"encoding/json"
	"fmt"

	bolt "go.etcd.io/bbolt"
)

func put(b *bolt.Bucket, key []byte, v any) error {
	data, err := json.Marshal(v)
	if err != nil {
		return fmt.Errorf("encode %T: %w", v, err)
	}
	return b.Put(key, data)
}

// get decodes the value at key into v; the JSON decoder copies, so v is
// safe to use after the transaction ends.
func get(b *bolt.Bucket, key []byte, v any) error {
	data := b.Get(key)
	if data == nil {
		return ErrNotFound
	}
	if err := json.Unmarshal(data, v); err != nil {
		return fmt.Errorf("%w: decode %T: %v", ErrCorrupt, v, err)
	}
	return nil
}

// list decodes every value of b whose key starts with prefix.
func list[T any](b *bolt.Bucket, prefix []byte) ([]T, error) {
	var out []T
	c := b.Cursor()
	for k, v := c.Seek(prefix); k != nil && hasPrefix(k, prefix); k, v = c.Next() {
		if v == nil {
			continue // nested bucket
		}
		t, err := decode[T](v)
		if err != nil {
			return nil, fmt.Errorf("key %x: %w", k, err)
		}
		out = append(out, t)
	}
	return out, nil
}

func hasPrefix(k, prefix []byte) bool {
	return len(k) >= len(prefix) && string(k[:len(prefix)]) == string(prefix)
}

// decode decodes one stored value.
func decode[T any](v []byte) (T, error) {
	var t T
	if err := json.Unmarshal(v, &t); err != nil {
		return t, fmt.Errorf("%w: decode %T: %v", ErrCorrupt, t, err)
	}
	return t, nil
}
