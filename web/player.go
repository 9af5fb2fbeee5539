package web

import (
	"fmt"
	"net/http"
	"strconv"

	"arbiter/pairing/tiebreak"
	"arbiter/rules"
	"arbiter/store"
)

// A player's page: who they are, every round they were paired in with the
// opponent, the side, the result and the running score, and their
// performance rating.

// playerPage is what the player's page shows.
type playerPage struct {
	Tournament store.Tournament
	Player     store.Player
	// Rank is the player's place in the standings, Shared when tied.
	Rank   int
	Shared bool
	Points float64
	Rounds []playerRound
	// Performance is the FIDE tournament performance rating (TPR) over
	// the games played against rated opponents; 0 when it does not apply
	// (no such game, or unrated players in the tournament).
	Performance int
	// Average is the opponents' average rating (ARO), 0 likewise.
	Average int
}

// playerRound is one round of a player.
type playerRound struct {
	Round  int
	Board  int
	Side   string // the game's name of the player's side; "" for a bye
	Oppo   *store.Player
	GameID uint64
	// Result is the round's result for the player in words ("win",
	// "half-point bye", "in play").
	Result string
	Points float64
	Score  float64 // after the round
	Done   bool    // the round counts in Score
}

// player gathers player n's page of tournament id.
func (s *Site) player(id uint64, n int) (*playerPage, error) {
	t, err := s.tournament(id)
	if err != nil {
		return nil, err
	}
	db := s.d.DB()
	ps, err := db.Players(id)
	if err != nil {
		return nil, fmt.Errorf("players of tournament %d: %w", id, err)
	}
	byID := playersByNumber(ps)
	me, ok := byID[n]
	if !ok {
		return nil, fmt.Errorf("tournament %d has no player %d: %w", id, n, store.ErrNotFound)
	}
	rs, err := db.Rounds(id)
	if err != nil {
		return nil, fmt.Errorf("rounds of tournament %d: %w", id, err)
	}
	ct, _, err := s.crosstable(id)
	if err != nil {
		return nil, fmt.Errorf("crosstable of tournament %d: %w", id, err)
	}
	pp := &playerPage{Tournament: t, Player: me}
	var cells []tiebreak.Cell
	for _, row := range ct.Rows {
		if row.ID == n {
			pp.Rank, pp.Shared, pp.Points, cells = row.Rank, row.Shared, row.Points, row.Cells
		}
	}
	first, second := gameSides(t.Game, "first", "second")
	pp.Rounds = playerRounds(rs, n, cells, [2]string{first, second}, byID)
	if err := s.performance(pp, id, n); err != nil {
		return nil, err
	}
	return pp, nil
}

// playerRounds are player n's rounds of rs, with the side they play
// (sides, by the game's names), their opponent of byID, and the points and
// the running score as the player's crosstable cells count them.
func playerRounds(rs []store.Round, n int, cells []tiebreak.Cell, sides [2]string, byID map[int]store.Player) []playerRound {
	var out []playerRound
	score := 0.0
	for _, r := range rs {
		for _, p := range r.Pairings {
			if p.First != n && p.Second != n {
				continue
			}
			pr := newPlayerRound(r.Number, p, n, sides, byID)
			if i := r.Number - 1; p.Result != "" && i < len(cells) {
				pr.counted(p, cells[i])
				score += pr.Points
			} else if p.Second != 0 {
				pr.Result = "in play"
			}
			pr.Score = score
			out = append(out, pr)
		}
	}
	return out
}

// newPlayerRound is player n's round number of pairing p, with the side
// they play and their opponent of byID; a bye has its result already.
func newPlayerRound(number int, p store.Pairing, n int, sides [2]string, byID map[int]store.Player) playerRound {
	pr := playerRound{Round: number, Board: p.Board, GameID: p.GameID}
	oppo := p.Second
	switch {
	case p.Second == 0:
		pr.Result = byeText(p.Result)
	case p.First == n:
		pr.Side = sides[0]
	default:
		pr.Side, oppo = sides[1], p.First
	}
	if o, ok := byID[oppo]; ok && oppo != 0 {
		pr.Oppo = &o
	}
	return pr
}

// counted sets the round's points, and the result in words of a game,
// as the crosstable's cell counts them: the round counts in the score.
func (pr *playerRound) counted(p store.Pairing, cell tiebreak.Cell) {
	pr.Done, pr.Points = true, cell.Points
	if p.Second != 0 {
		pr.Result = cell.Result.String()
	}
}

// performance sets player n's performance and opponents' average in
// tournament id, by the tie-break engine's own rules (C.07: TPR and
// ARO), over the games played.
func (s *Site) performance(pp *playerPage, id uint64, n int) error {
	t, err := s.results(id)
	if err != nil {
		return err
	}
	perf, err := tiebreak.Compute(t, tiebreak.MustParseSpecs("TPR ARO"), tiebreak.Options{})
	if err != nil {
		return fmt.Errorf("performance in tournament %d: %w", id, err)
	}
	for _, row := range perf.Rows {
		if row.ID == n {
			if v := row.Values[1]; v.OK {
				pp.Performance = int(v.Num)
			}
			if v := row.Values[2]; v.OK {
				pp.Average = int(v.Num)
			}
		}
	}
	return nil
}

// playersByNumber indexes a tournament's players by their start number.
func playersByNumber(ps []store.Player) map[int]store.Player {
	byID := make(map[int]store.Player, len(ps))
	for _, p := range ps {
		byID[p.ID] = p
	}
	return byID
}

// gameSides are the names of a game's sides as the game writes them
// ("White", "Sente"); first and second if it is not a game the rules
// know.
func gameSides(game, first, second string) (string, string) {
	if g, err := rules.New(game, rules.Options{}); err == nil {
		return g.SideName(rules.First), g.SideName(rules.Second)
	}
	return first, second
}

func (s *Site) playerPage(w http.ResponseWriter, r *http.Request) {
	id, err := pathID(r, "id")
	if err != nil {
		s.failErr(w, r, err)
		return
	}
	n, err := strconv.Atoi(r.PathValue("n"))
	if err != nil || n < 1 {
		s.failErr(w, r, fmt.Errorf("%w: player %q is not a start number", errBadRequest, r.PathValue("n")))
		return
	}
	pp, err := s.player(id, n)
	if err != nil {
		s.failErr(w, r, err)
		return
	}
	s.render(w, r, http.StatusOK, "player", pp)
}
