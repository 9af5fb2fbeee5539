package director

import (
	"fmt"
	"strings"

	"arbiter/store"
)

// RequestBye records a bye a player asked for in a future round: "H" (a
// half point, within the tournament's limit) or "Z" (zero points); kind ""
// cancels it.
func (d *Director) RequestBye(id uint64, pid, round int, kind, who, why string) error {
	return d.updatePlayer(id, pid, "request-bye", who, why, func(tr *tour, p *store.Player, rounds []store.Round) (string, error) {
		if round <= len(rounds) {
			return "", fmt.Errorf("%w: round %d is already paired", errBadInput, round)
		}
		if round > tr.rec.PlayedRounds() {
			return "", fmt.Errorf("%w: the tournament has %d rounds", errBadInput, tr.rec.PlayedRounds())
		}
		if strings.Contains(tr.rec.System, "round-robin") {
			return "", fmt.Errorf("%w: a round robin has no byes to request: the game is scheduled", errBadInput)
		}
		switch kind {
		case "":
			if _, ok := p.Byes[round]; !ok {
				return "", fmt.Errorf("%w: player %d has no bye in round %d", errBadInput, pid, round)
			}
			delete(p.Byes, round)
			return fmt.Sprintf("bye in round %d cancelled", round), nil
		case ResultZeroBye:
		case ResultHalfBye:
			used := 0
			for r, k := range p.Byes {
				if k == ResultHalfBye && r >= p.Joined && r != round {
					used++
				}
			}
			if used >= tr.rec.HalfByes {
				return "", fmt.Errorf("%w: %s allows %d half-point byes per player, and player %d has %d", errBadInput, tr.rec.Name, tr.rec.HalfByes, pid, used)
			}
		default:
			return "", fmt.Errorf("%w: bye %q: want H (half point) or Z (zero)", errBadInput, kind)
		}
		if p.Byes == nil {
			p.Byes = map[int]string{}
		}
		p.Byes[round] = kind
		return fmt.Sprintf("%s bye in round %d", kind, round), nil
	})
}
