package director

import (
	"context"
	"fmt"

	"arbiter/rules"
	"arbiter/store"
)

// Withdraw withdraws a player: from the next round on, or at once, when
// the player's unfinished game of the current round is forfeited too (then
// by SetResult, once the withdrawal is stored).
func (d *Director) Withdraw(ctx context.Context, id uint64, pid int, now bool, who, why string) error {
	var forfeit *store.Pairing
	err := d.updatePlayer(id, pid, "withdraw", who, why, func(tr *tour, p *store.Player, rounds []store.Round) (string, error) {
		if p.Withdrawn {
			return "", fmt.Errorf("%w: player %d is already withdrawn", errBadInput, pid)
		}
		p.Withdrawn, p.WithdrawnFrom = true, len(rounds)+1
		if !now || len(rounds) == 0 {
			return fmt.Sprintf("withdrawn from round %d", p.WithdrawnFrom), nil
		}
		for _, pr := range rounds[len(rounds)-1].Pairings {
			if pr.Result == "" && pr.GameID != 0 && (pr.First == pid || pr.Second == pid) {
				forfeit = &pr
			}
		}
		p.WithdrawnFrom = len(rounds)
		return fmt.Sprintf("withdrawn at once, from round %d", p.WithdrawnFrom), nil
	})
	if err != nil || forfeit == nil {
		return err
	}
	o := rules.Win(rules.Second, rules.Forfeit)
	if forfeit.Second == pid {
		o = rules.Win(rules.First, rules.Forfeit)
	}
	return d.SetResult(ctx, forfeit.GameID, o, who, "withdrawn: "+why)
}

// Readmit brings back a player who was withdrawn or marked absent after a
// forfeit: paired again from the next round.
func (d *Director) Readmit(id uint64, pid int, who, why string) error {
	return d.updatePlayer(id, pid, "readmit", who, why, func(tr *tour, p *store.Player, rounds []store.Round) (string, error) {
		if !p.Withdrawn && !p.Absent {
			return "", fmt.Errorf("%w: player %d is not withdrawn or absent", errBadInput, pid)
		}
		p.Withdrawn, p.WithdrawnFrom, p.Absent = false, 0, false
		return fmt.Sprintf("paired again from round %d", len(rounds)+1), nil
	})
}
