package store

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	bolt "go.etcd.io/bbolt"
)

// Federation buckets, created on first use (a single-hall event never has
// them):
//
//	outbox  <game id> -> OutboxCursor     (hall: what was published)
//	inbox   <hall>\x00<hall game id> -> hub game id (hub: what was imported)
var (
	bucketOutbox = []byte("outbox")
	bucketInbox  = []byte("inbox")

	locOutbox = loc{bucketOutbox}
	locInbox  = loc{bucketInbox}
)

// ErrOutOfOrder is returned when an imported move does not follow the last
// stored move of its game.
var ErrOutOfOrder = errors.New("move out of order")

// OutboxCursor is how far the facts of one game have been published and
// acknowledged by the federation stream.
type OutboxCursor struct {
	Game   bool `json:"game,omitempty"`   // the game record
	Ply    int  `json:"ply,omitempty"`    // moves up to this ply
	Result bool `json:"result,omitempty"` // the result
}

// OutboxItem is one game with the facts not yet published: the game
// record, the moves after the cursor in ply order, and whether its result
// is still to publish (Game.Result set and Cursor.Result false).
type OutboxItem struct {
	Game   Game
	Cursor OutboxCursor
	Moves  []Move
	// Behind is set when the store holds fewer moves than the cursor (an
	// arbiter's correction truncated published moves).
	Behind bool
}

// Done reports whether the item has nothing left to publish.
func (it OutboxItem) Done() bool {
	return it.Cursor.Game && len(it.Moves) == 0 && (it.Game.Result == "" || it.Cursor.Result)
}

// OutboxPending reads from the store, in one transaction, every game with
// facts after its outbox cursor, in game ID order; at most maxMoves moves
// are returned in all (0: no limit), so a long backlog is sent in parts.
func (db *DB) OutboxPending(maxMoves int) ([]OutboxItem, error) {
	var items []OutboxItem
	err := db.bolt.View(func(tx *bolt.Tx) error {
		total := 0
		c := tx.Bucket(bucketGames).Cursor()
		for k, v := c.First(); k != nil; k, v = c.Next() {
			left := -1 // moves that may still be returned; -1: no limit
			if maxMoves > 0 {
				left = maxMoves - total
			}
			it, err := outboxItem(tx, k, v, left)
			if err != nil {
				return err
			}
			if it == nil {
				continue // finished and published
			}
			total += len(it.Moves)
			if !it.Done() || it.Behind {
				items = append(items, *it)
			}
			if maxMoves > 0 && total >= maxMoves {
				break
			}
		}
		return nil
	})
	return items, err
}

// outboxItem reads, in tx, what is still to publish of the game v stored
// under key k, with at most left of its moves (-1: all): nil when the game
// is finished and published.
func outboxItem(tx *bolt.Tx, k, v []byte, left int) (*OutboxItem, error) {
	var cur OutboxCursor
	if out := tx.Bucket(bucketOutbox); out != nil {
		if err := get(out, locOutbox, k, &cur); err != nil && !errors.Is(err, ErrNotFound) {
			return nil, err
		}
	}
	if cur.Game && cur.Result {
		return nil, nil // finished and published
	}
	g, err := decode[Game](locGames, k, v)
	if err != nil {
		return nil, err
	}
	mb := tx.Bucket(bucketMoves).Bucket(k)
	last := lastPly(mb)
	it := &OutboxItem{Game: g, Cursor: cur, Behind: last < cur.Ply}
	if it.Moves, err = movesAfter(mb, k, cur.Ply, left); err != nil {
		return nil, err
	}
	if len(it.Moves) > 0 && it.Moves[len(it.Moves)-1].Ply < last {
		// Moves left for the next call: the result must wait for them.
		it.Game.Result = ""
	}
	return it, nil
}

