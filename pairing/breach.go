package pairing

import (
	"fmt"

	"arbiter/pairing/trf"
)

// Breach is an absolute criterion that a round paired by hand, rather
// than by [Pair], breaks on one of its boards or with its bye.
type Breach struct {
	// Board is the board (1-based, in the order of Pairing.Boards), or 0
	// for the pairing-allocated bye.
	Board int
	// Criterion is NoRematch, ByeEligible or AbsoluteColours.
	Criterion Criterion
	// Player is the player (TRF ID) of a ByeEligible or AbsoluteColours
	// breach.
	Player int
	// Round is, for NoRematch, a round the board's players met in; for
	// ByeEligible, the first round that makes the player ineligible for
	// the bye (a bye or a win without playing, as the edition says).
	Round int
	// For AbsoluteColours: the colour the board gives Player, the
	// player's colour difference with it (games with White less games
	// with Black), and whether it is the player's third colour in a row.
	// The colour is a breach when the difference goes beyond ±2 or the
	// colour comes a third time in a row.
	Colour     Colour
	Difference int
	Repeated   bool
}

// Breaches lists the absolute criteria that p, a round of t paired by
// hand, breaks: a rematch (every round the board's players met in), a
// colour difference beyond ±2 or a colour three times in a row, and the
// bye given to a player who is not eligible for it. They come board by
// board, each board's rematches by round and then its White's colour and
// its Black's, and the bye's last. The history is read as [Pair] reads
// it for round p.Round, with opts' edition and colour policy (a policy
// that ignores colours has no colour breaches).
func Breaches(t *trf.Tournament, p *Pairing, opts Options) ([]Breach, error) {
	opts.Round = p.Round
	s, err := newState(t, p.Round, opts)
	if err != nil {
		return nil, fmt.Errorf("round %d paired by hand: %w", p.Round, err)
	}
	byID, err := handPaired(s, p)
	if err != nil {
		return nil, fmt.Errorf("round %d paired by hand: %w", p.Round, err)
	}
	var out []Breach
	for i, b := range p.Boards {
		w, bl := byID[b.White], byID[b.Black]
		out = append(out, s.rematches(i+1, w, bl)...)
		out = appendColourBreach(out, i+1, w, White)
		out = appendColourBreach(out, i+1, bl, Black)
	}
	if p.Bye != 0 {
		if r := s.unplayedWin(byID[p.Bye]); r != 0 {
			out = append(out, Breach{Criterion: ByeEligible, Player: p.Bye, Round: r})
		}
	}
	return out, nil
}

// handPaired returns the valid players of s by ID, and an error naming
// the first player of p (its bye, then its boards) who is not one.
func handPaired(s *state, p *Pairing) (map[int]*player, error) {
	byID := make(map[int]*player, len(s.players))
	for _, pl := range s.players {
		if pl.valid {
			byID[pl.id] = pl
		}
	}
	ids := []int{p.Bye} // 0: no bye
	for _, b := range p.Boards {
		ids = append(ids, b.White, b.Black)
	}
	for i, id := range ids {
		if byID[id] == nil && (i > 0 || id != 0) {
			return nil, fmt.Errorf("no player %d to pair", id)
		}
	}
	return byID, nil
}

// rematches returns the NoRematch breaches of board, White w against Black
// bl: one for each round they met in.
func (s *state) rematches(board int, w, bl *player) []Breach {
	var out []Breach
	for r, m := range w.matches[:s.playedRounds] {
		if m.played && m.opponent == bl.index {
			out = append(out, Breach{Board: board, Criterion: NoRematch, Round: r + 1})
		}
	}
	return out
}

// appendColourBreach appends to out the AbsoluteColours breach of giving
// pl colour c on board, if it is one: a colour breaks the rules beyond a
// difference of ±2, or a third time in a row.
func appendColourBreach(out []Breach, board int, pl *player, c Colour) []Breach {
	diff := pl.colourDiff + 1
	if c == Black {
		diff = pl.colourDiff - 1
	}
	if repeated := pl.repeatedColour == c; diff > 2 || diff < -2 || repeated {
		out = append(out, Breach{Board: board, Criterion: AbsoluteColours, Player: pl.id, Colour: c, Difference: diff, Repeated: repeated})
	}
	return out
}
