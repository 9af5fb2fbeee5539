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
	if len(l) > 0 {
		if name, ok := recordNamers[string(l[0])]; ok {
			if s, ok := name(l, key); ok {
				return s
			}
		}
	}
	return fmt.Sprintf("record %s of bucket %s", keyName(key), l)
}

// A recordNamer names the record at key of the bucket at l, if its key
// is what the bucket's keys are.
type recordNamer func(l loc, key []byte) (string, bool)

// recordNamers name the records of each top-level bucket.
var recordNamers = map[string]recordNamer{
	string(bucketGames):        idNamer("game %d"),
	string(bucketAlerts):       idNamer("alert %d"),
	string(bucketActions):      idNamer("action %d (audit log)"),
	string(bucketTournaments):  idNamer("tournament %d"),
	string(bucketOutbox):       idNamer("outbox cursor of game %d"),
	string(bucketPlayers):      pairNamer("player %d of tournament %d"),
	string(bucketRounds):       pairNamer("round %d of tournament %d"),
	string(bucketInbox):        hallNamer("inbox entry of hall %s game %d"),
	string(bucketInboxAlerts):  hallNamer("inbox entry of hall %s alert %d"),
	string(bucketInboxActions): hallNamer("inbox entry of hall %s action %d"),
	string(bucketMoves): func(l loc, key []byte) (string, bool) {
		if len(l) != 2 || len(l[1]) != 8 || len(key) != 4 {
			return "", false
		}
		return fmt.Sprintf("game %d move %d", beUint64(l[1]), beUint32(key)), true
	},
	string(bucketRaw): func(l loc, key []byte) (string, bool) {
		if len(l) != 2 || len(key) != 8 {
			return "", false
		}
		return fmt.Sprintf("raw frame %d of board %s", beUint64(key), keyName(l[1])), true
	},
	string(bucketMeta): func(_ loc, key []byte) (string, bool) {
		if k := string(key); len(k) > len(settingPrefix) && k[:len(settingPrefix)] == settingPrefix {
			return "setting " + keyName(key[len(settingPrefix):]), true
		}
		return "schema record " + keyName(key), true
	},
}

// idNamer names records keyed by an 8-byte ID with format.
func idNamer(format string) recordNamer {
	return func(_ loc, key []byte) (string, bool) {
		if len(key) != 8 {
			return "", false
		}
		return fmt.Sprintf(format, beUint64(key)), true
	}
}

// pairNamer names records keyed by a tournament ID and a 4-byte number
// with format, which takes the number, then the tournament.
func pairNamer(format string) recordNamer {
	return func(_ loc, key []byte) (string, bool) {
		if len(key) != 12 {
			return "", false
		}
		return fmt.Sprintf(format, beUint32(key[8:]), beUint64(key[:8])), true
	}
}

// hallNamer names records keyed by a hall's name, a zero byte and an
// 8-byte ID with format, which takes the hall, then the ID.
func hallNamer(format string) recordNamer {
	return func(_ loc, key []byte) (string, bool) {
		i := len(key) - 9
		if i < 1 || key[i] != 0 {
			return "", false
		}
		return fmt.Sprintf(format, keyName(key[:i]), beUint64(key[i+1:])), true
	}
}
