package pairing

import (
	"fmt"
	"math"
	"slices"
	"sort"

	"arbiter/pairing/trf"
)

// Colour is a piece colour, or the side that moves first in games without
// colours.
type Colour uint8

// Colours.
const (
	White Colour = iota
	Black
	NoColour
)

func (c Colour) invert() Colour {
	switch c {
	case White:
		return Black
	case Black:
		return White
	}
	return NoColour
}

// String returns "White", "Black" or "none".
func (c Colour) String() string {
	switch c {
	case White:
		return "White"
	case Black:
		return "Black"
	}
	return "none"
}

// match is one round of a player's history as the pairing rules see it.
type match struct {
	opponent     int // index into state.players; the player's own index if none
	colour       Colour
	score        int // points in tenths
	played       bool
	participated bool // paired (even if forfeited) or given the PAB
	win          bool // scored a win (played or not)
}

// player is a participant with the data derived from the history.
type player struct {
	id    int // starting rank (TRF ID)
	index int // index into state.players
	// rank is the effective pairing number (0-based) among valid players.
	rank    int
	valid   bool
	present bool // to be paired this round
	rating  int
	matches []match
	accel   []int // virtual points per round, tenths
	score   int   // real score after the played rounds, tenths

	colourImbalance int
	colourDiff      int // games with White less games with Black
	colourPref      Colour
	repeatedColour  Colour // set only when the same colour was played twice in a row
	strongPref      bool
	playedGames     int
	// forbidden lists the indexes of the players p may not meet: few.
	// The engine asks the round's meetings (meet.go), built from it.
	forbidden []int

	pscore int          // pairing score, cached by the engine
	floats [2]floatKind // floats one and two rounds before, cached by the engine
	place  int          // the player's place in the engine's order (dutch.sorted)
}

func (p *player) absoluteImbalance() bool { return p.colourImbalance > 1 }
func (p *player) absolutePref() bool {
	return p.absoluteImbalance() || p.repeatedColour != NoColour
}

// state is a tournament as it stands before the round to be paired.
type state struct {
	players        []*player // by ID order
	playedRounds   int
	expectedRounds int
	win, draw      int // points in tenths
	loss           int
	zeroBye        int
	forfeitLoss    int
	pab            int
	initialColour  Colour
	edition        Edition
	colourBlind    bool
	// rematchesBefore: games of rounds before it do not forbid a rematch.
	rematchesBefore int
}

func tenths(x float64) int { return int(math.Round(x * 10)) }

// newState derives the pairing state for round (1-based) from t.
func newState(t *trf.Tournament, round int, opts Options) (*state, error) {
	s := &state{
		playedRounds:    round - 1,
		expectedRounds:  max(t.Rounds, round),
		win:             tenths(t.Scoring.Win),
		draw:            tenths(t.Scoring.Draw),
		loss:            tenths(t.Scoring.Loss),
		zeroBye:         tenths(t.Scoring.ZeroBye),
		forfeitLoss:     tenths(t.Scoring.ForfeitLoss),
		pab:             tenths(t.Scoring.PAB),
		initialColour:   initialColour(t.InitialColour, opts.InitialColour),
		edition:         opts.Edition,
		colourBlind:     opts.Colours == FirstPlayerByLot,
		rematchesBefore: opts.RematchesBefore,
	}
	order := make([]int, len(t.Players))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool { return t.Players[order[a]].ID < t.Players[order[b]].ID })
	byID := make(map[int]int, len(t.Players))
	for i, oi := range order {
		tp := &t.Players[oi]
		byID[tp.ID] = i
		s.players = append(s.players, &player{id: tp.ID, index: i, rating: tp.Rating})
	}
	for i, oi := range order {
		if err := s.readHistory(s.players[i], &t.Players[oi], byID); err != nil {
			return nil, err
		}
		s.players[i].accel = accelerations(t.Accelerations[t.Players[oi].ID])
	}
	for _, f := range t.Forbidden {
		a, okA := byID[f[0]]
		b, okB := byID[f[1]]
		if okA && okB {
			s.players[a].forbid(b)
			s.players[b].forbid(a)
		}
	}
	s.rankValid()
	if opts.Baku && len(t.Accelerations) == 0 {
		s.applyBaku()
	}
	for _, p := range s.players {
		if p.valid {
			s.computeColourData(p)
		}
	}
	return s, nil
}

// initialColour returns the colour of the initial-colour lot: the
// option's if set, else the file's, White if neither says Black.
func initialColour(file, option byte) Colour {
	if option != 0 {
		file = option
	}
	if file == 'b' {
		return Black
	}
	return White
}

