// Package pairing pairs Swiss tournament rounds by the FIDE Dutch system
// (C.04.3, 2026 edition, with the 2017 edition selectable), reading and
// writing tournaments through package trf. Its results reproduce those of
// the reference engine bbpPairings.
package pairing

import (
	"bufio"
	"fmt"
	"io"
	"math/rand/v2"
	"sort"
	"strings"

	"arbiter/pairing/trf"
)

// Edition selects the text of the FIDE Dutch rules.
type Edition uint8

// Editions.
const (
	Dutch2026 Edition = iota // C.04.3 in force from 2026
	Dutch2017                // C.04.3 as approved in 2017
)

// String returns the year of the edition.
func (e Edition) String() string {
	if e == Dutch2017 {
		return "2017"
	}
	return "2026"
}

// ColourPolicy says what colours mean in the game being played.
type ColourPolicy uint8

// Colour policies.
const (
	// ChessColours balances White and Black by Art. 5.2.
	ChessColours ColourPolicy = iota
	// ShogiColours balances sente (White's role: the first mover is
	// reported as White) and gote by the same rules.
	ShogiColours
	// FirstPlayerByLot ignores colour history: the colour criteria do not
	// apply and the first player of each board is drawn by lot.
	FirstPlayerByLot
)

// Options control one pairing.
type Options struct {
	Edition Edition
	Colours ColourPolicy
	// Round is the round to pair (1-based); 0 pairs the next round.
	Round int
	// Baku applies Baku acceleration when the file has no XXA lines.
	Baku bool
	// InitialColour overrides the file's initial colour: 'w', 'b' or 0.
	// Without either, it is inferred from the history (InferInitialColour)
	// or, before round 1, White.
	InitialColour byte
	// LotSeed seeds the lot of FirstPlayerByLot.
	LotSeed uint64
	// Trace asks for an explanation of the pairing.
	Trace bool
	// RematchesBefore relaxes C1 (no rematch) for the games of rounds
	// before it: players who met only in those rounds may meet again. It
	// is the chief arbiter's last resort when no valid pairing exists; 0
	// keeps C1 whole.
	RematchesBefore int
}

// NoValidPairingError reports that no pairing satisfies the absolute
// criteria; the chief arbiter must decide.
type NoValidPairingError struct {
	Round  int
	Reason string
}

// Error names the round and the reason.
func (e *NoValidPairingError) Error() string {
	return fmt.Sprintf("no valid pairing for round %d: %s", e.Round, e.Reason)
}

// Board is one game of a round, by starting rank.
type Board struct {
	White, Black int
}

// Pairing is the result of pairing one round.
type Pairing struct {
	Round  int
	Boards []Board // in publication order
	Bye    int     // player given the pairing-allocated bye, 0 if none
	Trace  *Trace  // nil unless Options.Trace
}

// NextRound returns the round that follows the tournament's history: the
// last round column if it holds only byes and absences announced in advance,
// otherwise the one after it.
func NextRound(t *trf.Tournament) int {
	last := t.PlayedRounds()
	if last == 0 {
		return 1
	}
	for _, p := range t.Players {
		if len(p.Games) >= last {
			g := p.Games[last-1]
			if g.Opponent != 0 || g.Result == 'U' {
				return last + 1
			}
		}
	}
	return last
}

// Pair pairs a round of t by the FIDE Dutch system.
func Pair(t *trf.Tournament, opts Options) (*Pairing, error) {
	opts, err := roundOptions(t, opts)
	if err != nil {
		return nil, err
	}
	round := opts.Round
	s, err := newState(t, round, opts)
	if err != nil {
		return nil, fmt.Errorf("pair round %d: %w", round, err)
	}
	d := &dutch{s: s}
	if opts.Trace {
		d.trace = &Trace{Round: round, Edition: opts.Edition}
	}
	pairs, bye, err := d.pairRound()
	if err != nil {
		if nv, ok := err.(*NoValidPairingError); ok {
			nv.Round = round
		}
		return nil, err
	}
	res := &Pairing{Round: round, Trace: d.trace}
	var lot *rand.Rand
	if opts.Colours == FirstPlayerByLot {
		lot = rand.New(rand.NewPCG(opts.LotSeed, uint64(round)))
	}
	d.publish(res, d.boards(pairs, lot != nil), lot)
	if bye >= 0 {
		res.Bye = d.sorted[bye].id
		d.traceBye(d.sorted[bye])
	}
	if d.trace != nil {
		d.trace.Matchings = d.matchings
	}
	return res, nil
}