// movesAfter reads the moves after ply from mb, the move bucket of the
// game stored under key k (nil: none), at most n of them (-1: all).
func movesAfter(mb *bolt.Bucket, k []byte, ply, n int) ([]Move, error) {
	if mb == nil {
		return nil, nil
	}
	var moves []Move
	mc := mb.Cursor()
	for mk, mv := mc.Seek(u32key(uint32(ply + 1))); mk != nil && len(moves) != n; mk, mv = mc.Next() {
		m, err := decode[Move](loc{bucketMoves, k}, mk, mv)
		if err != nil {
			return nil, err
		}
		moves = append(moves, m)
	}
	return moves, nil
}

// lastPly returns the ply of the last move in mb, 0 if there is none.
func lastPly(mb *bolt.Bucket) int {
	if mb == nil {
		return 0
	}
	if k, _ := mb.Cursor().Last(); k != nil {
		return int(beUint32(k))
	}
	return 0
}

// SetOutboxCursors records, in one transaction, how far the facts of the
// given games have been published. A cursor never moves back.
func (db *DB) SetOutboxCursors(cursors map[uint64]OutboxCursor) error {
	if len(cursors) == 0 {
		return nil
	}
	return db.update(func(tx *bolt.Tx) error {
		b, err := tx.CreateBucketIfNotExists(bucketOutbox)
		if err != nil {
			return fmt.Errorf("create bucket %s: %w", bucketOutbox, err)
		}
		for id, c := range cursors {
			var old OutboxCursor
			if err := get(b, locOutbox, u64key(id), &old); err != nil && !errors.Is(err, ErrNotFound) {
				return fmt.Errorf("outbox cursor of game %d: %w", id, err)
			}
			c.Game = c.Game || old.Game
			c.Result = c.Result || old.Result
			c.Ply = max(c.Ply, old.Ply)
			if err := put(b, u64key(id), &c); err != nil {
				return err
			}
		}
		return nil
	})
}

// OutboxCursorOf returns the outbox cursor of a game (zero if nothing of it
// was published).
func (db *DB) OutboxCursorOf(gameID uint64) (OutboxCursor, error) {
	var c OutboxCursor
	err := db.bolt.View(func(tx *bolt.Tx) error {
		b := tx.Bucket(bucketOutbox)
		if b == nil {
			return nil
		}
		if err := get(b, locOutbox, u64key(gameID), &c); err != nil && !errors.Is(err, ErrNotFound) {
			return err
		}
		return nil
	})
	if err != nil {
		return c, fmt.Errorf("outbox cursor of game %d: %w", gameID, err)
	}
	return c, nil
}

func inboxKey(hall string, hallGame uint64) []byte {
	return append(append([]byte(hall), 0), u64key(hallGame)...)
}

// ImportTx is one transaction of a hub's imports (ImportBatch).
type ImportTx struct{ tx *bolt.Tx }

// ImportBatch applies fn's imports in one transaction, committed with one
// write to disk when fn returns nil; an error from fn undoes them all.
func (db *DB) ImportBatch(fn func(*ImportTx) error) error {
	return db.update(func(tx *bolt.Tx) error { return fn(&ImportTx{tx}) })
}

// ImportGame stores, on the hub, a game a hall played, once: it returns the
// hub's ID of the game, and whether it was new. In the same transaction it
// links the game to its board in the hub's round (the hub pairs), after
// checking that the hall plays the players paired there.
func (db *DB) ImportGame(hall string, hallGame uint64, g Game) (id uint64, created bool, err error) {
	err = db.ImportBatch(func(t *ImportTx) error {
		id, created, err = t.Game(hall, hallGame, g)
		return err
	})
	return id, created, err
}

