package store

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	bolt "go.etcd.io/bbolt"
)

// ErrDuplicate is returned when a different move is stored again at a ply
// that already holds one.
var ErrDuplicate = errors.New("a different move is already stored at this ply")

// CreateGame stores a new game and sets its ID.
func (db *DB) CreateGame(g *Game) error {
	return db.update(func(tx *bolt.Tx) error {
		b := tx.Bucket(bucketGames)
		id, err := b.NextSequence()
		if err != nil {
			return err
		}
		g.ID = id
		if _, err := tx.Bucket(bucketMoves).CreateBucketIfNotExists(u64key(id)); err != nil {
			return err
		}
		return put(b, u64key(id), g)
	})
}

// UpdateGame replaces a stored game (its clock snapshot, position, board).
func (db *DB) UpdateGame(g *Game) error {
	return db.update(func(tx *bolt.Tx) error { return updateGame(tx, g) })
}

// ChangeGame replaces a stored game as the arbiter's action a changed it
// (a handicap, a start), with the action, in one transaction.
func (db *DB) ChangeGame(g *Game, a *Action) error {
	if a == nil || a.Who == "" || a.What == "" {
		return fmt.Errorf("change game %d: an action with who and what is required", g.ID)
	}
	return db.update(func(tx *bolt.Tx) error {
		if err := updateGame(tx, g); err != nil {
			return err
		}
		return addAction(tx, a)
	})
}

func updateGame(tx *bolt.Tx, g *Game) error {
	b := tx.Bucket(bucketGames)
	if b.Get(u64key(g.ID)) == nil {
		return fmt.Errorf("game %d: %w", g.ID, ErrNotFound)
	}
	return put(b, u64key(g.ID), g)
}

// SetGameState stores a running game's clock state after ply moves and
// each side's illegal moves, in one transaction that changes nothing else
// of the game: what a restart resumes between moves.
func (db *DB) SetGameState(id uint64, clock []byte, ply int, illegal [2]int) error {
	return db.update(func(tx *bolt.Tx) error {
		b := tx.Bucket(bucketGames)
		var g Game
		if err := get(b, locGames, u64key(id), &g); err != nil {
			return fmt.Errorf("game %d: %w", id, err)
		}
		g.Clock, g.ClockPly, g.Illegal = clock, ply, illegal
		return put(b, u64key(id), &g)
	})
}

// Game returns the game with the given ID.
func (db *DB) Game(id uint64) (Game, error) {
	var g Game
	err := db.bolt.View(func(tx *bolt.Tx) error {
		return get(tx.Bucket(bucketGames), locGames, u64key(id), &g)
	})
	if err != nil {
		return g, fmt.Errorf("game %d: %w", id, err)
	}
	return g, nil
}

// Games returns every game in ID order.
func (db *DB) Games() ([]Game, error) {
	var gs []Game
	err := db.bolt.View(func(tx *bolt.Tx) error {
		var err error
		gs, err = list[Game](tx.Bucket(bucketGames), locGames, nil)
		return err
	})
	return gs, err
}

// AppendMove stores the next move of a game and returns once it is on
// disk: only then may the move be acknowledged. m.Ply must be one more than
// the last stored ply. Storing the very same move again (a retry after a
// crash or a lost acknowledgement) succeeds without duplicating it; a
// different move at a stored ply fails with ErrDuplicate.
func (db *DB) AppendMove(m *Move) error {
	data, err := json.Marshal(m)
	if err != nil {
		return fmt.Errorf("encode move: %w", err)
	}
	return db.update(func(tx *bolt.Tx) error {
		return appendMove(tx, m, data)
	})
}

