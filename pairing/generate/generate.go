// Package generate produces random Swiss tournaments paired by the Dutch
// engine, with draws, forfeits, requested byes and withdrawals, for testing
// pairing programs against each other. The configuration is a key=value
// file compatible with bbpPairings' random tournament generator.
package generate

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"

	"arbiter/pairing"
	"arbiter/pairing/trf"
)

// Config describes the tournaments to generate. Rates are "one in N": a
// rate of 20 means a probability of 1/20 per player and round; 0 disables.
type Config struct {
	Players          int
	Rounds           int
	DrawPercentage   int     // share of decisive-or-drawn games that are drawn, 0–100
	ForfeitRate      float64 // games forfeited (one side, sometimes both)
	RetiredRate      float64 // players withdrawing before a round
	HalfPointByeRate float64 // requested half-point byes
	ZeroPointByeRate float64 // announced absences
	HighestRating    int
	LowestRating     int
	Scoring          trf.Scoring
	Pairing          pairing.Options
}

// DefaultConfig returns a 40-player, 9-round configuration.
func DefaultConfig() Config {
	return Config{
		Players: 40, Rounds: 9, DrawPercentage: 30,
		HighestRating: 2600, LowestRating: 1400,
		Scoring: trf.DefaultScoring,
	}
}

// ConfigError reports a bad configuration line.
type ConfigError struct {
	Line int
	Msg  string
}

// Error formats the error with its line.
func (e *ConfigError) Error() string {
	return fmt.Sprintf("generator config line %d: %s", e.Line, e.Msg)
}

// ParseConfig reads a key=value configuration on top of DefaultConfig.
// Lines starting with # are comments. Keys (bbpPairings names): PlayersNumber,
// RoundsNumber, DrawPercentage, ForfeitRate, RetiredRate, HalfPointByeRate,
// ZeroPointByeRate, HighestRating, LowestRating, PointsForWin,
// PointsForDraw, PointsForLoss, PointsForZPB, PointsForForfeitLoss,
// PointsForPAB.
func ParseConfig(r io.Reader) (Config, error) {
	p := configParser{cfg: DefaultConfig()}
	sc := bufio.NewScanner(r)
	no := 0
	for sc.Scan() {
		no++
		for _, line := range strings.Split(sc.Text(), "\r") {
			if err := p.line(no, line); err != nil {
				return p.cfg, err
			}
		}
	}
	if err := sc.Err(); err != nil {
		return p.cfg, fmt.Errorf("read generator config: %w", err)
	}
	if p.cfg.LowestRating > p.cfg.HighestRating {
		return p.cfg, errors.New("generator config: LowestRating is above HighestRating")
	}
	return p.cfg, nil
}

// configParser is the configuration ParseConfig reads, line by line.
type configParser struct {
	cfg    Config
	pabSet bool // PointsForPAB was given: PointsForWin no longer sets it
}

// line reads line number no: blank, a comment or key=value.
func (p *configParser) line(no int, line string) error {
	line = strings.TrimSpace(line)
	if line == "" || strings.HasPrefix(line, "#") {
		return nil
	}
	key, val, ok := strings.Cut(line, "=")
	if !ok {
		return &ConfigError{no, fmt.Sprintf("%q is not key=value", line)}
	}
	v := configValue{line: no, key: strings.TrimSpace(key), text: strings.TrimSpace(val)}
	set, ok := configKeys[v.key]
	if !ok {
		return &ConfigError{no, fmt.Sprintf("unknown key %q", v.key)}
	}
	return set(p, v)
}

