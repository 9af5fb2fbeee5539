package store

import (
	"encoding/binary"
	"fmt"
	"strconv"

	bolt "go.etcd.io/bbolt"
)

// SchemaVersion is the version of the database layout this package writes.
//
//   - 1: the first layout below, records stored as bare JSON.
//   - 2: every record sealed with its checksum (record.go). A file of
//     version 1 is migrated at its first read-write open, its records
//     sealed in transactions of sealBatch records each; read-only opens
//     (db check, export, replay) read it as it is.
const SchemaVersion = 2

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

// The top-level buckets as locations, for naming their records.
var (
	locTournaments = loc{bucketTournaments}
	locPlayers     = loc{bucketPlayers}
	locRounds      = loc{bucketRounds}
	locGames       = loc{bucketGames}
	locAlerts      = loc{bucketAlerts}
	locActions     = loc{bucketActions}
	locMeta        = loc{bucketMeta}
)

// A migration upgrades a database from version From to From+1. Batches,
// if set, gives a step that runs first, again and again, each time in a
// transaction of its own, until it reports that it is done: a migration
// that rewrites every record keeps each transaction small that way. The
// version stays From meanwhile, so a crash leaves a file that the next
// open goes on migrating (a step takes records already migrated as they
// are). Do then runs in the transaction that records the new version, so
// a crash leaves either the old or the new version.
type migration struct {
	From    int
	Batches func() func(tx *bolt.Tx) (done bool, err error)
	Do      func(tx *bolt.Tx) error
}

// migrations lists every upgrade in order.
var migrations = []migration{
	{From: 1, Batches: func() func(*bolt.Tx) (bool, error) { return newSealer(sealBatch).step },
		Do: func(tx *bolt.Tx) error { _, err := newSealer(0).step(tx); return err }},
}

// sealBatch is how many records the migration to schema 2 seals in one
// transaction.
const sealBatch = 20000

// prepare checks the identity and version of an existing database, or lays
// out a new one, and runs pending migrations.
func (db *DB) prepare(existing bool) error {
	if db.bolt.IsReadOnly() {
		// Every version this package can read is read as it is (records
		// of schema 1 without their checksums).
		return db.bolt.View(func(tx *bolt.Tx) error {
			_, err := readVersion(tx)
			return err
		})
	}
	var v int
	err := db.bolt.Update(func(tx *bolt.Tx) error {
		if tx.Bucket(bucketMeta) == nil {
			if existing && hasAnyBucket(tx) {
				return ErrForeign
			}
			v = SchemaVersion
			return layout(tx)
		}
		var err error
		v, err = readVersion(tx)
		return err
	})
	if err != nil || v == SchemaVersion {
		return err
	}
	return db.migrate(v, migrations)
}

// migrate runs the migrations of ms from version v on, each in
// transactions of its own: its batches, then its last step with the new
// version.
func (db *DB) migrate(v int, ms []migration) error {
	for _, m := range ms {
		if m.From < v {
			continue
		}
		if m.From != v {
			return fmt.Errorf("no migration from schema version %d", v)
		}
		fail := func(err error) error { return fmt.Errorf("migrate schema %d to %d: %w", v, v+1, err) }
		if m.Batches != nil {
			step := m.Batches()
			for done := false; !done; {
				err := db.bolt.Update(func(tx *bolt.Tx) error {
					var err error
					done, err = step(tx)
					return err
				})
				if err != nil {
					return fail(err)
				}
			}
		}
		err := db.bolt.Update(func(tx *bolt.Tx) error {
			if m.Do != nil {
				if err := m.Do(tx); err != nil {
					return err
				}
			}
			return tx.Bucket(bucketMeta).Put(keySchema, []byte(strconv.Itoa(v+1)))
		})
		if err != nil {
			return fail(err)
		}
		v++
	}
	return nil
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
