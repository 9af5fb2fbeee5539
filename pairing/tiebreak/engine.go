package tiebreak

import (
	"fmt"
	"slices"
)

// Rules selects the edition of C.07.
type Rules uint8

// Editions of C.07 that differ in the numbers they produce.
const (
	// Rules2026 is the text in force since 1 March 2026: the dummy opponent
	// of an unplayed round is worth at most the scheduled opponent's score
	// (16.4.1) or half the maximum score (16.4.2).
	Rules2026 Rules = iota
	// Rules2024 is the 1 August 2024 text: the dummy is worth the player's
	// own final score.
	Rules2024
	// Rules2009 is the virtual-opponent rule of 2009–2023, for checking
	// old events: an unplayed round of the player counts as a game against
	// a virtual opponent with Svon = SPR + (1 − SfPR) + ½·(n − R) (SPR the
	// player's score before round R, SfPR what the player got in it, n the
	// number of rounds); the opponents' unplayed rounds count as draws; cuts
	// take the lowest contributions whatever their origin.
	Rules2009
)

// Options tune Compute. The zero value is right for a current FIDE event.
type Options struct {
	// Rules selects the edition of C.07; the zero value is the current one.
	Rules Rules
	// IsolateFB keeps Fore Buchholz from changing the columns after it. The
	// reference implementation (Gacrux), whose numbers Compute reproduces by
	// default, lets computing FB mark every player who had an opponent or a
	// PAB in the last round as present through the whole event; later BH,
	// SB and AOB columns then take that player's byes after their last game
	// at face value instead of as draws (C.07 16.3).
	IsolateFB bool
	// StandardPoints computes the tie-breaks other than PTS on standard
	// points (C.07, 2026): a round counts 1 when it brought more than a
	// draw's points, ½ for a draw's and 0 for less, whatever the event's
	// scoring (3–1–0, 2–1–0, …).
	StandardPoints bool
}

// engine holds the per-round facts of every player, flattened: entry
// p*rounds+r is player p (index in Tournament.Players) in round r (0-based).
type engine struct {
	t     *Tournament
	rules Rules
	// foreSeen is set once FB is computed, unless Options.IsolateFB.
	foreSeen  bool
	isolateFB bool
	n, nr     int
	ids       []int
	draw      float64
	win       float64
	pts       []float64 // points scored, standard points with Options.StandardPoints
	points    []float64 // each player's total under the event's scoring (PTS)
	opp       []int32   // opponent index, -1 for none
	res       []Result
	col       []Colour
	total     []float64 // each player's total of pts
	lna       []int     // last round (1-based) that was not a VUR, 0 if none
	lmp       []int     // last round with an opponent or a PAB, 0 if none
	rank      []int     // current rank by the tie-breaks computed so far
	order     []int     // players in current rank order
	values    [][]Value
	specs     []Spec

	scratch []contrib
}

func newEngine(t *Tournament, index map[int]int, rounds int, opts Options) *engine {
	n := len(t.Players)
	e := &engine{
		t: t, rules: opts.Rules, isolateFB: opts.IsolateFB, n: n, nr: rounds,
		ids:  make([]int, n),
		draw: t.Scoring.Draw, win: t.Scoring.Win,
		pts: make([]float64, n*rounds), opp: make([]int32, n*rounds),
		res: make([]Result, n*rounds), col: make([]Colour, n*rounds),
		total: make([]float64, n), points: make([]float64, n), lna: make([]int, n), lmp: make([]int, n),
		rank: make([]int, n), order: make([]int, n),
	}
	if opts.StandardPoints {
		e.draw, e.win = 0.5, 1
	}
	for p, pl := range t.Players {
		e.ids[p] = pl.ID
		e.rank[p] = 1
		e.order[p] = p
		for r := 0; r < rounds; r++ {
			k := p*rounds + r
			g := Game{}
			if r < len(pl.Games) {
				g = pl.Games[r]
			}
			e.res[k], e.col[k], e.opp[k] = g.Result, g.Colour, -1
			if g.Opponent != 0 {
				e.opp[k] = int32(index[g.Opponent])
			}
			e.pts[k] = t.Scoring.Points(g.Result)
			e.points[p] += e.pts[k]
			if opts.StandardPoints {
				e.pts[k] = standard(e.pts[k], t.Scoring.Draw)
			}
			e.total[p] += e.pts[k]
			if !g.Result.voluntary() {
				e.lna[p] = r + 1
			}
			if g.Opponent != 0 || g.Result == PairingBye {
				e.lmp[p] = r + 1
			}
		}
	}
	return e
}