// accelerations returns a player's virtual points per round in tenths,
// nil if none.
func accelerations(points []float64) []int {
	var accel []int
	for _, a := range points {
		accel = append(accel, tenths(a))
	}
	return accel
}

// readHistory reads tp's games into p's matches and score, padding rounds
// the file leaves out with zero-point byes. A game for the round being
// paired is a known absence or bye: p is then not present.
func (s *state) readHistory(p *player, tp *trf.Player, byID map[int]int) error {
	pr := s.playedRounds
	if len(tp.Games) > pr+1 {
		return fmt.Errorf("player %d has results for round %d, after the round %d to be paired", tp.ID, len(tp.Games), pr+1)
	}
	for r, g := range tp.Games {
		m, err := s.readGame(p, tp.ID, r, g, byID)
		if err != nil {
			return err
		}
		p.matches = append(p.matches, m)
	}
	p.present = len(p.matches) <= pr
	for len(p.matches) < pr {
		p.matches = append(p.matches, match{opponent: p.index, colour: NoColour, score: s.zeroBye})
	}
	for r := 0; r < pr; r++ {
		p.score += p.matches[r].score
	}
	return nil
}

// readGame returns the match of p (whose ID is id) in round r (0-based)
// that g records.
func (s *state) readGame(p *player, id, r int, g trf.Game, byID map[int]int) (match, error) {
	m := match{opponent: p.index, colour: NoColour}
	if g.Opponent != 0 {
		oj, ok := byID[g.Opponent]
		if !ok {
			return m, fmt.Errorf("player %d round %d: opponent %d does not exist", id, r+1, g.Opponent)
		}
		if r == s.playedRounds {
			return m, fmt.Errorf("player %d is already paired in round %d", id, r+1)
		}
		m.opponent = oj
		m.participated = true
		m.colour = gameColour(g.Colour)
	}
	if g.Result == 'U' && r == s.playedRounds {
		return m, fmt.Errorf("player %d: a pairing-allocated bye in round %d is produced by the pairing, not input", id, r+1)
	}
	s.applyResult(&m, g.Result)
	if !m.played {
		m.colour = NoColour
	}
	return m, nil
}

// gameColour returns the colour of a TRF game's colour code.
func gameColour(c byte) Colour {
	switch c {
	case 'w':
		return White
	case 'b':
		return Black
	}
	return NoColour
}

// applyResult sets what the TRF result code says of m: its score, whether it
// was played (when m has an opponent) and won, and, for the
// pairing-allocated bye, that the player took part in the pairing.
func (s *state) applyResult(m *match, result byte) {
	switch result {
	case '1', 'W':
		m.win = true
		m.played = m.participated
		m.score = s.win
	case '0', 'L':
		m.played = m.participated
		m.score = s.loss
	case '=', 'D':
		m.played = m.participated
		m.score = s.draw
	case '+', 'F':
		m.win = true
		m.score = s.win
	case '-':
		m.score = s.zeroBye
		if m.participated {
			m.score = s.forfeitLoss
		}
	case 'H':
		m.score = s.draw
	case 'U':
		m.win = true
		m.participated = true
		m.score = s.pab
	default: // 'Z', ' '
		m.score = s.zeroBye
	}
}

// rankValid marks the valid players, those to be paired or who took part
// in an earlier pairing, and gives them their effective pairing numbers.
func (s *state) rankValid() {
	rank := 0
	for _, p := range s.players {
		p.valid = p.present || slices.ContainsFunc(p.matches, func(m match) bool { return m.participated })
		if p.valid {
			p.rank = rank
			rank++
		}
	}
}

// computeColourData derives the colour preference from played games.
func (s *state) computeColourData(p *player) {
	white, black, consecutive := 0, 0, 0
	p.repeatedColour = NoColour
	for _, m := range p.matches[:min(len(p.matches), s.playedRounds)] {
		if !m.played {
			continue
		}
		p.playedGames++
		if m.colour == White {
			white++
		} else {
			black++
		}
		if consecutive == 0 || m.colour != p.repeatedColour {
			consecutive = 1
		} else {
			consecutive++
		}
		p.repeatedColour = m.colour
	}
	p.colourDiff = white - black
	lower := White
	if white > black {
		lower = Black
		p.colourImbalance = white - black
	} else {
		p.colourImbalance = black - white
	}
	switch {
	case p.colourImbalance > 1:
		p.colourPref = lower
	case consecutive > 1:
		p.colourPref = p.repeatedColour.invert()
	case p.colourImbalance > 0:
		p.colourPref = lower
	case consecutive > 0:
		p.colourPref = p.repeatedColour.invert()
	default:
		p.colourPref = NoColour
	}
	if consecutive <= 1 {
		p.repeatedColour = NoColour
	}
	p.strongPref = !p.absolutePref() && p.colourImbalance > 0
	if s.colourBlind {
		p.colourImbalance, p.colourDiff = 0, 0
		p.colourPref = NoColour
		p.repeatedColour = NoColour
		p.strongPref = false
	}
}

