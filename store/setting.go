package store

import (
	"bytes"
	"fmt"

	bolt "go.etcd.io/bbolt"
)

// settingPrefix keeps the settings apart from the schema's own records in
// the meta bucket.
const settingPrefix = "setting/"

// PutSetting stores a setting of the daemon that wrote the event, by key
// (e.g. how it read its boards), for the tools that read the event later
// (arbiter replay) to do as it did. A later value replaces the earlier.
func (db *DB) PutSetting(key string, value []byte) error {
	if key == "" {
		return fmt.Errorf("setting: no key")
	}
	return db.update(func(tx *bolt.Tx) error { return putSetting(tx, key, value) })
}

func putSetting(tx *bolt.Tx, key string, value []byte) error {
	return putRaw(tx.Bucket(bucketMeta), []byte(settingPrefix+key), value)
}

// settingRecord is a setting in an exported event.
type settingRecord struct {
	Key   string `json:"key"`
	Value []byte `json:"value"`
}

// forEachSetting calls f with every setting, in key order.
func forEachSetting(tx *bolt.Tx, f func(key string, value []byte) error) error {
	c := tx.Bucket(bucketMeta).Cursor()
	prefix := []byte(settingPrefix)
	for k, v := c.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix); k, v = c.Next() {
		value, _, err := unseal(k, v)
		if err != nil {
			return recordError(locMeta, k, err)
		}
		if err := f(string(k[len(prefix):]), value); err != nil {
			return err
		}
	}
	return nil
}

// Setting returns the setting stored under key, or ErrNotFound.
func (db *DB) Setting(key string) ([]byte, error) {
	var v []byte
	err := db.bolt.View(func(tx *bolt.Tx) error {
		b, err := getRaw(tx.Bucket(bucketMeta), locMeta, []byte(settingPrefix+key))
		if b == nil && err == nil {
			return ErrNotFound
		}
		v = append([]byte(nil), b...)
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("setting %s: %w", key, err)
	}
	return v, nil
}
