package director

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"arbiter/internal/names"
	"arbiter/store"
)

// The event off the happy path: a round that cannot be paired, players who
// come late, leave, ask for byes or do not show up, results corrected
// after the fact. Every decision is an arbiter's action, stored with who
// and why before anyone is told.

// errBadInput marks an arbiter's entry that cannot be used.
var errBadInput = errors.New("invalid entry")

// IsBadRequest reports whether err is the arbiter's input being wrong
// rather than the event's state.
func IsBadRequest(err error) bool {
	return errors.Is(err, errBadPairing) || errors.Is(err, errBadInput)
}

// CheckName reports what is wrong with a player's name (names.Check):
// empty, too long, or with control, bidirectional formatting or
// zero-width characters.
func CheckName(name string) error {
	if err := names.Check(name); err != nil {
		return fmt.Errorf("%w: the name %v", errBadInput, err)
	}
	return nil
}

// NewPlayer is a player registered at the event.
type NewPlayer struct {
	Name       string
	Rating     int
	Title      string
	Federation string
	FideID     string
	// Missed is the score of each round the player missed: "Z" (zero, the
	// default) or "H" (a half point, where the rules allow it).
	Missed string
}

// AddPlayer registers a player, before the event or as a late entry: the
// next start number; a late entrant is paired from the next round on,
// with the score the arbiter grants for each missed round, and ranks by
// rating for the pairing numbers.
func (d *Director) AddPlayer(id uint64, np NewPlayer, who, why string) (store.Player, error) {
	if d.tour(id) == nil {
		return store.Player{}, fmt.Errorf("tournament %d: %w", id, store.ErrNotFound)
	}
	if err := CheckName(np.Name); err != nil {
		return store.Player{}, err
	}
	if np.Rating < 0 || np.Rating > 4000 {
		return store.Player{}, fmt.Errorf("%w: rating %d: want 0 to 4000", errBadInput, np.Rating)
	}
	if np.Missed == "" {
		np.Missed = ResultZeroBye
	}
	if np.Missed != ResultZeroBye && np.Missed != ResultHalfBye {
		return store.Player{}, fmt.Errorf("%w: missed rounds score %q: want Z or H", errBadInput, np.Missed)
	}
	var p store.Player
	err := d.edit(id, "add-player", who, why, func(tr *tour, st *store.TournamentState, e *store.TournamentEdit) (string, error) {
		players, rounds := st.Players, st.Rounds
		for _, p := range players {
			if names.Same(p.Name, np.Name) {
				return "", fmt.Errorf("%w: %q is already registered as player %d (%s)", errBadInput, np.Name, p.ID, p.Name)
			}
		}
		if len(rounds) > 0 && strings.Contains(tr.rec.System, "round-robin") {
			return "", fmt.Errorf("%w: a round robin takes no entries once it has begun", errBadInput)
		}
		if len(rounds) >= tr.rec.PlayedRounds() && roundsComplete(rounds) {
			return "", fmt.Errorf("%w: %s is over (its last round, %d, is played): it takes no more entries", errBadInput, tr.rec.Name, len(rounds))
		}
		p = store.Player{TournamentID: id, ID: len(players) + 1, Name: names.Normal(np.Name), Rating: np.Rating, Title: np.Title,
			Federation: np.Federation, FideID: np.FideID, Joined: len(rounds) + 1}
		// The next round to be paired is the first one the player can play.
		if p.Joined <= 1 {
			p.Joined = 0
		}
		for r := 1; r < p.Joined; r++ {
			if p.Byes == nil {
				p.Byes = map[int]string{}
			}
			p.Byes[r] = np.Missed
		}
		e.Players = []*store.Player{&p}
		data := fmt.Sprintf("%s: player %d %s (%d)", tr.rec.Name, p.ID, p.Name, p.Rating)
		if p.Joined > 1 {
			data += fmt.Sprintf(", late entry from round %d, missed rounds score %s", p.Joined, np.Missed)
		}
		return data, nil
	})
	if err != nil {
		return store.Player{}, err
	}
	d.hub.Publish(Update{Kind: "players", At: d.wall(), Data: map[string]any{"tournament": id}})
	return p, nil
}

// updatePlayer changes one player with f, given the rounds paired so far,
// and audits it with the text f returns, in one transaction (edit).
func (d *Director) updatePlayer(id uint64, pid int, what, who, why string, f func(tr *tour, p *store.Player, rounds []store.Round) (string, error)) error {
	err := d.edit(id, what, who, why, func(tr *tour, st *store.TournamentState, e *store.TournamentEdit) (string, error) {
		i := slices.IndexFunc(st.Players, func(p store.Player) bool { return p.ID == pid })
		if i < 0 {
			return "", fmt.Errorf("player %d of %s: %w", pid, tr.rec.Name, store.ErrNotFound)
		}
		p := st.Players[i]
		data, err := f(tr, &p, st.Rounds)
		if err != nil {
			return "", err
		}
		e.Players = []*store.Player{&p}
		return fmt.Sprintf("%s: player %d %s: %s", tr.rec.Name, p.ID, p.Name, data), nil
	})
	if err != nil {
		return err
	}
	d.hub.Publish(Update{Kind: "players", At: d.wall(), Data: map[string]any{"tournament": id}})
	return nil
}
