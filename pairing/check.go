package pairing

import (
	"fmt"
	"slices"
	"strings"

	"arbiter/pairing/trf"
)

// BeforeRound returns t as it stood before round (1-based) was paired:
// rounds after it are dropped; in the round itself only the absences and
// requested byes announced in advance are kept (entries without an opponent
// other than the pairing-allocated bye); points are recomputed.
func BeforeRound(t *trf.Tournament, round int) *trf.Tournament {
	c := *t
	c.Players = make([]trf.Player, len(t.Players))
	for i, p := range t.Players {
		q := p
		q.Games = nil
		q.Points = 0
		for r, g := range p.Games {
			if r >= round {
				break
			}
			if r == round-1 {
				if g.Opponent == 0 && g.Result != 'U' && g.Result != ' ' {
					q.Games = append(q.Games, g)
				}
				break
			}
			q.Games = append(q.Games, g)
			q.Points += t.Scoring.Points(g)
		}
		c.Players[i] = q
	}
	return &c
}

// Played returns the pairing of round (1-based) as recorded in t. Forfeited
// games count as pairings.
func Played(t *trf.Tournament, round int) *Pairing {
	res := &Pairing{Round: round}
	for _, p := range t.Players {
		if len(p.Games) < round {
			continue
		}
		g := p.Games[round-1]
		switch {
		case g.Opponent != 0 && g.Colour == 'w':
			res.Boards = append(res.Boards, Board{White: p.ID, Black: g.Opponent})
		case g.Opponent != 0 && g.Colour == '-' && p.ID < g.Opponent:
			// A forfeit recorded without colours.
			res.Boards = append(res.Boards, Board{White: p.ID, Black: g.Opponent})
		case g.Opponent == 0 && g.Result == 'U':
			res.Bye = p.ID
		}
	}
	return res
}

// Difference is a round whose recorded pairing differs from ours.
type Difference struct {
	Round    int
	Expected *Pairing // as recorded in the file
	Got      *Pairing // nil when Err is set
	Err      error
}

// String describes the difference: boards expected but not produced and
// boards produced but not expected.
func (d Difference) String() string {
	if d.Err != nil {
		return fmt.Sprintf("round %d: %v", d.Round, d.Err)
	}
	exp, got := boardSet(d.Expected), boardSet(d.Got)
	var missing, extra []string
	for k := range exp {
		if !got[k] {
			missing = append(missing, k)
		}
	}
	for k := range got {
		if !exp[k] {
			extra = append(extra, k)
		}
	}
	slices.Sort(missing)
	slices.Sort(extra)
	return fmt.Sprintf("round %d: expected but not produced: %s; produced but not expected: %s",
		d.Round, strings.Join(missing, ", "), strings.Join(extra, ", "))
}

func boardSet(p *Pairing) map[string]bool {
	m := map[string]bool{}
	for _, b := range p.Boards {
		m[fmt.Sprintf("%d-%d", b.White, b.Black)] = true
	}
	if p.Bye != 0 {
		m[fmt.Sprintf("%d-bye", p.Bye)] = true
	}
	return m
}

// Same reports whether two pairings have the same boards, colours and bye,
// regardless of board order.
func Same(a, b *Pairing) bool {
	x, y := boardSet(a), boardSet(b)
	if len(x) != len(y) {
		return false
	}
	for k := range x {
		if !y[k] {
			return false
		}
	}
	return true
}

// Check re-pairs every round of t from the history before it and reports
// each round whose recorded pairing differs from ours.
func Check(t *trf.Tournament, opts Options) ([]Difference, error) {
	var diffs []Difference
	if t.InitialColour == 0 && opts.InitialColour == 0 {
		opts.InitialColour = InferInitialColour(t)
	}
	rounds := t.PlayedRounds()
	if NextRound(t) == rounds {
		rounds-- // the last column holds only announced byes
	}
	for r := 1; r <= rounds; r++ {
		before := BeforeRound(t, r)
		o := opts
		o.Round = r
		exp := Played(t, r)
		got, err := Pair(before, o)
		if err != nil {
			diffs = append(diffs, Difference{Round: r, Expected: exp, Err: err})
			continue
		}
		if !Same(exp, got) {
			diffs = append(diffs, Difference{Round: r, Expected: exp, Got: got})
		}
	}
	return diffs, nil
}

// InferInitialColour recovers the initial colour drawn before round 1 from
// the history, for files without XXC/152: in the first round in which
// colours were given, the first player by pairing number who took part in
// the pairing had the initial colour if their pairing number among those
// players was odd. It returns 'w', 'b' or 0 if nothing can be inferred.
func InferInitialColour(t *trf.Tournament) byte {
	first := firstColouredRound(t.Players)
	if first < 0 {
		return 0
	}
	players := slices.Clone(t.Players)
	slices.SortFunc(players, func(a, b trf.Player) int { return a.ID - b.ID })
	n := 0
	for _, p := range players {
		if !tookPartBy(p, first) {
			continue
		}
		// A player with no entry for that round took part with no colour.
		if first < len(p.Games) {
			if c := p.Games[first].Colour; c == 'w' || c == 'b' {
				if n%2 == 1 {
					c ^= 'w' ^ 'b'
				}
				return c
			}
		}
		n++
	}
	return 0
}

// firstColouredRound returns the first round (0-based) in which one of
// players had a colour, or -1 if none did.
func firstColouredRound(players []trf.Player) int {
	first := -1
	for _, p := range players {
		for r, g := range p.Games {
			if (g.Colour == 'w' || g.Colour == 'b') && (first < 0 || r < first) {
				first = r
			}
		}
	}
	return first
}

// tookPartBy reports whether p took part in the pairing of a round up to
// round last (0-based): played, forfeited or had the pairing-allocated
// bye.
func tookPartBy(p trf.Player, last int) bool {
	games := p.Games[:min(last+1, len(p.Games))]
	return slices.ContainsFunc(games, func(g trf.Game) bool { return g.Opponent != 0 || g.Result == 'U' })
}
