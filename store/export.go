package store

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"

	bolt "go.etcd.io/bbolt"
)

// ExportFormat names the portable event file: JSON Lines whose first line
// is a header {"format":ExportFormat,"version":N} and whose other lines are
// {"type":T,"data":{...}} with T one of tournament, player, round, game,
// move, alert, action, frame, setting.
const ExportFormat = "arbiter-event"

type exportLine struct {
	Type string          `json:"type"`
	Data json.RawMessage `json:"data"`
}

// exportVersion is the version of the export format. It is not the
// database's schema: an event exported by schema 2 reads as by schema 1
// (records are exported as their JSON, without their checksums).
const exportVersion = 1

type exportHeader struct {
	Format  string `json:"format"`
	Version int    `json:"version"`
}

var exportTypes = []struct {
	name   string
	bucket []byte
}{
	{"tournament", bucketTournaments},
	{"player", bucketPlayers},
	{"round", bucketRounds},
	{"game", bucketGames},
	{"alert", bucketAlerts},
	{"action", bucketActions},
}

// Export writes the whole event, raw sensor logs included, to w as one
// portable file, from a single consistent read transaction.
func (db *DB) Export(w io.Writer) error {
	bw := bufio.NewWriter(w)
	enc := json.NewEncoder(bw)
	err := db.bolt.View(func(tx *bolt.Tx) error {
		if err := enc.Encode(exportHeader{ExportFormat, exportVersion}); err != nil {
			return err
		}
		// line writes the record v stored at key k of the bucket at l.
		line := func(typ string, l loc, k, v []byte) error {
			data, _, err := unseal(k, v)
			if err != nil {
				return recordError(l, k, err)
			}
			return enc.Encode(exportLine{Type: typ, Data: data})
		}
		for _, t := range exportTypes {
			l := loc{t.bucket}
			err := tx.Bucket(t.bucket).ForEach(func(k, v []byte) error {
				if v == nil {
					return nil
				}
				return line(t.name, l, k, v)
			})
			if err != nil {
				return err
			}
		}
		err := forEachSetting(tx, func(key string, v []byte) error {
			b, err := json.Marshal(settingRecord{Key: key, Value: v})
			if err != nil {
				return err
			}
			return enc.Encode(exportLine{Type: "setting", Data: b})
		})
		if err != nil {
			return err
		}
		err = tx.Bucket(bucketMoves).ForEachBucket(func(gk []byte) error {
			l := loc{bucketMoves, gk}
			return tx.Bucket(bucketMoves).Bucket(gk).ForEach(func(k, v []byte) error { return line("move", l, k, v) })
		})
		if err != nil {
			return err
		}
		return tx.Bucket(bucketRaw).ForEachBucket(func(bk []byte) error {
			l := loc{bucketRaw, bk}
			return tx.Bucket(bucketRaw).Bucket(bk).ForEach(func(k, v []byte) error { return line("frame", l, k, v) })
		})
	})
	if err != nil {
		return fmt.Errorf("export: %w", err)
	}
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("export: %w", err)
	}
	return nil
}

// ErrNotEmpty is returned by Import into a database that already holds an
// event: importing never mixes two events or overwrites stored data.
var ErrNotEmpty = errors.New("database already holds an event")

// Import reads a file written by Export into this database, which must be
// empty, in one transaction: a malformed file leaves the database as it
// was. Errors name the line.
func (db *DB) Import(r io.Reader) error {
	return db.update(func(tx *bolt.Tx) error {
		for _, t := range exportTypes {
			if k, _ := tx.Bucket(t.bucket).Cursor().First(); k != nil {
				return fmt.Errorf("import: %w", ErrNotEmpty)
			}
		}
		sc := bufio.NewScanner(r)
		sc.Buffer(make([]byte, 0, 1<<16), 64<<20)
		n := 0
		seqs := map[string]uint64{}
		for sc.Scan() {
			n++
			if n == 1 {
				var h exportHeader
				if err := json.Unmarshal(sc.Bytes(), &h); err != nil || h.Format != ExportFormat {
					return fmt.Errorf("import line 1: not an %s file", ExportFormat)
				}
				if h.Version > exportVersion {
					return fmt.Errorf("import line 1: %w: file version %d", ErrTooNew, h.Version)
				}
				continue
			}
			var l exportLine
			if err := json.Unmarshal(sc.Bytes(), &l); err != nil {
				return fmt.Errorf("import line %d: %v", n, err)
			}
			if err := importLine(tx, l, seqs); err != nil {
				return fmt.Errorf("import line %d (%s): %w", n, l.Type, err)
			}
		}
		if err := sc.Err(); err != nil {
			return fmt.Errorf("import line %d: %w", n+1, err)
		}
		if n == 0 {
			return fmt.Errorf("import: empty file")
		}
		// Keep ID sequences ahead of the imported IDs.
		for name, seq := range seqs {
			if err := tx.Bucket([]byte(name)).SetSequence(seq); err != nil {
				return err
			}
		}
		return nil
	})
}