// Game is ImportGame within the batch.
func (t *ImportTx) Game(hall string, hallGame uint64, g Game) (uint64, bool, error) {
	if hall == "" || strings.ContainsRune(hall, 0) {
		return 0, false, fmt.Errorf("import game %d: bad hall name %q", hallGame, hall)
	}
	id, created, err := func() (uint64, bool, error) {
		tx := t.tx
		in, err := tx.CreateBucketIfNotExists(bucketInbox)
		if err != nil {
			return 0, false, fmt.Errorf("create bucket %s: %w", bucketInbox, err)
		}
		key := inboxKey(hall, hallGame)
		if id, ok, err := getID(in, locInbox, key); err != nil || ok {
			return id, false, err
		}
		games := tx.Bucket(bucketGames)
		g.ID, g.Position, g.Result, g.Reason, g.Ended = 0, "", "", "", time.Time{}
		if g.TournamentID != 0 && g.Round != 0 {
			if err := linkPairing(tx, &g, hall, hallGame, games.NextSequence); err != nil {
				return 0, false, err
			}
		}
		if g.ID == 0 {
			if g.ID, err = games.NextSequence(); err != nil {
				return 0, false, err
			}
		}
		if _, err := tx.Bucket(bucketMoves).CreateBucketIfNotExists(u64key(g.ID)); err != nil {
			return 0, false, err
		}
		if err := put(games, u64key(g.ID), &g); err != nil {
			return 0, false, err
		}
		return g.ID, true, putRaw(in, key, u64key(g.ID))
	}()
	if err != nil {
		return 0, false, fmt.Errorf("import game %d of hall %s: %w", hallGame, hall, err)
	}
	return id, created, nil
}

// linkPairing gives g the ID of its board in the hub's round: the game the
// hub made when it paired the round, if it is still waiting for its hall
// (no moves, no result, no hall's game), or a new one from next.
func linkPairing(tx *bolt.Tx, g *Game, hall string, hallGame uint64, next func() (uint64, error)) error {
	rounds := tx.Bucket(bucketRounds)
	key := pairKey(g.TournamentID, uint32(g.Round))
	var r Round
	if err := get(rounds, locRounds, key, &r); err != nil {
		return fmt.Errorf("round %d of tournament %d: %w", g.Round, g.TournamentID, err)
	}
	for i := range r.Pairings {
		p := &r.Pairings[i]
		if p.Board != g.BoardNo {
			continue
		}
		if p.First != g.FirstID || p.Second != g.SecondID {
			return fmt.Errorf("tournament %d round %d board %d is paired %d-%d, but hall %s game %d plays %d-%d",
				g.TournamentID, g.Round, g.BoardNo, p.First, p.Second, hall, hallGame, g.FirstID, g.SecondID)
		}
		if p.GameID != 0 {
			if !awaitsHall(tx, p.GameID) {
				return fmt.Errorf("tournament %d round %d board %d already has game %d", g.TournamentID, g.Round, g.BoardNo, p.GameID)
			}
			g.ID = p.GameID
			return nil
		}
		id, err := next()
		if err != nil {
			return err
		}
		g.ID, p.GameID = id, id
		return put(rounds, key, &r)
	}
	return fmt.Errorf("tournament %d round %d: board %d: %w", g.TournamentID, g.Round, g.BoardNo, ErrNotFound)
}

// awaitsHall reports whether game id is one the hub made when it paired a
// round and no hall has played yet: no moves, no result, and no hall's
// game imported into it.
func awaitsHall(tx *bolt.Tx, id uint64) bool {
	var g Game
	if err := get(tx.Bucket(bucketGames), locGames, u64key(id), &g); err != nil || g.Result != "" {
		return false
	}
	if lastPly(tx.Bucket(bucketMoves).Bucket(u64key(id))) != 0 {
		return false
	}
	in := tx.Bucket(bucketInbox)
	c := in.Cursor()
	for k, _ := c.First(); k != nil; k, _ = c.Next() {
		if hub, _, err := getID(in, locInbox, k); err != nil || hub == id {
			return false
		}
	}
	return true
}

// ImportedGame returns the hub's ID of a hall's game.
func (db *DB) ImportedGame(hall string, hallGame uint64) (id uint64, err error) {
	err = db.bolt.View(func(tx *bolt.Tx) error {
		id, err = importedGame(tx, hall, hallGame)
		return err
	})
	return id, err
}

