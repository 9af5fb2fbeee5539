package director

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"unicode"

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
		t := trfOf(st)
		pl := &plan{out: map[int]string{}, how: "manual", manual: map[[2]int]string{}}
		seen := map[int]bool{}
		var notes []string
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
				if broken := byeCriteria(t, b.First); broken != "" {
					notes = append(notes, fmt.Sprintf("%d bye: %s", b.First, broken))
				}
				continue
			}
			pair := [2]int{b.First, b.Second}
			pl.boards = append(pl.boards, pair)
			broken := manualCriteria(t, b.First, b.Second)
			pl.manual[pair] = broken
			if broken != "" {
				notes = append(notes, fmt.Sprintf("%d-%d: %s", b.First, b.Second, broken))
			} else {
				pl.manual[pair] = "manual"
			}
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

// manualCriteria lists the FIDE criteria a hand-made board breaks: C1 (the
// players met before) and C3 (a colour difference beyond 2, or a third
// colour in a row, for the colours given).
func manualCriteria(t *trf.Tournament, first, second int) string {
	var out []string
	a, b := t.PlayerByID(first), t.PlayerByID(second)
	if a == nil || b == nil {
		return ""
	}
	for r, g := range a.Games {
		if g.Opponent == second && g.Played() {
			out = append(out, fmt.Sprintf("C1: they met in round %d", r+1))
		}
	}
	if c := colourBreak(a, 'w'); c != "" {
		out = append(out, fmt.Sprintf("C3: %d %s", first, c))
	}
	if c := colourBreak(b, 'b'); c != "" {
		out = append(out, fmt.Sprintf("C3: %d %s", second, c))
	}
	return strings.Join(out, "; ")
}

// colourBreak says how giving p the colour c breaks the absolute colour
// criteria, or "" if it does not.
func colourBreak(p *trf.Player, c byte) string {
	diff, run, last := 0, 0, byte(0)
	for _, g := range p.Games {
		if !g.Played() || (g.Colour != 'w' && g.Colour != 'b') {
			continue
		}
		if g.Colour == 'w' {
			diff++
		} else {
			diff--
		}
		if g.Colour == last {
			run++
		} else {
			last, run = g.Colour, 1
		}
	}
	name := map[byte]string{'w': "the first move", 'b': "the second move"}[c]
	if c == 'w' {
		diff++
	} else {
		diff--
	}
	switch {
	case diff > 2 || diff < -2:
		return fmt.Sprintf("would have a colour difference of %+d with %s", diff, name)
	case last == c && run >= 2:
		return fmt.Sprintf("would have %s three times in a row", name)
	}
	return ""
}

// byeCriteria says whether giving p the pairing-allocated bye breaks C2 (a
// second bye, or a bye after a win without playing).
func byeCriteria(t *trf.Tournament, pid int) string {
	p := t.PlayerByID(pid)
	if p == nil {
		return ""
	}
	for r, g := range p.Games {
		switch g.Result {
		case 'U', 'F', '+':
			return fmt.Sprintf("C2: already scored without playing in round %d", r+1)
		}
	}
	return ""
}