// configKeys sets, for each key, its field of the configuration from its
// value.
var configKeys = map[string]func(p *configParser, v configValue) error{
	"PlayersNumber": func(p *configParser, v configValue) (err error) { p.cfg.Players, err = v.int(1, 9999); return err },
	"RoundsNumber":  func(p *configParser, v configValue) (err error) { p.cfg.Rounds, err = v.int(1, 99); return err },
	"DrawPercentage": func(p *configParser, v configValue) (err error) {
		p.cfg.DrawPercentage, err = v.int(0, 100)
		return err
	},
	"ForfeitRate":      func(p *configParser, v configValue) (err error) { p.cfg.ForfeitRate, err = v.rate(1); return err },
	"RetiredRate":      func(p *configParser, v configValue) (err error) { p.cfg.RetiredRate, err = v.rate(2); return err },
	"HalfPointByeRate": func(p *configParser, v configValue) (err error) { p.cfg.HalfPointByeRate, err = v.rate(1); return err },
	// bbpPairings' generator spells it so.
	"HalfPointByteRate": func(p *configParser, v configValue) (err error) { p.cfg.HalfPointByeRate, err = v.rate(1); return err },
	"ZeroPointByeRate":  func(p *configParser, v configValue) (err error) { p.cfg.ZeroPointByeRate, err = v.rate(1); return err },
	"HighestRating": func(p *configParser, v configValue) (err error) {
		p.cfg.HighestRating, err = v.int(0, 9999)
		return err
	},
	"LowestRating": func(p *configParser, v configValue) (err error) { p.cfg.LowestRating, err = v.int(0, 9999); return err },
	"PointsForWin": func(p *configParser, v configValue) (err error) {
		p.cfg.Scoring.Win, err = v.points()
		if !p.pabSet {
			p.cfg.Scoring.PAB = p.cfg.Scoring.Win
		}
		return err
	},
	"PointsForDraw": func(p *configParser, v configValue) (err error) { p.cfg.Scoring.Draw, err = v.points(); return err },
	"PointsForLoss": func(p *configParser, v configValue) (err error) { p.cfg.Scoring.Loss, err = v.points(); return err },
	"PointsForZPB":  func(p *configParser, v configValue) (err error) { p.cfg.Scoring.ZeroBye, err = v.points(); return err },
	"PointsForForfeitLoss": func(p *configParser, v configValue) (err error) {
		p.cfg.Scoring.ForfeitLoss, err = v.points()
		p.cfg.Scoring.ZeroBye = p.cfg.Scoring.ForfeitLoss
		return err
	},
	"PointsForPAB": func(p *configParser, v configValue) (err error) {
		p.cfg.Scoring.PAB, err = v.points()
		p.pabSet = true
		return err
	},
}

// configValue is the value of a key on a configuration line.
type configValue struct {
	line      int
	key, text string
}

// bad reports that the value is not what the key takes.
func (v configValue) bad(what string) error {
	return &ConfigError{v.line, fmt.Sprintf("%s: %q is not %s", v.key, v.text, what)}
}

// int reads a whole number from lo to hi.
func (v configValue) int(lo, hi int) (int, error) {
	n, err := strconv.Atoi(v.text)
	if err != nil || n < lo || n > hi {
		return 0, v.bad(fmt.Sprintf("a whole number from %d to %d", lo, hi))
	}
	return n, nil
}

// rate reads a rate: 0 (never) or one in at least min.
func (v configValue) rate(min float64) (float64, error) {
	x, err := strconv.ParseFloat(v.text, 64)
	if err != nil || (x != 0 && x < min) || math.IsNaN(x) || math.IsInf(x, 0) {
		return 0, v.bad(fmt.Sprintf("0 or a rate of at least %g", min))
	}
	return x, nil
}

// points reads a number of points from 0 to 99.
func (v configValue) points() (float64, error) {
	x, err := strconv.ParseFloat(v.text, 64)
	if err != nil || x < 0 || x > 99 || math.IsNaN(x) {
		return 0, v.bad("points like 1.0")
	}
	return x, nil
}

// Tournament generates a complete tournament. The same configuration and
// seed always give the same tournament.
func Tournament(cfg Config, seed uint64) (*trf.Tournament, error) {
	if cfg.Players < 1 || cfg.Rounds < 1 {
		return nil, errors.New("generate: need at least one player and one round")
	}
	rng := rand.New(rand.NewPCG(seed, 0x5157))
	t := newTournament(cfg, seed, rng)
	withdrawn := make([]bool, cfg.Players)
	for round := 1; round <= cfg.Rounds; round++ {
		absences(t, cfg, rng, round, withdrawn)
		if err := playRound(t, cfg, rng, round); err != nil {
			return nil, err
		}
	}
	for i := range t.Players {
		p := &t.Players[i]
		p.Points = 0
		for _, g := range p.Games {
			p.Points += t.Scoring.Points(g)
		}
	}
	return t, nil
}

