package director

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"unicode"

	"arbiter/pairing"
	"arbiter/pairing/trf"
	"arbiter/store"
)

// ManualBoard is one board of a round paired by hand.
type ManualBoard struct {
	First, Second int // start numbers; Second 0 gives First the pairing-allocated bye
}

// ParseManual reads hand-made pairings, one board a line: "12 - 7" (start
// numbers, first mover first) or "5 bye".
func ParseManual(text string) ([]ManualBoard, error) {
	var out []ManualBoard
	for i, line := range strings.Split(text, "\n") {
		line = strings.TrimSpace(line)
		if line == "" {
			continue
		}
		f := strings.FieldsFunc(line, func(r rune) bool { return r == '-' || r == ':' || unicode.IsSpace(r) })
		bad := fmt.Errorf("line %d %q: want \"first - second\" or \"n bye\"", i+1, line)
		if len(f) != 2 {
			return nil, bad
		}
		a, err := strconv.Atoi(f[0])
		if err != nil {
			return nil, bad
		}
		if strings.EqualFold(f[1], "bye") {
			out = append(out, ManualBoard{First: a})
			continue
		}
		b, err := strconv.Atoi(f[1])
		if err != nil {
			return nil, bad
		}
		out = append(out, ManualBoard{First: a, Second: b})
	}
	if len(out) == 0 {
		return nil, errors.New("no pairings given")
	}
	return out, nil
}

// PairByHand makes the next round from the arbiter's own pairings. Each
// player appears once at most; a player left out is not paired (a bye
// requested earlier keeps its kind, anyone else scores zero). The criteria
// each board breaks (C1 rematch, C3 colours) are recorded with it and in
// the audit log.
func (d *Director) PairByHand(ctx context.Context, id uint64, boards []ManualBoard, who, why string) error {
	return d.newRound(ctx, id, "pair-round-manual", who, why, func(tr *tour, st *store.TournamentState, number int) (*plan, error) {
		players := st.Players
		known := map[int]store.Player{}
		for _, p := range players {
			known[p.ID] = p
		}
		pl := &plan{out: map[int]string{}, how: "manual", manual: map[[2]int]string{}}
		seen := map[int]bool{}
		for _, b := range boards {
			for _, pid := range []int{b.First, b.Second} {
				if pid == 0 {
					continue
				}
				if _, ok := known[pid]; !ok {
					return nil, fmt.Errorf("%w: no player has start number %d", errBadPairing, pid)
				}
				if seen[pid] {
					return nil, fmt.Errorf("%w: player %d is paired twice", errBadPairing, pid)
				}
				seen[pid] = true
			}
			if b.First == b.Second {
				return nil, fmt.Errorf("%w: player %d cannot play themselves", errBadPairing, b.First)
			}
			if b.Second == 0 {
				if pl.bye != 0 {
					return nil, fmt.Errorf("%w: two pairing-allocated byes (%d and %d)", errBadPairing, pl.bye, b.First)
				}
				pl.bye = b.First
				continue
			}
			pl.boards = append(pl.boards, [2]int{b.First, b.Second})
		}
		notes, err := manualCriteria(trfOf(st), number, boards, pl)
		if err != nil {
			return nil, err
		}
		for _, p := range players {
			if seen[p.ID] {
				continue
			}
			if _, code := p.Paired(number); code != "" {
				pl.out[p.ID] = code
			} else {
				pl.out[p.ID] = ResultZeroBye
			}
		}
		pl.trace = "Paired by hand by " + who + "."
		pl.data = "paired by hand"
		if len(notes) > 0 {
			pl.data += "; breaks " + strings.Join(notes, "; ")
			pl.trace += "\nCriteria broken: " + strings.Join(notes, "; ")
		}
		return pl, nil
	})
}

// errBadPairing marks hand-made pairings that cannot be used.
var errBadPairing = errors.New("invalid pairings")

// manualCriteria records with each board of pl, a round paired by hand
// from boards, the FIDE criteria it breaks ("manual" if none): C1 (the
// players met before) and C3 (a colour difference beyond 2, or a third
// colour in a row, for the colours given), as the pairing engine reads
// the history t. It returns the notes of the boards and of the bye (C2: a
// second bye, or a bye after a win without playing) that break any, in
// the order of boards.
func manualCriteria(t *trf.Tournament, number int, boards []ManualBoard, pl *plan) ([]string, error) {
	hand := &pairing.Pairing{Round: number, Bye: pl.bye}
	for _, b := range pl.boards {
		hand.Boards = append(hand.Boards, pairing.Board{White: b[0], Black: b[1]})
	}
	breaches, err := pairing.Breaches(t, hand, pairing.Options{})
	if err != nil {
		return nil, err
	}
	broken := map[int][]string{} // by board, the bye's under 0
	for _, b := range breaches {
		broken[b.Board] = append(broken[b.Board], breachText(b))
	}
	var notes []string
	board := 0
	for _, b := range boards {
		if b.Second == 0 {
			if len(broken[0]) > 0 {
				notes = append(notes, fmt.Sprintf("%d bye: %s", b.First, strings.Join(broken[0], "; ")))
			}
			continue
		}
		board++
		pl.manual[[2]int{b.First, b.Second}] = "manual"
		if len(broken[board]) > 0 {
			text := strings.Join(broken[board], "; ")
			pl.manual[[2]int{b.First, b.Second}] = text
			notes = append(notes, fmt.Sprintf("%d-%d: %s", b.First, b.Second, text))
		}
	}
	return notes, nil
}

// breachText words a criterion a hand-made board or bye breaks.
func breachText(b pairing.Breach) string {
	switch b.Criterion {
	case pairing.NoRematch:
		return fmt.Sprintf("C1: they met in round %d", b.Round)
	case pairing.ByeEligible:
		return fmt.Sprintf("C2: already scored without playing in round %d", b.Round)
	}
	name := "the first move"
	if b.Colour == pairing.Black {
		name = "the second move"
	}
	if b.Difference > 2 || b.Difference < -2 {
		return fmt.Sprintf("C3: %d would have a colour difference of %+d with %s", b.Player, b.Difference, name)
	}
	return fmt.Sprintf("C3: %d would have %s three times in a row", b.Player, name)
}