// applyBaku gives Baku acceleration (FIDE C.04.7; C.04.5.1 in 2017)
// virtual points to group A: the first half of the valid players by
// pairing number, rounded up to even.
func (s *state) applyBaku() {
	var valid []*player
	for _, p := range s.players {
		if p.valid {
			valid = append(valid, p)
		}
	}
	if len(valid) == 0 || s.expectedRounds == 0 {
		return
	}
	// Group A: the first half, rounded up to an even number (C.04.7).
	lastRank := min(2*((len(valid)+3)/4), len(valid)) - 1
	lastRound := (s.expectedRounds - 1) / 2
	lastFull := lastRound / 2
	for r := 0; r <= lastRank; r++ {
		p := valid[r]
		p.accel = p.accel[:0]
		for round := 0; round <= lastRound && round <= s.playedRounds; round++ {
			if round <= lastFull {
				p.accel = append(p.accel, s.win)
			} else {
				p.accel = append(p.accel, s.draw)
			}
		}
	}
}

// scoreAt returns the accelerated pairing score roundsBack rounds before the
// round being paired.
func (s *state) scoreAt(p *player, roundsBack int) int {
	score := p.score
	r := s.playedRounds
	for ; roundsBack > 0; roundsBack-- {
		r--
		score -= p.matches[r].score
	}
	if r < len(p.accel) {
		score += p.accel[r]
	}
	return score
}

// pairScore is the accelerated score used for pairing this round.
func (s *state) pairScore(p *player) int { return s.scoreAt(p, 0) }

// forbid records that p may not meet the player with index o.
func (p *player) forbid(o int) {
	if !slices.Contains(p.forbidden, o) {
		p.forbidden = append(p.forbidden, o)
	}
}

// ranksAbove reports whether a is ranked above b (score, then rank).
func (s *state) ranksAbove(a, b *player) bool {
	sa, sb := s.pairScore(a), s.pairScore(b)
	if sa != sb {
		return sa > sb
	}
	return a.rank < b.rank
}

// eligibleForBye implements the PAB eligibility criterion: no earlier PAB
// and no round scored as a win without playing (2026); in the 2017 edition,
// no earlier PAB or forfeit win.
func (s *state) eligibleForBye(p *player) bool { return s.unplayedWin(p) == 0 }

// unplayedWin returns the first round (1-based) that makes p ineligible
// for the PAB (eligibleForBye), or 0 if none does.
func (s *state) unplayedWin(p *player) int {
	for r, m := range p.matches[:s.playedRounds] {
		if m.played {
			continue
		}
		if s.edition == Dutch2017 {
			if m.participated && m.win {
				return r + 1
			}
			continue
		}
		if m.score >= s.win {
			return r + 1
		}
	}
	return 0
}

type floatKind uint8

const (
	floatDown floatKind = iota
	floatUp
	floatNone
)

// floatAt returns the float of p roundsBack rounds ago.
func (s *state) floatAt(p *player, roundsBack int) floatKind {
	m := p.matches[s.playedRounds-roundsBack]
	if !m.played {
		// 2017: every unplayed round is a downfloat; 2026: only rounds that
		// scored more than a loss without playing, and nobody else floats.
		if s.edition == Dutch2017 || m.score > s.loss {
			return floatDown
		}
		return floatNone
	}
	ps := s.scoreAt(p, roundsBack)
	os := s.scoreAt(s.players[m.opponent], roundsBack)
	switch {
	case ps > os:
		return floatDown
	case ps < os:
		return floatUp
	}
	return floatNone
}

// clashProne reports whether p has an absolute colour preference that
// keeps it from meeting a player with the same one: not in the last
// round if either is a topscorer.
func (s *state) clashProne(p *player) bool {
	if !p.absolutePref() {
		return false
	}
	if s.playedRounds >= s.expectedRounds-1 {
		return s.pairScore(p) <= s.playedRounds*max(s.win, s.draw)>>1
	}
	return true
}