// HallGames returns, on the hub, the hall each imported game came from,
// by the hub's game ID.
func (db *DB) HallGames() (map[uint64]string, error) {
	out := map[uint64]string{}
	err := db.bolt.View(func(tx *bolt.Tx) error {
		in := tx.Bucket(bucketInbox)
		if in == nil {
			return nil
		}
		return in.ForEach(func(k, _ []byte) error {
			i := len(k) - 9
			if i < 1 || k[i] != 0 {
				return recordError(locInbox, k, errors.New("not a hall's game"))
			}
			hub, _, err := getID(in, locInbox, k)
			if err != nil {
				return err
			}
			out[hub] = string(k[:i])
			return nil
		})
	})
	if err != nil {
		return nil, fmt.Errorf("hall games: %w", err)
	}
	return out, nil
}

func importedGame(tx *bolt.Tx, hall string, hallGame uint64) (uint64, error) {
	in := tx.Bucket(bucketInbox)
	if in == nil {
		return 0, fmt.Errorf("game %d of hall %s: %w", hallGame, hall, ErrNotFound)
	}
	id, ok, err := getID(in, locInbox, inboxKey(hall, hallGame))
	if err == nil && !ok {
		err = ErrNotFound
	}
	if err != nil {
		return 0, fmt.Errorf("game %d of hall %s: %w", hallGame, hall, err)
	}
	return id, nil
}

// ImportMove stores, on the hub, a move of an imported game exactly once:
// a move at a ply already stored is skipped (applied false) if it is the
// same move and refused with ErrDuplicate if not; a move that does not
// follow the last stored ply is refused with ErrOutOfOrder.
func (db *DB) ImportMove(hall string, hallGame uint64, m Move) (applied bool, err error) {
	err = db.ImportBatch(func(t *ImportTx) error {
		applied, err = t.Move(hall, hallGame, m)
		return err
	})
	return applied, err
}

// Move is ImportMove within the batch.
func (t *ImportTx) Move(hall string, hallGame uint64, m Move) (applied bool, err error) {
	id, err := importedGame(t.tx, hall, hallGame)
	if err != nil {
		return false, fmt.Errorf("import move %d: %w", m.Ply, err)
	}
	m.GameID = id
	data, err := json.Marshal(&m)
	if err != nil {
		return false, fmt.Errorf("encode move: %w", err)
	}
	mb := t.tx.Bucket(bucketMoves).Bucket(u64key(id))
	if last := lastPly(mb); m.Ply > last+1 {
		return false, fmt.Errorf("import move of hall %s game %d: ply %d after ply %d: %w", hall, hallGame, m.Ply, last, ErrOutOfOrder)
	}
	// appendMove skips the very same move at a stored ply and refuses a
	// different one with ErrDuplicate.
	applied = mb != nil && mb.Get(u32key(uint32(m.Ply))) == nil
	if err := appendMove(t.tx, &m, data); err != nil {
		return false, fmt.Errorf("import move of hall %s game %d: %w", hall, hallGame, err)
	}
	return applied, nil
}

// ImportResult records, on the hub, the result of an imported game (and
// the tournament result of its pairing) once the hub holds the plies moves
// the hall had when it published the result; before, it fails with
// ErrOutOfOrder. Recording it again is harmless.
func (db *DB) ImportResult(hall string, hallGame uint64, result, reason string, ended time.Time, plies int) error {
	return db.ImportBatch(func(t *ImportTx) error { return t.Result(hall, hallGame, result, reason, ended, plies) })
}

// Result is ImportResult within the batch.
func (t *ImportTx) Result(hall string, hallGame uint64, result, reason string, ended time.Time, plies int) error {
	id, err := importedGame(t.tx, hall, hallGame)
	if err != nil {
		return fmt.Errorf("import result: %w", err)
	}
	if last := lastPly(t.tx.Bucket(bucketMoves).Bucket(u64key(id))); last < plies {
		return fmt.Errorf("import result of hall %s game %d: after %d moves, the hub has %d: %w", hall, hallGame, plies, last, ErrOutOfOrder)
	}
	return setResult(t.tx, id, result, reason, ended, nil)
}

// ImportedGame is DB.ImportedGame within the batch.
func (t *ImportTx) ImportedGame(hall string, hallGame uint64) (uint64, error) {
	return importedGame(t.tx, hall, hallGame)
}