// AppendMoves stores moves, the next plies of one game in order, with the
// action that entered them (moves copied from a scoresheet), in one
// transaction: all of them and the action, or nothing. Each move is
// stored as AppendMove stores it.
func (db *DB) AppendMoves(moves []Move, a *Action) error {
	if a == nil || a.Who == "" || a.What == "" {
		return errors.New("append moves: an action with who and what is required")
	}
	return db.update(func(tx *bolt.Tx) error {
		if err := addAction(tx, a); err != nil {
			return err
		}
		return appendMoves(tx, moves)
	})
}

// appendMoves stores moves in order, as AppendMove stores each.
func appendMoves(tx *bolt.Tx, moves []Move) error {
	for i := range moves {
		data, err := json.Marshal(&moves[i])
		if err != nil {
			return fmt.Errorf("encode move: %w", err)
		}
		if err := appendMove(tx, &moves[i], data); err != nil {
			return err
		}
	}
	return nil
}

func appendMove(tx *bolt.Tx, m *Move, data []byte) error {
	games := tx.Bucket(bucketGames)
	gameData := games.Get(u64key(m.GameID))
	if gameData == nil {
		return fmt.Errorf("move %d: game %d: %w", m.Ply, m.GameID, ErrNotFound)
	}
	moves := tx.Bucket(bucketMoves).Bucket(u64key(m.GameID))
	if moves == nil {
		return fmt.Errorf("%w: game %d has no move bucket", ErrCorrupt, m.GameID)
	}
	key := u32key(uint32(m.Ply))
	if old := moves.Get(key); old != nil {
		stored, _, err := unseal(key, old)
		if err != nil {
			return recordError(loc{bucketMoves, u64key(m.GameID)}, key, err)
		}
		if bytes.Equal(stored, data) {
			return nil
		}
		return fmt.Errorf("game %d ply %d: %w", m.GameID, m.Ply, ErrDuplicate)
	}
	if last := lastPly(moves); m.Ply != last+1 {
		return fmt.Errorf("game %d: move at ply %d, but the last stored ply is %d", m.GameID, m.Ply, last)
	}
	if err := putRaw(moves, key, data); err != nil {
		return err
	}
	// Keep the game's current position with its last move, in the same
	// transaction, so the two never disagree.
	var g Game
	if err := decodeInto(locGames, u64key(m.GameID), gameData, &g); err != nil {
		return err
	}
	g.Position = m.Position
	return put(games, u64key(g.ID), &g)
}

// Moves returns the stored moves of a game in ply order.
func (db *DB) Moves(gameID uint64) ([]Move, error) {
	var ms []Move
	err := db.bolt.View(func(tx *bolt.Tx) error {
		b := tx.Bucket(bucketMoves).Bucket(u64key(gameID))
		if b == nil {
			return fmt.Errorf("moves of game %d: %w", gameID, ErrNotFound)
		}
		var err error
		ms, err = list[Move](b, loc{bucketMoves, u64key(gameID)}, nil)
		return err
	})
	return ms, err
}

// TruncateMoves deletes the moves of a game from ply on, as an arbiter's
// correction does; the action explaining it is stored in the same
// transaction, so a correction is never without its reason.
func (db *DB) TruncateMoves(gameID uint64, ply int, position string, a *Action) error {
	if a == nil || a.Who == "" || a.Why == "" {
		return errors.New("truncate moves: an action with who and why is required")
	}
	return db.update(func(tx *bolt.Tx) error {
		moves := tx.Bucket(bucketMoves).Bucket(u64key(gameID))
		if moves == nil {
			return fmt.Errorf("game %d: %w", gameID, ErrNotFound)
		}
		c := moves.Cursor()
		for k, _ := c.Seek(u32key(uint32(ply))); k != nil; k, _ = c.Seek(u32key(uint32(ply))) {
			if err := moves.Delete(k); err != nil {
				return err
			}
		}
		var g Game
		games := tx.Bucket(bucketGames)
		if err := get(games, locGames, u64key(gameID), &g); err != nil {
			return err
		}
		g.Position = position
		if err := put(games, u64key(gameID), &g); err != nil {
			return err
		}
		a.GameID = gameID
		return addAction(tx, a)
	})
}