// standard converts a round's points to standard points.
func standard(points, draw float64) float64 {
	switch {
	case points > draw:
		return 1
	case points == draw:
		return 0.5
	}
	return 0
}

// at returns the flat index of player p in round r (0-based).
func (e *engine) at(p, r int) int { return p*e.nr + r }

// overBoard reports whether player p played round r over the board.
func (e *engine) overBoard(k int) bool { return e.opp[k] >= 0 && e.res[k].Played() }

// compute evaluates one tie-break for every player.
func (e *engine) compute(s Spec) []Value {
	switch s.Kind {
	case WIN, WON, BPG, BWG, REP:
		return e.countedRounds(s.Kind)
	case PTS:
		return e.each(func(p int) float64 { return e.points[p] })
	case BH, FB, SB:
		return e.buchholz(s)
	case AOB:
		return e.averageOfBuchholz(s)
	case DE:
		return e.directEncounter(s)
	case ARO, TPR, PTP:
		return e.performance(s)
	case APRO, APPO:
		return e.averagePerformance(s)
	case PS:
		return e.progressive(s)
	case KS:
		return e.koya()
	case RTNG:
		return e.ratings(s)
	case TPN:
		return e.each(func(p int) float64 { return float64(e.ids[p]) })
	}
	panic(fmt.Sprintf("tiebreak: kind %v not handled", s.Kind))
}

// countedRounds computes the tie-breaks that count a player's rounds:
// wins (WIN), wins over the board (WON), games with the second move (BPG)
// and won with it (BWG), and rounds played or won (REP).
func (e *engine) countedRounds(kind Kind) []Value {
	switch kind {
	case WIN:
		return e.count(func(k int) bool { return e.pts[k] == e.win })
	case WON:
		return e.count(func(k int) bool { return e.overBoard(k) && e.pts[k] == e.win })
	case BPG:
		return e.count(func(k int) bool { return e.overBoard(k) && e.col[k] == Second })
	case BWG:
		return e.count(func(k int) bool { return e.overBoard(k) && e.col[k] == Second && e.pts[k] == e.win })
	}
	return e.count(func(k int) bool { return e.overBoard(k) || e.res[k] == PairingBye || e.pts[k] == e.win })
}

func (e *engine) each(f func(p int) float64) []Value {
	v := make([]Value, e.n)
	for p := range v {
		v[p] = Value{Num: f(p), OK: true}
	}
	return v
}

// count counts, for each player, the rounds (at flat index k) for which
// f holds.
func (e *engine) count(f func(k int) bool) []Value {
	return e.each(func(p int) float64 {
		c := 0
		for r := 0; r < e.nr; r++ {
			if f(e.at(p, r)) {
				c++
			}
		}
		return float64(c)
	})
}

// progressive sums the running score after each round, leaving out the
// first CutLow rounds.
func (e *engine) progressive(s Spec) []Value {
	return e.each(func(p int) float64 {
		run, sum := 0.0, 0.0
		for r := 0; r < e.nr; r++ {
			run += e.pts[e.at(p, r)]
			if r >= s.CutLow {
				sum += run
			}
		}
		return sum
	})
}

