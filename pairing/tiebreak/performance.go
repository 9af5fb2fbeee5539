package tiebreak

import "slices"

// ratingsValid reports whether rating-based tie-breaks apply: everyone is
// rated, or the spec says what rating the unrated get.
func (e *engine) ratingsValid(s Spec) bool {
	if s.Unrated > 0 {
		return true
	}
	for _, pl := range e.t.Players {
		if pl.Rating <= 0 {
			return false
		}
	}
	return true
}

// rating returns player p's rating for tie-break purposes.
func (e *engine) rating(p int, s Spec) int {
	if r := e.t.Players[p].Rating; r > 0 {
		return r
	}
	return s.Unrated
}

// ratings is RTNG.
func (e *engine) ratings(s Spec) []Value {
	if !e.ratingsValid(s) {
		return make([]Value, e.n)
	}
	return e.each(func(p int) float64 { return float64(e.rating(p, s)) })
}

// ratedGame is a game played over the board against a rated opponent.
type ratedGame struct {
	rating int
	score  int // 2 for a win, 1 for a draw, 0 for a loss: standard points
}

// performance computes ARO, TPR and PTP from the games played over the
// board. Cuts drop the lowest (and highest) rated opponents, but only when
// every played game had a rated opponent.
func (e *engine) performance(s Spec) []Value {
	if !e.ratingsValid(s) {
		return make([]Value, e.n)
	}
	rate := performances[s.Kind]
	low := min(s.CutLow, e.nr)
	high := min(s.CutHigh, e.nr-low)
	out := make([]Value, e.n)
	var games []ratedGame
	for p := 0; p < e.n; p++ {
		var played int
		games, played = e.ratedGames(p, s, games[:0])
		games = cutGames(games, played, low, high)
		if len(games) == 0 {
			continue
		}
		out[p] = Value{Num: float64(rate(games)), OK: true}
	}
	return out
}

// performances gives the function of each performance tie-break.
var performances = map[Kind]func([]ratedGame) int{
	ARO: averageRating,
	TPR: performanceRating,
	PTP: perfectPerformance,
}

// ratedGames appends to games player p's games played over the board
// against a rated opponent, and returns them with the number of games p
// played over the board.
func (e *engine) ratedGames(p int, s Spec, games []ratedGame) ([]ratedGame, int) {
	played := 0
	for r := 0; r < e.nr; r++ {
		k := e.at(p, r)
		if !e.overBoard(k) {
			continue
		}
		played++
		if rt := e.rating(int(e.opp[k]), s); rt > 0 {
			sc := 0
			switch e.res[k] {
			case Win:
				sc = 2
			case Draw:
				sc = 1
			}
			games = append(games, ratedGame{rating: rt, score: sc})
		}
	}
	return games, played
}

// cutGames drops the low lowest and the high highest rated games of the
// played ones, as long as every game played is among games (had a rated
// opponent).
func cutGames(games []ratedGame, played, low, high int) []ratedGame {
	byRating := func(a, b ratedGame) int { return a.rating - b.rating }
	for ; low > 0; low-- {
		if played == len(games) && len(games) > 0 {
			slices.SortStableFunc(games, byRating)
			games = games[1:]
		}
		played--
	}
	for ; high > 0; high-- {
		if played == len(games) && len(games) > 0 {
			slices.SortStableFunc(games, byRating)
			games = games[:len(games)-1]
		}
		played--
	}
	return games
}

// averageRating is the opponents' average rating rounded half up.
func averageRating(games []ratedGame) int {
	sum := 0
	for _, g := range games {
		sum += g.rating
	}
	return divRound(sum, len(games))
}

// divRound returns a/b rounded half up, for a ≥ 0 and b > 0.
func divRound(a, b int) int { return (2*a + b) / (2 * b) }

// performanceRating is ARO + dp(p), p the percentage score rounded half up.
func performanceRating(games []ratedGame) int {
	half := 0
	for _, g := range games {
		half += g.score
	}
	return averageRating(games) + dp(divRound(half*50, len(games)))
}

// perfectPerformance is the lowest rating whose expected score against the
// opponents (table 8.1b) reaches the score made; a zero score gives the
// lowest opponent's rating minus 800.
func perfectPerformance(games []ratedGame) int {
	half, lo, hi := 0, games[0].rating, games[0].rating
	for _, g := range games {
		half += g.score
		lo, hi = min(lo, g.rating), max(hi, g.rating)
	}
	if half == 0 {
		return lo - 800
	}
	target := half * 50 // in percent points
	reaches := func(r int) bool {
		sum := 0
		for _, g := range games {
			sum += expectedPercent(r, g.rating)
		}
		return sum >= target
	}
	// The expected score grows with the rating and reaches its maximum at
	// 736 points above the strongest opponent.
	a, b := lo-801, hi+800 // reaches(a) is false, reaches(b) is true
	for b-a > 1 {
		m := a + (b-a)/2
		if reaches(m) {
			b = m
		} else {
			a = m
		}
	}
	return b
}

// averagePerformance is APRO (average of the opponents' TPR) and APPO
// (average of their PTP), over games played, rounded half up.
func (e *engine) averagePerformance(s Spec) []Value {
	base := Spec{Kind: TPR, Unrated: s.Unrated}
	if s.Kind == APPO {
		base.Kind = PTP
	}
	return e.averageOver(e.performance(base), 0)
}
