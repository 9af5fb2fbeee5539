package director

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"arbiter/pairing"
	"arbiter/store"
)

// Alert kinds the director raises itself, besides the table's.
const (
	AlertNoPairing = "no-pairing" // the next round cannot be paired
)

// errRoundIncomplete is returned by actions that need a complete round.
var errRoundIncomplete = errors.New("the current round has unfinished games: enter their results first")

// blockLocked records that round number of tr cannot be paired, and tells
// the arbiter what can be done. Called with d.mu held.
func (d *Director) blockLocked(tr *tour, number int, nv *pairing.NoValidPairingError) {
	why := fmt.Sprintf("%s: round %d cannot be paired: %s", tr.rec.Name, number, nv.Reason)
	first := tr.blocked == ""
	tr.blocked = why
	advice := fmt.Sprintf("In the console choose: enter round %d's pairings by hand, pair allowing rematches (a last resort, marked as such), or end the tournament after round %d.", number, number-1)
	a := store.Alert{Tournament: tr.rec.ID, Kind: AlertNoPairing, Message: why, Advice: advice, Where: tr.rec.Name, At: d.wall()}
	d.raise(a)
	if first {
		d.log.Warn("no valid pairing", "tournament", tr.rec.Name, "round", number, "reason", nv.Reason)
	}
}

// Blocked says why a tournament's next round could not be paired; empty
// when it is not blocked.
func (d *Director) Blocked(id uint64) string {
	d.mu.RLock()
	defer d.mu.RUnlock()
	if tr := d.tourLocked(id); tr != nil {
		return tr.blocked
	}
	return ""
}

// noPairingSettled resolves a tournament's open no-pairing alerts by
// who's action, for why, with the change that settled them.
func (d *Director) noPairingSettled(who, why string) *store.Settlement {
	return &store.Settlement{Kind: AlertNoPairing, By: &store.Action{Who: who, Why: why, At: d.wall()}}
}

// PairAllowingRematches pairs the next round with the engine, letting
// players meet again who met in the earliest rounds possible: the last
// resort when no valid pairing exists. The round is marked as such.
func (d *Director) PairAllowingRematches(ctx context.Context, id uint64, who, why string) error {
	return d.newRound(ctx, id, "pair-round-rematches", who, why, func(tr *tour, st *store.TournamentState, number int) (*plan, error) {
		if strings.Contains(st.Tournament.System, "round-robin") {
			return nil, errors.New("a round robin has no rematches to allow")
		}
		var last error
		for k := 2; k <= number; k++ {
			pl, err := d.pair(tr, st, number, k)
			if err == nil {
				pl.how = "rematches"
				pl.trace = fmt.Sprintf("Rematches allowed of games played before round %d (C1 relaxed by the chief arbiter).\n", k) + pl.trace
				pl.data = fmt.Sprintf("rematches of rounds 1-%d allowed", k-1)
				return pl, nil
			}
			last = err
		}
		return nil, fmt.Errorf("even with every rematch allowed: %w", last)
	})
}

// EndTournament ends a tournament after its last complete round, when the
// next one cannot or shall not be played.
func (d *Director) EndTournament(id uint64, who, why string) error {
	err := d.edit(id, "end-tournament", who, why, func(tr *tour, st *store.TournamentState, e *store.TournamentEdit) (string, error) {
		rec, rounds := st.Tournament, st.Rounds
		switch {
		case !roundsComplete(rounds):
			return "", errRoundIncomplete
		case len(rounds) == 0:
			return "", errors.New("no round has been played: there is nothing to end")
		case len(rounds) >= rec.PlayedRounds():
			return "", errTournamentOver
		}
		rec.EndedAfter = len(rounds)
		tr.blocked = ""
		e.Tournament = &rec
		e.Settles = d.noPairingSettled(who, "the tournament was ended")
		return fmt.Sprintf("%s ends after round %d of %d", rec.Name, rec.EndedAfter, rec.Rounds), nil
	})
	if err != nil {
		return err
	}
	d.hub.Publish(Update{Kind: "round", At: d.wall(), Data: map[string]any{"tournament": id}})
	d.checkDone()
	return nil
}

func roundsComplete(rounds []store.Round) bool {
	if n := len(rounds); n > 0 {
		for _, p := range rounds[n-1].Pairings {
			if p.Result == "" {
				return false
			}
		}
	}
	return true
}