// importLine writes the record of line l, in tx, and raises seqs (the
// highest ID imported, by bucket name) to its ID if it has one.
func importLine(tx *bolt.Tx, l exportLine, seqs map[string]uint64) error {
	imp, ok := lineImporters[l.Type]
	if !ok {
		return fmt.Errorf("unknown record type %q", l.Type)
	}
	return imp(tx, l.Data, func(b []byte, id uint64) {
		if id > seqs[string(b)] {
			seqs[string(b)] = id
		}
	})
}

// A lineImporter writes the record data of one line of an export, in tx,
// and calls bump with its bucket and ID if it is given one from the
// bucket's sequence.
type lineImporter func(tx *bolt.Tx, data []byte, bump func(bucket []byte, id uint64)) error

// lineImporters import each type of line.
var lineImporters = map[string]lineImporter{
	"tournament": importTournament,
	"player":     importPlayer,
	"round":      importRound,
	"game":       importGame,
	"move":       importMove,
	"alert":      importAlert,
	"action":     importAction,
	"setting":    importSetting,
	"frame":      importFrame,
}

func importTournament(tx *bolt.Tx, data []byte, bump func([]byte, uint64)) error {
	t, err := fromJSON[Tournament](data)
	if err != nil || t.ID == 0 {
		return fmt.Errorf("bad tournament: %v", err)
	}
	bump(bucketTournaments, t.ID)
	return put(tx.Bucket(bucketTournaments), u64key(t.ID), &t)
}

func importPlayer(tx *bolt.Tx, data []byte, _ func([]byte, uint64)) error {
	p, err := fromJSON[Player](data)
	if err != nil || p.ID < 1 {
		return fmt.Errorf("bad player: %v", err)
	}
	return put(tx.Bucket(bucketPlayers), pairKey(p.TournamentID, uint32(p.ID)), &p)
}

func importRound(tx *bolt.Tx, data []byte, _ func([]byte, uint64)) error {
	r, err := fromJSON[Round](data)
	if err != nil || r.Number < 1 {
		return fmt.Errorf("bad round: %v", err)
	}
	return put(tx.Bucket(bucketRounds), pairKey(r.TournamentID, uint32(r.Number)), &r)
}

// importGame writes a game and the bucket of its moves.
func importGame(tx *bolt.Tx, data []byte, bump func([]byte, uint64)) error {
	g, err := fromJSON[Game](data)
	if err != nil || g.ID == 0 {
		return fmt.Errorf("bad game: %v", err)
	}
	bump(bucketGames, g.ID)
	if _, err := tx.Bucket(bucketMoves).CreateBucketIfNotExists(u64key(g.ID)); err != nil {
		return err
	}
	return put(tx.Bucket(bucketGames), u64key(g.ID), &g)
}

// importMove appends a move to its game's moves, as play does.
func importMove(tx *bolt.Tx, data []byte, _ func([]byte, uint64)) error {
	m, err := fromJSON[Move](data)
	if err != nil {
		return err
	}
	return appendMove(tx, &m, data)
}

func importAlert(tx *bolt.Tx, data []byte, bump func([]byte, uint64)) error {
	a, err := fromJSON[Alert](data)
	if err != nil || a.ID == 0 {
		return fmt.Errorf("bad alert: %v", err)
	}
	bump(bucketAlerts, a.ID)
	return put(tx.Bucket(bucketAlerts), u64key(a.ID), &a)
}

func importAction(tx *bolt.Tx, data []byte, bump func([]byte, uint64)) error {
	a, err := fromJSON[Action](data)
	if err != nil || a.ID == 0 {
		return fmt.Errorf("bad action: %v", err)
	}
	bump(bucketActions, a.ID)
	return put(tx.Bucket(bucketActions), u64key(a.ID), &a)
}

func importSetting(tx *bolt.Tx, data []byte, _ func([]byte, uint64)) error {
	r, err := fromJSON[settingRecord](data)
	if err != nil || r.Key == "" {
		return fmt.Errorf("bad setting: %v", err)
	}
	return putSetting(tx, r.Key, r.Value)
}

// importFrame writes a raw frame into its board's raw log.
func importFrame(tx *bolt.Tx, data []byte, _ func([]byte, uint64)) error {
	f, err := fromJSON[Frame](data)
	if err != nil || f.BoardID == "" || f.Seq == 0 {
		return fmt.Errorf("bad frame: %v", err)
	}
	b, err := tx.Bucket(bucketRaw).CreateBucketIfNotExists([]byte(f.BoardID))
	if err != nil {
		return err
	}
	return put(b, u64key(f.Seq), &f)
}
