// Package store keeps an event in a bbolt database: tournaments, players,
// rounds and pairings, games with every move and its clock times, alerts,
// arbiter actions, and the raw sensor log of every board.
//
// The store is the one source of truth. A move, a result or an arbiter
// action is acknowledged only after its transaction has committed with an
// fsync (the store never sets NoSync), so whatever a caller was told is
// stored survives a power cut. The raw sensor log is written in small
// groups by a [RawLog], never more than [MaxRawLag] behind.
//
// Records are stored as JSON, one value per key, each sealed with a
// checksum of its key and bytes, under a versioned schema (see
// [SchemaVersion]); opening a database of an older version migrates it,
// and a file that is not an arbiter database is refused and never written
// to. Damage is noticed: before its first write, [Open] checks both of
// bbolt's meta pages (bbolt itself would silently open the previous
// transaction when the newer one is damaged; see [MetaError] and
// [Repair]), every page, and every record's checksum, naming the damaged
// record ([RecordError]); reads check the checksums too.
package store