// roundOptions completes opts for pairing t: the round (the next one if
// 0), and the edition, Baku acceleration and initial colour that the file
// gives.
func roundOptions(t *trf.Tournament, opts Options) (Options, error) {
	if opts.Round == 0 {
		opts.Round = NextRound(t)
	}
	if t.Rounds > 0 && opts.Round > t.Rounds {
		return opts, fmt.Errorf("pair round %d: the tournament has only %d rounds", opts.Round, t.Rounds)
	}
	sys := strings.ToUpper(t.System)
	if strings.Contains(sys, "BAKU") {
		opts.Baku = true
	}
	if strings.Contains(sys, "DUTCH_2017") {
		opts.Edition = Dutch2017
	}
	if t.InitialColour == 0 && opts.InitialColour == 0 {
		// No XXC or 152: recover the lot from the history, else White.
		opts.InitialColour = InferInitialColour(t)
	}
	return opts, nil
}

// publishedBoard is a board with what orders the publication: its players
// of higher and lower real score, and the rule that gave the colours.
type publishedBoard struct {
	Board
	hi, lo *player
	rule   ColourRule
}

// boards gives each pair (indexes into d.sorted) its colours, by the
// colour rules or, byLot, to be drawn, and returns the boards in
// publication order: higher score of the pair, then lower score, then the
// rank of the higher player.
func (d *dutch) boards(pairs [][2]int, byLot bool) []publishedBoard {
	var boards []publishedBoard
	for _, pr := range pairs {
		boards = append(boards, d.board(d.sorted[pr[0]], d.sorted[pr[1]], byLot))
	}
	sort.SliceStable(boards, func(i, j int) bool {
		x, y := boards[i], boards[j]
		if x.hi.score != y.hi.score {
			return x.hi.score > y.hi.score
		}
		if x.lo.score != y.lo.score {
			return x.lo.score > y.lo.score
		}
		return x.hi.rank < y.hi.rank
	})
	return boards
}

// board gives a and b their colours.
func (d *dutch) board(a, b *player, byLot bool) publishedBoard {
	if a.id > b.id {
		a, b = b, a
	}
	c, rule := d.s.chooseColour(a, b)
	if byLot {
		rule = RuleLot
	}
	// Publication order uses real scores, not accelerated ones.
	hi, lo := a, b
	if b.score > a.score || (b.score == a.score && b.rank < a.rank) {
		hi, lo = b, a
	}
	bd := publishedBoard{hi: hi, lo: lo, rule: rule}
	if c == White {
		bd.White, bd.Black = a.id, b.id
	} else {
		bd.White, bd.Black = b.id, a.id
	}
	return bd
}

// publish adds boards to res in their order, drawing the first player of
// each by lot if lot is not nil, and to the trace.
func (d *dutch) publish(res *Pairing, boards []publishedBoard, lot *rand.Rand) {
	for _, b := range boards {
		if lot != nil && lot.IntN(2) == 1 {
			b.White, b.Black = b.Black, b.White
		}
		res.Boards = append(res.Boards, b.Board)
		if d.trace != nil {
			d.trace.Boards = append(d.trace.Boards, BoardTrace{White: b.White, Black: b.Black, Rule: b.rule})
		}
	}
}

// traceBye explains in the trace, if any, why p has the pairing-allocated
// bye: who else of p's score could have had it.
func (d *dutch) traceBye(p *player) {
	if d.trace == nil {
		return
	}
	bt := &ByeTrace{Player: p.id, Score: float64(d.score(p)) / 10, PlayedGames: p.playedGames}
	for _, q := range d.sorted {
		if d.score(q) == d.score(p) && d.s.eligibleForBye(q) {
			bt.Eligible = append(bt.Eligible, q.id)
		}
	}
	d.trace.Bye = bt
}

// WritePairs writes p in the engines' output format: the number of pairs
// (the bye counts as one), then one "white black" line per board and
// "player 0" for the pairing-allocated bye.
func WritePairs(w io.Writer, p *Pairing) error {
	bw := bufio.NewWriter(w)
	n := len(p.Boards)
	if p.Bye != 0 {
		n++
	}
	fmt.Fprintln(bw, n)
	for _, b := range p.Boards {
		fmt.Fprintf(bw, "%d %d\n", b.White, b.Black)
	}
	if p.Bye != 0 {
		fmt.Fprintf(bw, "%d 0\n", p.Bye)
	}
	return bw.Flush()
}