// newTournament draws the initial colour and the players' ratings, and
// numbers the players by descending rating.
func newTournament(cfg Config, seed uint64, rng *rand.Rand) *trf.Tournament {
	t := &trf.Tournament{
		Name:    fmt.Sprintf("Generated tournament %d", seed),
		Rounds:  cfg.Rounds,
		Scoring: cfg.Scoring,
	}
	if rng.IntN(2) == 0 {
		t.InitialColour = 'w'
	} else {
		t.InitialColour = 'b'
	}
	ratings := make([]int, cfg.Players)
	for i := range ratings {
		ratings[i] = cfg.LowestRating + rng.IntN(cfg.HighestRating-cfg.LowestRating+1)
	}
	// Pairing numbers follow descending rating.
	slices.SortFunc(ratings, func(a, b int) int { return b - a })
	for i, r := range ratings {
		t.Players = append(t.Players, trf.Player{
			ID: i + 1, Name: fmt.Sprintf("Player%04d", i+1), Rating: r,
		})
	}
	return t
}

// absences draws who does not play round: withdrawn players, new
// withdrawals (from round 2), requested half-point byes (before the last
// round) and announced absences; each gets the round's entry.
func absences(t *trf.Tournament, cfg Config, rng *rand.Rand, round int, withdrawn []bool) {
	hit := func(rate float64) bool { return rate >= 1 && rng.Float64()*rate < 1 }
	for i := range t.Players {
		p := &t.Players[i]
		switch {
		case withdrawn[i]:
			p.Games = append(p.Games, trf.Game{Colour: '-', Result: 'Z'})
		case round > 1 && hit(cfg.RetiredRate):
			withdrawn[i] = true
			p.Games = append(p.Games, trf.Game{Colour: '-', Result: 'Z'})
		case round < cfg.Rounds && hit(cfg.HalfPointByeRate):
			p.Games = append(p.Games, trf.Game{Colour: '-', Result: 'H'})
		case hit(cfg.ZeroPointByeRate):
			p.Games = append(p.Games, trf.Game{Colour: '-', Result: 'Z'})
		}
	}
}

// playRound pairs round with the Dutch engine and draws its results; the
// pairing-allocated bye gets its entry. Everyone else already has an
// entry for the round (absence).
func playRound(t *trf.Tournament, cfg Config, rng *rand.Rand, round int) error {
	opts := cfg.Pairing
	opts.Round = round
	res, err := pairing.Pair(t, opts)
	if err != nil {
		return fmt.Errorf("generate round %d: %w", round, err)
	}
	byID := func(id int) *trf.Player { return &t.Players[id-1] }
	for _, b := range res.Boards {
		w, bl := byID(b.White), byID(b.Black)
		wr, br := result(rng, cfg, w.Rating, bl.Rating)
		w.Games = append(w.Games, trf.Game{Opponent: b.Black, Colour: 'w', Result: wr})
		bl.Games = append(bl.Games, trf.Game{Opponent: b.White, Colour: 'b', Result: br})
	}
	if res.Bye != 0 {
		p := byID(res.Bye)
		p.Games = append(p.Games, trf.Game{Colour: '-', Result: 'U'})
	}
	return nil
}

// result draws the result of a game from the Elo expectation.
func result(rng *rand.Rand, cfg Config, white, black int) (byte, byte) {
	if cfg.ForfeitRate >= 1 && rng.Float64()*cfg.ForfeitRate < 1 {
		switch rng.IntN(5) {
		case 0:
			return '-', '-'
		case 1, 2:
			return '+', '-'
		default:
			return '-', '+'
		}
	}
	expect := 1 / (1 + math.Pow(10, float64(black-white)/400))
	if rng.IntN(100) < cfg.DrawPercentage {
		return '=', '='
	}
	if rng.Float64() < expect {
		return '1', '0'
	}
	return '0', '1'
}
