package store

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"strconv"
)

// Every value the store writes is sealed (schema 2): a format byte, the
// CRC-32C (Castagnoli) of the record's key and payload, big-endian, then
// the payload: a JSON document, an ID, a setting. The checksum covers the
// key, so a record that moved to another key is caught as well as one
// whose bytes changed. The format byte is one that no JSON or UTF-8 text
// begins with, and none of its one-bit changes is either, so that a value
// of schema 1, written before records were sealed (JSON, or an 8-byte ID),
// is told apart from a sealed one by its first byte. Only the schema's own
// marks in the meta bucket ("app", "schema") stay bare, so that any
// version can tell what the file is.
const (
	sealFormat = 0xA5
	sealHeader = 5
)

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// recordSum is the checksum of the record payload stored under key.
func recordSum(key, payload []byte) uint32 {
	return crc32.Update(crc32.Checksum(key, castagnoli), castagnoli, payload)
}

// seal returns the stored form of payload under key.
func seal(key, payload []byte) []byte {
	out := make([]byte, sealHeader+len(payload))
	out[0] = sealFormat
	binary.BigEndian.PutUint32(out[1:], recordSum(key, payload))
	copy(out[sealHeader:], payload)
	return out
}

// Errors of a stored record's seal.
var (
	errChecksum = errors.New("checksum mismatch")
	errNoSeal   = errors.New("the record carries no checksum, though the database's schema seals every record")
)

// unseal returns the payload of the value v stored under key, after
// checking its checksum. A value that is not sealed was written by schema
// 1: it is returned as it is, with sealed false. The payload shares v's
// memory.
func unseal(key, v []byte) (payload []byte, sealed bool, err error) {
	if len(v) == 0 || v[0] != sealFormat {
		return v, false, nil
	}
	if len(v) < sealHeader {
		return nil, true, fmt.Errorf("%w: the record is %d bytes, shorter than its seal", errChecksum, len(v))
	}
	want := binary.BigEndian.Uint32(v[1:])
	if got := recordSum(key, v[sealHeader:]); got != want {
		return nil, true, fmt.Errorf("%w (stored %08x, computed %08x)", errChecksum, want, got)
	}
	return v[sealHeader:], true, nil
}

// RecordError is a stored record that cannot be read: damaged on disk (its
// checksum does not match), or not what its bucket holds. It wraps
// ErrCorrupt.
type RecordError struct {
	// Bucket is the bucket's path ("moves/38") and Key the record's key.
	Bucket string
	Key    []byte
	// Record names the record for people: "game 38 move 41", "raw frame
	// 7 of board TB-0001", "action 12 (audit log)".
	Record string
	Err    error
}

func (e *RecordError) Error() string {
	return fmt.Sprintf("%s (bucket %s, key %x): %v", e.Record, e.Bucket, e.Key, e.Err)
}

func (e *RecordError) Unwrap() []error { return []error{ErrCorrupt, e.Err} }

// loc is where a bucket lies: the names of the buckets from the top.
type loc [][]byte

// recordError is the RecordError of the record at key of the bucket at l.
func recordError(l loc, key []byte, err error) *RecordError {
	return &RecordError{Bucket: l.String(), Key: append([]byte(nil), key...), Record: recordName(l, key), Err: err}
}

// String is the bucket's path, nested buckets by their names in the form
// recordName gives them: "moves/38", "raw/TB-0001".
func (l loc) String() string {
	s := ""
	for i, name := range l {
		if i > 0 {
			s += "/"
		}
		if i == 1 && len(name) == 8 && (string(l[0]) == string(bucketMoves)) {
			s += strconv.FormatUint(beUint64(name), 10)
		} else {
			s += keyName(name)
		}
	}
	return s
}

// recordName names the record at key of the bucket at l for people.
func recordName(l loc, key []byte) string {
	top := ""
	if len(l) > 0 {
		top = string(l[0])
	}
	u64 := func(k []byte) (uint64, bool) {
		if len(k) != 8 {
			return 0, false
		}
		return beUint64(k), true
	}
	pair := func(k []byte) (uint64, uint32, bool) {
		if len(k) != 12 {
			return 0, 0, false
		}
		return beUint64(k[:8]), beUint32(k[8:]), true
	}
	hall := func(k []byte) (string, uint64, bool) {
		i := len(k) - 9
		if i < 1 || k[i] != 0 {
			return "", 0, false
		}
		return keyName(k[:i]), beUint64(k[i+1:]), true
	}
	switch {
	case top == string(bucketGames):
		if id, ok := u64(key); ok {
			return fmt.Sprintf("game %d", id)
		}
	case top == string(bucketMoves) && len(l) == 2:
		if g, ok := u64(l[1]); ok && len(key) == 4 {
			return fmt.Sprintf("game %d move %d", g, beUint32(key))
		}
	case top == string(bucketRaw) && len(l) == 2:
		if seq, ok := u64(key); ok {
			return fmt.Sprintf("raw frame %d of board %s", seq, keyName(l[1]))
		}
	case top == string(bucketAlerts):
		if id, ok := u64(key); ok {
			return fmt.Sprintf("alert %d", id)
		}
	case top == string(bucketActions):
		if id, ok := u64(key); ok {
			return fmt.Sprintf("action %d (audit log)", id)
		}
	case top == string(bucketTournaments):
		if id, ok := u64(key); ok {
			return fmt.Sprintf("tournament %d", id)
		}
	case top == string(bucketPlayers):
		if t, n, ok := pair(key); ok {
			return fmt.Sprintf("player %d of tournament %d", n, t)
		}
	case top == string(bucketRounds):
		if t, n, ok := pair(key); ok {
			return fmt.Sprintf("round %d of tournament %d", n, t)
		}
	case top == string(bucketMeta):
		if k := string(key); len(k) > len(settingPrefix) && k[:len(settingPrefix)] == settingPrefix {
			return "setting " + keyName(key[len(settingPrefix):])
		}
		return "schema record " + keyName(key)
	case top == string(bucketOutbox):
		if id, ok := u64(key); ok {
			return fmt.Sprintf("outbox cursor of game %d", id)
		}
	case top == string(bucketInbox):
		if h, id, ok := hall(key); ok {
			return fmt.Sprintf("inbox entry of hall %s game %d", h, id)
		}
	case top == string(bucketInboxAlerts):
		if h, id, ok := hall(key); ok {
			return fmt.Sprintf("inbox entry of hall %s alert %d", h, id)
		}
	case top == string(bucketInboxActions):
		if h, id, ok := hall(key); ok {
			return fmt.Sprintf("inbox entry of hall %s action %d", h, id)
		}
	}
	return fmt.Sprintf("record %s of bucket %s", keyName(key), l)
}
