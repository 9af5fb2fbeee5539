package store

import (
	"encoding/binary"
	"fmt"
	"strconv"

	bolt "go.etcd.io/bbolt"
)

// SchemaVersion is the version of the database layout this package writes.
const SchemaVersion = 1

// appName marks a bbolt file as an arbiter database.
const appName = "arbiter-event-db"

// Top-level buckets. The layout (version 1):
//
//	meta        "app" -> appName, "schema" -> decimal version
//	tournaments <id>  -> Tournament
//	players     <tournament id><start number> -> Player
//	rounds      <tournament id><round> -> Round (with its pairings)
//	games       <id>  -> Game
//	moves       <game id> (bucket) / <ply> -> Move
//	alerts      <id>  -> Alert
//	actions     <id>  -> Action
//	raw         <board id> (bucket) / <seq> -> Frame
//
// Integer keys are big-endian so that cursor order is numeric order.
var (
	bucketMeta        = []byte("meta")
	bucketTournaments = []byte("tournaments")
	bucketPlayers     = []byte("players")
	bucketRounds      = []byte("rounds")
	bucketGames       = []byte("games")
	bucketMoves       = []byte("moves")
	bucketAlerts      = []byte("alerts")
	bucketActions     = []byte("actions")
	bucketRaw         = []byte("raw")

	allBuckets = [][]byte{bucketMeta, bucketTournaments, bucketPlayers, bucketRounds,
		bucketGames, bucketMoves, bucketAlerts, bucketActions, bucketRaw}

	keyApp    = []byte("app")
	keySchema = []byte("schema")
)

// A migration upgrades a database from version From to From+1 inside one
// transaction, so a crash leaves either the old or the new version.
type migration struct {
	From int
	Do   func(tx *bolt.Tx) error
}

// migrations lists every upgrade in order. Version 1 is the first layout,
// so there is nothing to upgrade yet; the machinery is exercised by tests.
var migrations []migration

// prepare checks the identity and version of an existing database, or lays
// out a new one, and runs pending migrations.
func (db *DB) prepare(existing bool) error {
	if db.bolt.IsReadOnly() {
		return db.bolt.View(func(tx *bolt.Tx) error {
			v, err := readVersion(tx)
			if err != nil {
				return err
			}
			if v != SchemaVersion {
				return fmt.Errorf("schema version %d needs migrating to %d: open it read-write first", v, SchemaVersion)
			}
			return nil
		})
	}
	return db.bolt.Update(func(tx *bolt.Tx) error {
		if tx.Bucket(bucketMeta) == nil {
			if existing && hasAnyBucket(tx) {
				return ErrForeign
			}
			return layout(tx)
		}
		v, err := readVersion(tx)
		if err != nil {
			return err
		}
		return migrate(tx, v, migrations)
	})
}

func hasAnyBucket(tx *bolt.Tx) bool {
	found := false
	_ = tx.ForEach(func([]byte, *bolt.Bucket) error { found = true; return nil })
	return found
}

func layout(tx *bolt.Tx) error {
	for _, name := range allBuckets {
		if _, err := tx.CreateBucketIfNotExists(name); err != nil {
			return fmt.Errorf("create bucket %s: %w", name, err)
		}
	}
	meta := tx.Bucket(bucketMeta)
	if err := meta.Put(keyApp, []byte(appName)); err != nil {
		return err
	}
	return meta.Put(keySchema, []byte(strconv.Itoa(SchemaVersion)))
}

func readVersion(tx *bolt.Tx) (int, error) {
	meta := tx.Bucket(bucketMeta)
	if meta == nil || string(meta.Get(keyApp)) != appName {
		return 0, ErrForeign
	}
	v, err := strconv.Atoi(string(meta.Get(keySchema)))
	if err != nil || v < 1 {
		return 0, fmt.Errorf("%w: bad schema version record %q", ErrCorrupt, meta.Get(keySchema))
	}
	if v > SchemaVersion {
		return 0, fmt.Errorf("%w: file has version %d, this arbiter writes %d", ErrTooNew, v, SchemaVersion)
	}
	return v, nil
}

// migrate runs the migrations from version v up to the last one in ms and
// records the new version.
func migrate(tx *bolt.Tx, v int, ms []migration) error {
	for _, m := range ms {
		if m.From < v {
			continue
		}
		if m.From != v {
			return fmt.Errorf("no migration from schema version %d", v)
		}
		if err := m.Do(tx); err != nil {
			return fmt.Errorf("migrate schema %d to %d: %w", v, v+1, err)
		}
		v++
	}
	return tx.Bucket(bucketMeta).Put(keySchema, []byte(strconv.Itoa(v)))
}

// Version returns the schema version of the open database.
func (db *DB) Version() (int, error) {
	var v int
	err := db.bolt.View(func(tx *bolt.Tx) error {
		var err error
		v, err = readVersion(tx)
		return err
	})
	return v, err
}

func u64key(n uint64) []byte {
	var b [8]byte
	binary.BigEndian.PutUint64(b[:], n)
	return b[:]
}

func u32key(n uint32) []byte {
	var b [4]byte
	binary.BigEndian.PutUint32(b[:], n)
	return b[:]
}

func pairKey(a uint64, b uint32) []byte {
	var k [12]byte
	binary.BigEndian.PutUint64(k[:8], a)
	binary.BigEndian.PutUint32(k[8:], b)
	return k[:]
}
