package store

import (
	"fmt"

	bolt "go.etcd.io/bbolt"
)

// ImportRecord stores a whole game read from a record in one transaction:
// the game (created when g.ID is 0, else the stored game of that ID,
// which must have no move and no result yet, is replaced by g), its moves
// from ply 1, its result on the round's pairing when it has one, and the
// action that audits the import. Nothing is stored if any part fails. The
// moves' GameID and g.ID are set.
func (db *DB) ImportRecord(g *Game, moves []Move, a *Action) error {
	if a == nil || a.Who == "" || a.What == "" {
		return fmt.Errorf("import record: an action with who and what is required")
	}
	return db.update(func(tx *bolt.Tx) error {
		games := tx.Bucket(bucketGames)
		if err := importedGameID(tx, g); err != nil {
			return err
		}
		if err := put(games, u64key(g.ID), g); err != nil {
			return err
		}
		for i := range moves {
			moves[i].GameID = g.ID
			if moves[i].Ply != i+1 {
				return fmt.Errorf("game %d: move %d has ply %d", g.ID, i+1, moves[i].Ply)
			}
		}
		if err := appendMoves(tx, moves); err != nil {
			return err
		}
		if err := setPairingResult(tx, *g); err != nil {
			return err
		}
		a.GameID = g.ID
		return addAction(tx, a)
	})
}

// importedGameID gives g, a game being imported, a new ID and the bucket
// of its moves when its ID is 0; otherwise it checks, in tx, that the
// stored game of that ID has no move and no result yet.
func importedGameID(tx *bolt.Tx, g *Game) error {
	if g.ID == 0 {
		id, err := tx.Bucket(bucketGames).NextSequence()
		if err != nil {
			return err
		}
		g.ID = id
		_, err = tx.Bucket(bucketMoves).CreateBucketIfNotExists(u64key(id))
		return err
	}
	var old Game
	if err := get(tx.Bucket(bucketGames), locGames, u64key(g.ID), &old); err != nil {
		return fmt.Errorf("game %d: %w", g.ID, err)
	}
	if old.Result != "" {
		return fmt.Errorf("game %d already has the result %s", g.ID, old.Result)
	}
	mb := tx.Bucket(bucketMoves).Bucket(u64key(g.ID))
	if mb == nil {
		return fmt.Errorf("%w: game %d has no move bucket", ErrCorrupt, g.ID)
	}
	if k, _ := mb.Cursor().First(); k != nil {
		return fmt.Errorf("game %d already has moves", g.ID)
	}
	return nil
}
