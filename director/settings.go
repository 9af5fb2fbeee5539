package director

import (
	"fmt"
	"strings"

	"arbiter/store"
)

// updateTournament changes a tournament's record with f, given the rounds
// paired so far, and audits it with the text f returns, in one
// transaction (edit). Nothing changes if f fails.
func (d *Director) updateTournament(id uint64, what, who, why string, f func(tr *tour, rec *store.Tournament, rounds []store.Round) (string, error)) error {
	return d.edit(id, what, who, why, func(tr *tour, st *store.TournamentState, e *store.TournamentEdit) (string, error) {
		rec := st.Tournament
		data, err := f(tr, &rec, st.Rounds)
		e.Tournament = &rec
		return data, err
	})
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
