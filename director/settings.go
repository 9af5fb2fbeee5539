package director

import (
	"fmt"
	"maps"
	"strings"

	"arbiter/store"
)

// updateTournament changes a tournament's record with f under the
// director's lock, given the rounds paired so far: stored, then kept for
// the running event, then audited with the text f returns. Nothing
// changes if f fails.
func (d *Director) updateTournament(id uint64, what, who, why string, f func(tr *tour, rec *store.Tournament, rounds []store.Round) (string, error)) error {
	tr := d.tour(id)
	if tr == nil {
		return fmt.Errorf("tournament %d: %w", id, store.ErrNotFound)
	}
	if err := d.keptElsewhere(what); err != nil {
		return err
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	rounds, err := d.db.Rounds(id)
	if err != nil {
		return err
	}
	rec := tr.rec
	rec.RoundTimeControls = maps.Clone(rec.RoundTimeControls)
	data, err := f(tr, &rec, rounds)
	if err != nil {
		return err
	}
	if err := d.db.UpdateTournament(&rec); err != nil {
		return err
	}
	tr.rec = rec
	return d.db.AddAction(&store.Action{Who: who, What: what, Why: why, Data: data, At: d.wall()})
}

// SetRoundTimeControl sets the time control of a round not yet paired
// ("" goes back to the tournament's).
func (d *Director) SetRoundTimeControl(id uint64, round int, tc, who, why string) error {
	if tc != "" {
		if _, err := gameControl(tc); err != nil {
			return fmt.Errorf("%w: %v", errBadInput, err)
		}
	}
	return d.updateTournament(id, "round-time-control", who, why, func(_ *tour, rec *store.Tournament, rounds []store.Round) (string, error) {
		if round <= len(rounds) || round > rec.PlayedRounds() {
			return "", fmt.Errorf("%w: round %d: want a round from %d to %d", errBadInput, round, len(rounds)+1, rec.PlayedRounds())
		}
		if rec.RoundTimeControls == nil {
			rec.RoundTimeControls = map[int]string{}
		}
		show := tc
		if tc == "" {
			delete(rec.RoundTimeControls, round)
			show = "the tournament's (" + rec.TimeControl + ")"
		} else {
			rec.RoundTimeControls[round] = tc
		}
		return fmt.Sprintf("%s round %d: %s", rec.Name, round, show), nil
	})
}

// SetAccelerated switches the acceleration of a Swiss's pairings ("baku"
// or "") before its first round is paired.
func (d *Director) SetAccelerated(id uint64, kind, who, why string) error {
	if kind != "" && kind != "baku" {
		return fmt.Errorf("%w: acceleration %q: want baku or none", errBadInput, kind)
	}
	return d.updateTournament(id, "accelerate", who, why, func(_ *tour, rec *store.Tournament, rounds []store.Round) (string, error) {
		switch {
		case !strings.HasPrefix(rec.System, "swiss"):
			return "", fmt.Errorf("%w: only a Swiss is accelerated", errBadInput)
		case len(rounds) > 0:
			return "", fmt.Errorf("%w: round 1 is paired: the acceleration is fixed", errBadInput)
		}
		rec.Accelerated = kind
		show := kind
		if show == "" {
			show = "none"
		}
		return fmt.Sprintf("%s: acceleration %s", rec.Name, show), nil
	})
}
