// Package roundrobin schedules all-play-all tournaments with the FIDE Berger
// tables (C.05 Annex 1), single or double, for any number of players from 3
// up. With an odd number of players the table of the next even size is used
// and whoever meets the highest number has a bye.
//
// Colours are neutral: First moves first (White in chess, sente in shogi).
// The table decides them for chess and for shogi events run like chess; a
// policy can instead leave each game's first move to a lot (furigoma).
package roundrobin

import (
	"errors"
	"fmt"
)

// MaxPlayers bounds the tables this package builds.
const MaxPlayers = 1000

// Board is one game of a round, between pairing numbers (1-based).
type Board struct {
	Number int // 1-based, in table order
	First  int // moves first: White, sente
	Second int // moves second: Black, gote
}

// White returns the player with the white pieces (chess name of First).
func (b Board) White() int { return b.First }

// Black returns the player with the black pieces (chess name of Second).
func (b Board) Black() int { return b.Second }

// Round is one round of the schedule.
type Round struct {
	Number int
	Cycle  int // 1, or 2 in the second half of a double round robin
	Boards []Board
	Bye    int // the player without a game (odd fields), 0 if none
}

// Schedule is the complete pairing of a round robin.
type Schedule struct {
	Players int
	Double  bool
	Rounds  []Round
}

// ColourPolicy says who moves first in each game.
type ColourPolicy uint8

// Colour policies.
const (
	// TableColours takes the colours from the Berger table (chess, and
	// shogi events that allocate sente like chess colours).
	TableColours ColourPolicy = iota
	// ByLot decides the first move of every game by lot, e.g. shogi
	// furigoma; Options.Lot draws it.
	ByLot

	// ChessColours and ShogiColours name the table policy for each game;
	// Furigoma names the shogi lot.
	ChessColours = TableColours
	ShogiColours = TableColours
	Furigoma     = ByLot
)

// Options tune Berger.
type Options struct {
	// Double plays every pairing twice, the second cycle with colours
	// reversed.
	Double bool
	// KeepOrder keeps the table order in the first cycle of a double round
	// robin. By default the last two rounds of the first cycle are played in
	// reverse order, as C.05 Annex 1 recommends, so that nobody gets the
	// same colour three times in a row across the two cycles.
	KeepOrder bool
	Policy    ColourPolicy
	// Lot is called once per game under ByLot with the table's pairing; it
	// returns true when the table's first player keeps the first move.
	Lot func(round int, b Board) bool
}

// ErrNoLot is returned for the ByLot policy without a Lot function.
var ErrNoLot = errors.New("roundrobin: colours by lot need Options.Lot")

// Berger returns the schedule for players players (pairing numbers
// 1…players).
func Berger(players int, opts Options) (*Schedule, error) {
	if err := opts.check(players); err != nil {
		return nil, err
	}
	table := bergerTable(players)
	s := &Schedule{Players: players, Double: opts.Double}
	for _, boards := range firstCycle(table, opts) {
		s.addRound(1, boards, false, opts)
	}
	if opts.Double {
		for _, boards := range table {
			s.addRound(2, boards, true, opts)
		}
	}
	return s, nil
}

// check reports what is wrong with scheduling players players with opts.
func (opts Options) check(players int) error {
	if players < 2 || players > MaxPlayers {
		return fmt.Errorf("roundrobin: %d players: need 2 to %d", players, MaxPlayers)
	}
	if opts.Policy == ByLot && opts.Lot == nil {
		return ErrNoLot
	}
	if opts.Policy > ByLot {
		return fmt.Errorf("roundrobin: unknown colour policy %d", opts.Policy)
	}
	return nil
}

// firstCycle returns the rounds of the first cycle: the table's, with the
// last two swapped in a double round robin unless opts keeps the order.
func firstCycle(table [][]Board, opts Options) [][]Board {
	if !opts.Double || opts.KeepOrder || len(table) < 3 {
		return table
	}
	first := append([][]Board(nil), table...)
	last := len(first) - 1
	first[last-1], first[last] = first[last], first[last-1]
	return first
}

// addRound appends the next round of cycle, from a table round's boards:
// colours swapped in the second cycle, the dummy player's opponent given
// the bye, boards numbered again, and colours drawn under ByLot.
func (s *Schedule) addRound(cycle int, boards []Board, swap bool, opts Options) {
	r := Round{Number: len(s.Rounds) + 1, Cycle: cycle}
	for _, b := range boards {
		if swap {
			b.First, b.Second = b.Second, b.First
		}
		if b.First > s.Players || b.Second > s.Players {
			r.Bye = min(b.First, b.Second)
			continue
		}
		b.Number = len(r.Boards) + 1
		if opts.Policy == ByLot && !opts.Lot(r.Number, b) {
			b.First, b.Second = b.Second, b.First
		}
		r.Boards = append(r.Boards, b)
	}
	s.Rounds = append(s.Rounds, r)
}

// bergerTable builds the FIDE Berger table for players rounded up to an even
// n: in round r the "head" player h = (r−1)·n/2 mod (n−1) + 1 meets n on
// board 1 (h has White in odd rounds, n in even ones), and board j pairs
// h+j−1 (White) with h−j+1, counted cyclically over 1…n−1.
func bergerTable(players int) [][]Board {
	n := players + players%2
	m := n - 1
	wrap := func(x int) int { return ((x-1)%m+m)%m + 1 }
	rounds := make([][]Board, m)
	for r := 1; r <= m; r++ {
		h := (r-1)*(n/2)%m + 1
		boards := make([]Board, n/2)
		if r%2 == 1 {
			boards[0] = Board{Number: 1, First: h, Second: n}
		} else {
			boards[0] = Board{Number: 1, First: n, Second: h}
		}
		for j := 2; j <= n/2; j++ {
			boards[j-1] = Board{Number: j, First: wrap(h + j - 1), Second: wrap(h - j + 1)}
		}
		rounds[r-1] = boards
	}
	return rounds
}

// Colours returns, for each player (index = pairing number, 0 unused), the
// sequence of colours over the schedule: 'w' first move, 'b' second, '-'
// bye.
func (s *Schedule) Colours() []string {
	seq := make([][]byte, s.Players+1)
	for _, r := range s.Rounds {
		got := make([]byte, s.Players+1)
		for i := range got {
			got[i] = '-'
		}
		for _, b := range r.Boards {
			got[b.First], got[b.Second] = 'w', 'b'
		}
		for p := 1; p <= s.Players; p++ {
			seq[p] = append(seq[p], got[p])
		}
	}
	out := make([]string, s.Players+1)
	for p := 1; p <= s.Players; p++ {
		out[p] = string(seq[p])
	}
	return out
}
