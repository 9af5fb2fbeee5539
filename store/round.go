package store

import (
	"crypto/sha256"
	"errors"
	"fmt"

	bolt "go.etcd.io/bbolt"
)

// ErrStale is returned by CreateRound when the tournament changed since
// the round was paired (a result, a late entry, a withdrawal, another
// round): the round is not stored, and is to be paired again.
var ErrStale = errors.New("the tournament changed while the round was paired")

// TournamentState is what a tournament's next round is paired from, read
// in one transaction, with a digest of it to tell later whether it
// changed.
type TournamentState struct {
	Tournament Tournament
	Players    []Player
	Rounds     []Round
	Digest     [sha256.Size]byte
}

// TournamentState reads the tournament id, its players and its rounds in
// one transaction.
func (db *DB) TournamentState(id uint64) (st TournamentState, err error) {
	err = db.bolt.View(func(tx *bolt.Tx) error { st, err = tournamentState(tx, id); return err })
	return st, err
}

// tournamentState is TournamentState within transaction tx.
func tournamentState(tx *bolt.Tx, id uint64) (TournamentState, error) {
	var st TournamentState
	if err := get(tx.Bucket(bucketTournaments), locTournaments, u64key(id), &st.Tournament); err != nil {
		return st, fmt.Errorf("tournament %d: %w", id, err)
	}
	var err error
	if st.Players, err = list[Player](tx.Bucket(bucketPlayers), locPlayers, u64key(id)); err != nil {
		return st, err
	}
	if st.Rounds, err = list[Round](tx.Bucket(bucketRounds), locRounds, u64key(id)); err != nil {
		return st, err
	}
	st.Digest = tournamentDigest(tx, id)
	return st, nil
}

// tournamentDigest is the digest of the stored records of tournament id,
// its players and its rounds: it changes whenever any of them does.
func tournamentDigest(tx *bolt.Tx, id uint64) [sha256.Size]byte {
	h := sha256.New()
	add := func(k, v []byte) { // each with its length: no two lists read alike
		for _, b := range [][]byte{k, v} {
			h.Write(u64key(uint64(len(b))))
			h.Write(b)
		}
	}
	add(u64key(id), tx.Bucket(bucketTournaments).Get(u64key(id)))
	prefix := u64key(id)
	for _, name := range [][]byte{bucketPlayers, bucketRounds} {
		h.Write(name)
		c := tx.Bucket(name).Cursor()
		for k, v := c.Seek(prefix); k != nil && hasPrefix(k, prefix); k, v = c.Next() {
			add(k, v)
		}
	}
	var d [sha256.Size]byte
	h.Sum(d[:0])
	return d
}

// NewRound is a round as paired, for CreateRound to store whole.
type NewRound struct {
	// Round is the round with its pairings; a pairing whose board has a
	// game in Games is given that game's ID.
	Round Round
	// Games are the games of the round's boards (Game.BoardNo), given
	// their IDs when stored. A game whose Result is set is decided before
	// it starts (a forfeit: the absent player loses): its result is on
	// its pairing, with Decided's action for it.
	Games []*Game
	// Paired is the action that paired the round; Decided the action of
	// each decided game, by its index in Games.
	Paired  *Action
	Decided map[int]*Action
	// From is the digest of the TournamentState the round was paired
	// from.
	From [sha256.Size]byte
	// Settles, if set, resolves the tournament's open alerts the round
	// settles (a round that could not be paired), after Paired.
	Settles *Settlement
}

// CreateRound stores a new round whole, in one transaction: its games,
// the round with their IDs on its pairings, the results of the games
// decided before they start, the actions that audit the pairing and
// those results, and the alerts the round settles. Either all of it is
// stored, or nothing: a crash leaves no game without its round, nor a
// round without its games. The round must be the tournament's next, and
// the tournament, its players and its rounds as they were when the round
// was paired (r.From): otherwise nothing is stored and the error wraps
// ErrStale.
func (db *DB) CreateRound(r *NewRound) error {
	if r.Paired == nil || r.Paired.Who == "" || r.Paired.What == "" {
		return errors.New("create round: an action with who and what is required")
	}
	rd := &r.Round
	return db.update(func(tx *bolt.Tx) error {
		if err := roundIsNext(tx, rd, r.From); err != nil {
			return err
		}
		for _, g := range r.Games {
			if err := createRoundGame(tx, rd, g); err != nil {
				return err
			}
		}
		if err := put(tx.Bucket(bucketRounds), pairKey(rd.TournamentID, uint32(rd.Number)), rd); err != nil {
			return err
		}
		if err := addAction(tx, r.Paired); err != nil {
			return err
		}
		for i, g := range r.Games {
			if a := r.Decided[i]; a != nil && g.Result != "" {
				a.GameID = g.ID
				if err := addAction(tx, a); err != nil {
					return err
				}
			}
		}
		return settle(tx, rd.TournamentID, r.Settles)
	})
}

// roundIsNext checks, in tx, that rd is its tournament's next round and
// the tournament as it was when rd was paired (from): otherwise the error
// wraps ErrStale.
func roundIsNext(tx *bolt.Tx, rd *Round, from [sha256.Size]byte) error {
	if tournamentDigest(tx, rd.TournamentID) != from {
		return fmt.Errorf("round %d of tournament %d: %w", rd.Number, rd.TournamentID, ErrStale)
	}
	rounds := tx.Bucket(bucketRounds)
	if rounds.Get(pairKey(rd.TournamentID, uint32(rd.Number))) != nil {
		return fmt.Errorf("round %d of tournament %d is stored already: %w", rd.Number, rd.TournamentID, ErrStale)
	}
	if rd.Number > 1 && rounds.Get(pairKey(rd.TournamentID, uint32(rd.Number-1))) == nil {
		return fmt.Errorf("round %d of tournament %d: round %d is not stored", rd.Number, rd.TournamentID, rd.Number-1)
	}
	return nil
}

// createRoundGame stores g, a game of round rd, in tx with a new ID and
// the bucket of its moves, and sets that ID, and its result if it is
// decided before it starts, on the round's pairing of its board.
func createRoundGame(tx *bolt.Tx, rd *Round, g *Game) error {
	games := tx.Bucket(bucketGames)
	id, err := games.NextSequence()
	if err != nil {
		return err
	}
	g.ID = id
	if _, err := tx.Bucket(bucketMoves).CreateBucket(u64key(id)); err != nil {
		return fmt.Errorf("game %d: %w", id, err)
	}
	if err := put(games, u64key(id), g); err != nil {
		return err
	}
	for i := range rd.Pairings {
		if p := &rd.Pairings[i]; p.Board == g.BoardNo && p.Second != 0 {
			p.GameID = id
			if g.Result != "" {
				p.Result = PairingResult(g.Result, g.Reason, false)
			}
		}
	}
	return nil
}