// ReplaceLastMove replaces the last stored move of a game by m, at the
// same ply (the reader's amended move: its mover changed it before the
// press made it final). The action explaining it is stored in the same
// transaction.
func (db *DB) ReplaceLastMove(m *Move, a *Action) error {
	if a == nil || a.Who == "" || a.Why == "" {
		return errors.New("replace move: an action with who and why is required")
	}
	data, err := json.Marshal(m)
	if err != nil {
		return fmt.Errorf("encode move: %w", err)
	}
	return db.update(func(tx *bolt.Tx) error {
		moves := tx.Bucket(bucketMoves).Bucket(u64key(m.GameID))
		if moves == nil {
			return fmt.Errorf("replace move: game %d: %w", m.GameID, ErrNotFound)
		}
		if last := lastPly(moves); last != m.Ply {
			return fmt.Errorf("replace move: game %d: ply %d is not the last stored ply %d", m.GameID, m.Ply, last)
		}
		if err := moves.Delete(u32key(uint32(m.Ply))); err != nil {
			return err
		}
		if err := appendMove(tx, m, data); err != nil {
			return err
		}
		a.GameID = m.GameID
		return addAction(tx, a)
	})
}

// SetResult records the end of a game, and the tournament result on its
// pairing if the game belongs to a round; it returns after the commit.
// An arbiter's decision passes the action that made it, stored in the same
// transaction; a result the rules decided passes nil.
func (db *DB) SetResult(gameID uint64, result, reason string, ended time.Time, a *Action) error {
	return db.update(func(tx *bolt.Tx) error { return setResult(tx, gameID, result, reason, ended, a) })
}

// setResult is SetResult within tx.
func setResult(tx *bolt.Tx, gameID uint64, result, reason string, ended time.Time, a *Action) error {
	games := tx.Bucket(bucketGames)
	var g Game
	if err := get(games, locGames, u64key(gameID), &g); err != nil {
		return fmt.Errorf("game %d: %w", gameID, err)
	}
	g.Result, g.Reason, g.Ended = result, reason, ended
	if err := put(games, u64key(gameID), &g); err != nil {
		return err
	}
	if err := setPairingResult(tx, g); err != nil {
		return err
	}
	if a != nil {
		a.GameID = gameID
		return addAction(tx, a)
	}
	return nil
}

// setPairingResult copies the result of a tournament game onto its
// round's pairing, as PairingResult has it.
func setPairingResult(tx *bolt.Tx, g Game) error {
	if g.TournamentID == 0 || g.Round == 0 {
		return nil
	}
	played := false
	if mb := tx.Bucket(bucketMoves).Bucket(u64key(g.ID)); mb != nil {
		k, _ := mb.Cursor().First()
		played = k != nil
	}
	result := PairingResult(g.Result, g.Reason, played)
	rounds := tx.Bucket(bucketRounds)
	key := pairKey(g.TournamentID, uint32(g.Round))
	var r Round
	if err := get(rounds, locRounds, key, &r); err != nil {
		if errors.Is(err, ErrNotFound) {
			return nil
		}
		return err
	}
	for i := range r.Pairings {
		if r.Pairings[i].GameID == g.ID {
			r.Pairings[i].Result = result
		}
	}
	return put(rounds, key, &r)
}

// PairingResult is the tournament result of a game's result: a game
// decided by forfeit before any move was played counts as a forfeit ("+/-"
// or "-/+", FIDE's "+" and "-"), not as a played game.
func PairingResult(result, reason string, played bool) string {
	if reason != "forfeit" || played {
		return result
	}
	switch result {
	case "1-0":
		return "+/-"
	case "0-1":
		return "-/+"
	}
	return result
}

func beUint32(b []byte) uint32 {
	return uint32(b[0])<<24 | uint32(b[1])<<16 | uint32(b[2])<<8 | uint32(b[3])
}
