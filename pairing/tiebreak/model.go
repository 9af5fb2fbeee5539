// Package tiebreak computes tournament standings with the tie-breaks of FIDE
// C.07 (the text in force since 1 March 2026), including its rules for
// unplayed rounds, and renders them as a table or a crosstable.
//
// The input is a neutral model of the rounds played (Tournament); FromTRF
// builds it from a TRF file. Colours are neutral: First is the player who
// moves first (White in chess, sente in shogi) and Second the other one
// (Black, gote); the tie-breaks that FIDE names after Black (BPG, BWG) count
// games with the second move.
//
// Numbers match the FIDE technical commission's reference implementation
// (Gacrux) in Swiss mode, including its reading of the unplayed-round rules.
package tiebreak

import (
	"errors"
	"fmt"
)

// Colour is the side a player had in a game.
type Colour uint8

// Colours. The chess and shogi names are aliases of the neutral ones.
const (
	NoColour Colour = iota // byes, absences and forfeits without a known side
	First                  // the side that moves first
	Second                 // the side that moves second

	White = First
	Black = Second
	Sente = First
	Gote  = Second
)

// String returns "first", "second" or "none".
func (c Colour) String() string {
	switch c {
	case First:
		return "first"
	case Second:
		return "second"
	}
	return "none"
}

// Result is what one round brought a player. Played results need an
// opponent; byes and absences must have none.
type Result uint8

// Results of a round, from the player's point of view. The TRF code of each
// is in parentheses.
const (
	Absent      Result = iota // not paired and no bye requested: zero points (Z, blank)
	Win                       // won over the board (1, W)
	Draw                      // drawn over the board (=, D)
	Loss                      // lost over the board (0, L)
	ForfeitWin                // scheduled opponent did not play (+)
	ForfeitLoss               // did not play the scheduled game (-), also a double forfeit
	PairingBye                // pairing-allocated bye, PAB (U)
	FullBye                   // requested full-point bye, FPB (F)
	HalfBye                   // requested half-point bye, HPB (H)
)

var resultNames = [...]string{"absent", "win", "draw", "loss", "forfeit win", "forfeit loss", "pairing bye", "full-point bye", "half-point bye"}

// String returns a lower-case English name.
func (r Result) String() string {
	if int(r) < len(resultNames) {
		return resultNames[r]
	}
	return fmt.Sprintf("Result(%d)", r)
}

// Played reports whether the result comes from a game played over the board.
func (r Result) Played() bool { return r == Win || r == Draw || r == Loss }

// needsOpponent reports whether the result only exists against an opponent.
func (r Result) needsOpponent() bool { return r.Played() || r == ForfeitWin || r == ForfeitLoss }

// voluntary reports whether an unplayed round is a VUR (C.07 16.2): the player
// did not play and did not get the points of a win for it.
func (r Result) voluntary() bool { return r == Absent || r == ForfeitLoss || r == HalfBye }

// Game is one round of one player.
type Game struct {
	Opponent int // opponent's ID, 0 when there is none
	Colour   Colour
	Result   Result
}

// Player is one participant. Games[r] is round r+1; missing trailing rounds
// count as Absent.
type Player struct {
	ID     int // starting rank (TPN), unique and positive
	Name   string
	Title  string
	Fed    string // federation
	Rating int    // 0 when unrated
	Games  []Game
}

// Scoring gives the points of each result.
type Scoring struct {
	Win         float64 // played win, forfeit win, FPB
	Draw        float64 // played draw, HPB
	Loss        float64 // played loss
	ZeroBye     float64 // absence, ZPB
	ForfeitLoss float64
	PAB         float64 // pairing-allocated bye
}

// DefaultScoring is 1–½–0 with a PAB worth a win.
var DefaultScoring = Scoring{Win: 1, Draw: 0.5, PAB: 1}

// Points returns the points r is worth.
func (s Scoring) Points(r Result) float64 {
	switch r {
	case Win, ForfeitWin, FullBye:
		return s.Win
	case Draw, HalfBye:
		return s.Draw
	case Loss:
		return s.Loss
	case ForfeitLoss:
		return s.ForfeitLoss
	case PairingBye:
		return s.PAB
	}
	return s.ZeroBye
}

// Tournament is the input of Compute: who played whom, with which colour and
// result, round by round.
type Tournament struct {
	Name    string
	Rounds  int // rounds of the event; 0 means the longest Games list
	Scoring Scoring
	// RoundRobin selects the C.07 rules for events with predetermined
	// pairings: unplayed games count as played against the scheduled
	// opponent and byes contribute nothing.
	RoundRobin bool
	Players    []Player
}

// ErrNoPlayers is returned for a tournament without players.
var ErrNoPlayers = errors.New("tiebreak: tournament has no players")

// validate checks IDs, opponents and the symmetry of every pairing, and
// returns the index of each player by ID and the number of rounds.
func (t *Tournament) validate() (map[int]int, int, error) {
	if len(t.Players) == 0 {
		return nil, 0, ErrNoPlayers
	}
	index, rounds, err := t.indexPlayers()
	if err != nil {
		return nil, 0, err
	}
	for _, p := range t.Players {
		for r, g := range p.Games {
			if err := t.checkGame(p.ID, r, g, index); err != nil {
				return nil, 0, fmt.Errorf("tiebreak: player %d round %d: %w", p.ID, r+1, err)
			}
		}
	}
	return index, rounds, nil
}

// indexPlayers checks the players' IDs and numbers of rounds, and returns
// the index of each player by ID and the number of rounds: t.Rounds, or
// the longest Games list when it is 0.
func (t *Tournament) indexPlayers() (map[int]int, int, error) {
	index := make(map[int]int, len(t.Players))
	rounds := t.Rounds
	for i, p := range t.Players {
		if p.ID <= 0 {
			return nil, 0, fmt.Errorf("tiebreak: player %d (%q): ID %d is not positive", i+1, p.Name, p.ID)
		}
		if _, dup := index[p.ID]; dup {
			return nil, 0, fmt.Errorf("tiebreak: player ID %d used twice", p.ID)
		}
		index[p.ID] = i
		if t.Rounds == 0 {
			rounds = max(rounds, len(p.Games))
		} else if len(p.Games) > t.Rounds {
			return nil, 0, fmt.Errorf("tiebreak: player %d has %d rounds, the event has %d", p.ID, len(p.Games), t.Rounds)
		}
	}
	return index, rounds, nil
}

// checkGame checks the game of player id in round r (from 0): a known
// result, an opponent exactly when the result needs one, and an opponent
// who lists the same game, played or not alike.
func (t *Tournament) checkGame(id, r int, g Game, index map[int]int) error {
	if g.Result > HalfBye {
		return fmt.Errorf("unknown result %d", g.Result)
	}
	if g.Opponent == 0 {
		if g.Result.needsOpponent() {
			return fmt.Errorf("%v without an opponent", g.Result)
		}
		return nil
	}
	if !g.Result.needsOpponent() {
		return fmt.Errorf("%v against opponent %d", g.Result, g.Opponent)
	}
	j, ok := index[g.Opponent]
	if !ok {
		return fmt.Errorf("opponent %d does not exist", g.Opponent)
	}
	if g.Opponent == id {
		return errors.New("paired with itself")
	}
	o := t.Players[j]
	if r >= len(o.Games) || o.Games[r].Opponent != id {
		return fmt.Errorf("opponent %d does not list the game", g.Opponent)
	}
	if g.Result.Played() != o.Games[r].Result.Played() {
		return fmt.Errorf("%v, but opponent %d has %v", g.Result, g.Opponent, o.Games[r].Result)
	}
	return nil
}