// koya sums the points scored against opponents who made at least half the
// maximum score.
func (e *engine) koya() []Value {
	games := e.nr
	if e.t.RoundRobin {
		if e.nr%e.n == 0 {
			games -= e.nr / e.n
		}
		for p := 0; p < e.n; p++ {
			if e.lmp[p] == 0 {
				games--
			}
		}
	}
	limit := e.win * float64(games) / 2
	return e.each(func(p int) float64 {
		sum := 0.0
		for r := 0; r < e.nr; r++ {
			k := e.at(p, r)
			if o := e.opp[k]; o >= 0 && e.total[o] >= limit {
				sum += e.pts[k]
			}
		}
		return sum
	})
}

// rerank sorts the players by the tie-breaks so far (the last one being
// column c) and assigns shared ranks to players equal on all of them.
func (e *engine) rerank(c int) {
	vals, asc := e.values[c], e.specs[c].Kind.ascending()
	slices.SortStableFunc(e.order, func(a, b int) int {
		if d := e.rank[a] - e.rank[b]; d != 0 {
			return d
		}
		if d := compareValues(vals[a], vals[b], asc); d != 0 {
			return d
		}
		return e.ids[a] - e.ids[b]
	})
	newRank := make([]int, e.n)
	for i, p := range e.order {
		if i == 0 || e.rank[p] == i+1 || vals[p] != vals[e.order[i-1]] {
			newRank[p] = i + 1
		} else {
			newRank[p] = newRank[e.order[i-1]]
		}
	}
	e.rank = newRank
}

// compareValues orders a before b (negative) when a ranks higher. A value
// that is not applicable ranks below every number.
func compareValues(a, b Value, asc bool) int {
	switch {
	case a.OK != b.OK:
		if a.OK {
			return -1
		}
		return 1
	case !a.OK || a.Num == b.Num:
		return 0
	case (a.Num > b.Num) != asc:
		return -1
	}
	return 1
}

// Compute ranks the players of t by points and then by the tie-breaks in
// specs, in order. Points always come first: PTS is prepended when specs
// does not start with it.
func Compute(t *Tournament, specs []Spec, opts Options) (*Standings, error) {
	index, rounds, err := t.validate()
	if err != nil {
		return nil, err
	}
	if opts.Rules > Rules2009 {
		return nil, fmt.Errorf("tiebreak: unknown rules edition %d", opts.Rules)
	}
	if len(specs) == 0 || specs[0].Kind != PTS {
		specs = append([]Spec{{Kind: PTS}}, specs...)
	}
	for i, s := range specs {
		if _, ok := kindNames[s.Kind]; !ok {
			return nil, fmt.Errorf("tiebreak: tie-break %d: unknown kind %d", i+1, s.Kind)
		}
		if s.CutLow < 0 || s.CutHigh < 0 {
			return nil, fmt.Errorf("tiebreak: tie-break %d (%v): negative cut", i+1, s)
		}
	}
	e := newEngine(t, index, rounds, opts)
	e.specs = slices.Clone(specs)
	for c, s := range e.specs {
		e.values = append(e.values, e.compute(s))
		e.rerank(c)
	}
	return e.standings(), nil
}

// standings collects the result rows in rank order.
func (e *engine) standings() *Standings {
	st := &Standings{Tiebreaks: e.specs, Rows: make([]Row, e.n), Rounds: e.nr}
	for i, p := range e.order {
		pl := &e.t.Players[p]
		row := Row{Rank: e.rank[p], ID: pl.ID, Name: pl.Name, Rating: pl.Rating, Values: make([]Value, len(e.specs))}
		for c := range e.specs {
			row.Values[c] = e.values[c][p]
		}
		st.Rows[i] = row
	}
	for i := range st.Rows {
		if (i > 0 && st.Rows[i-1].Rank == st.Rows[i].Rank) || (i+1 < len(st.Rows) && st.Rows[i+1].Rank == st.Rows[i].Rank) {
			st.Rows[i].Shared = true
		}
	}
	return st
}
