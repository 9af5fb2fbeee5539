package store

import (
	"fmt"

	bolt "go.etcd.io/bbolt"
)

// CreateTournament stores a new tournament and sets its ID.
func (db *DB) CreateTournament(t *Tournament) error {
	return db.update(func(tx *bolt.Tx) error {
		b := tx.Bucket(bucketTournaments)
		id, err := b.NextSequence()
		if err != nil {
			return err
		}
		t.ID = id
		return put(b, u64key(id), t)
	})
}

// UpdateTournament replaces a stored tournament.
func (db *DB) UpdateTournament(t *Tournament) error {
	return db.update(func(tx *bolt.Tx) error {
		b := tx.Bucket(bucketTournaments)
		if b.Get(u64key(t.ID)) == nil {
			return fmt.Errorf("tournament %d: %w", t.ID, ErrNotFound)
		}
		return put(b, u64key(t.ID), t)
	})
}

// TournamentEdit is an arbiter's change to a tournament, which
// EditTournament stores whole.
type TournamentEdit struct {
	// Tournament is the tournament's new record; nil leaves it as it is.
	Tournament *Tournament
	// Players are the players added or changed.
	Players []*Player
	// Action audits the change; it needs who and what.
	Action *Action
	// Settles, if set, resolves the tournament's open alerts the change
	// settles, after Action.
	Settles *Settlement
}

// EditTournament changes tournament id as f decides from the tournament,
// its players and its rounds as stored, in one transaction: the
// tournament's new record, the players added or changed, the action and
// the alerts it settles are all stored, or, when f or any write fails,
// nothing is.
func (db *DB) EditTournament(id uint64, f func(st *TournamentState) (*TournamentEdit, error)) error {
	return db.update(func(tx *bolt.Tx) error {
		st, err := tournamentState(tx, id)
		if err != nil {
			return err
		}
		e, err := f(&st)
		if err != nil {
			return err
		}
		if e.Action == nil || e.Action.Who == "" || e.Action.What == "" {
			return fmt.Errorf("edit tournament %d: an action with who and what is required", id)
		}
		if t := e.Tournament; t != nil {
			if t.ID != id {
				return fmt.Errorf("edit tournament %d: the record of tournament %d given", id, t.ID)
			}
			if err := put(tx.Bucket(bucketTournaments), u64key(id), t); err != nil {
				return err
			}
		}
		for _, p := range e.Players {
			if p.TournamentID != id || p.ID < 1 {
				return fmt.Errorf("edit tournament %d: player %q of tournament %d, start number %d", id, p.Name, p.TournamentID, p.ID)
			}
			if err := put(tx.Bucket(bucketPlayers), pairKey(id, uint32(p.ID)), p); err != nil {
				return err
			}
		}
		if err := addAction(tx, e.Action); err != nil {
			return err
		}
		return settle(tx, id, e.Settles)
	})
}

// Tournament returns the tournament with the given ID.
func (db *DB) Tournament(id uint64) (Tournament, error) {
	var t Tournament
	err := db.bolt.View(func(tx *bolt.Tx) error {
		return get(tx.Bucket(bucketTournaments), locTournaments, u64key(id), &t)
	})
	if err != nil {
		return t, fmt.Errorf("tournament %d: %w", id, err)
	}
	return t, nil
}

// Tournaments returns every tournament in ID order.
func (db *DB) Tournaments() ([]Tournament, error) {
	var ts []Tournament
	err := db.bolt.View(func(tx *bolt.Tx) error {
		var err error
		ts, err = list[Tournament](tx.Bucket(bucketTournaments), locTournaments, nil)
		return err
	})
	return ts, err
}

// PutPlayer stores or replaces a player of a tournament.
func (db *DB) PutPlayer(p *Player) error {
	if p.ID < 1 {
		return fmt.Errorf("player %q: start number %d must be at least 1", p.Name, p.ID)
	}
	return db.update(func(tx *bolt.Tx) error {
		if tx.Bucket(bucketTournaments).Get(u64key(p.TournamentID)) == nil {
			return fmt.Errorf("player %q: tournament %d: %w", p.Name, p.TournamentID, ErrNotFound)
		}
		return put(tx.Bucket(bucketPlayers), pairKey(p.TournamentID, uint32(p.ID)), p)
	})
}

// Players returns the players of a tournament in start-number order.
func (db *DB) Players(tournamentID uint64) ([]Player, error) {
	var ps []Player
	err := db.bolt.View(func(tx *bolt.Tx) error {
		var err error
		ps, err = list[Player](tx.Bucket(bucketPlayers), locPlayers, u64key(tournamentID))
		return err
	})
	return ps, err
}

// PutRound stores or replaces a round with its pairings.
func (db *DB) PutRound(r *Round) error {
	if r.Number < 1 {
		return fmt.Errorf("round %d: must be at least 1", r.Number)
	}
	return db.update(func(tx *bolt.Tx) error {
		if tx.Bucket(bucketTournaments).Get(u64key(r.TournamentID)) == nil {
			return fmt.Errorf("round %d: tournament %d: %w", r.Number, r.TournamentID, ErrNotFound)
		}
		return put(tx.Bucket(bucketRounds), pairKey(r.TournamentID, uint32(r.Number)), r)
	})
}

// Rounds returns the rounds of a tournament in order.
func (db *DB) Rounds(tournamentID uint64) ([]Round, error) {
	var rs []Round
	err := db.bolt.View(func(tx *bolt.Tx) error {
		var err error
		rs, err = list[Round](tx.Bucket(bucketRounds), locRounds, u64key(tournamentID))
		return err
	})
	return rs, err
}

// SetPairingResult records the tournament result of one board of a round.
func (db *DB) SetPairingResult(tournamentID uint64, round, board int, result string) error {
	return db.update(func(tx *bolt.Tx) error {
		b := tx.Bucket(bucketRounds)
		key := pairKey(tournamentID, uint32(round))
		var r Round
		if err := get(b, locRounds, key, &r); err != nil {
			return fmt.Errorf("round %d of tournament %d: %w", round, tournamentID, err)
		}
		for i := range r.Pairings {
			if r.Pairings[i].Board == board {
				r.Pairings[i].Result = result
				return put(b, key, &r)
			}
		}
		return fmt.Errorf("board %d of round %d: %w", board, round, ErrNotFound)
	})
}
