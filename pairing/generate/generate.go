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
	cfg := DefaultConfig()
	sc := bufio.NewScanner(r)
	no := 0
	pabSet := false
	for sc.Scan() {
		no++
		for _, line := range strings.Split(sc.Text(), "\r") {
			line = strings.TrimSpace(line)
			if line == "" || strings.HasPrefix(line, "#") {
				continue
			}
			key, val, ok := strings.Cut(line, "=")
			if !ok {
				return cfg, &ConfigError{no, fmt.Sprintf("%q is not key=value", line)}
			}
			key, val = strings.TrimSpace(key), strings.TrimSpace(val)
			bad := func(what string) error {
				return &ConfigError{no, fmt.Sprintf("%s: %q is not %s", key, val, what)}
			}
			intVal := func(lo, hi int) (int, error) {
				n, err := strconv.Atoi(val)
				if err != nil || n < lo || n > hi {
					return 0, bad(fmt.Sprintf("a whole number from %d to %d", lo, hi))
				}
				return n, nil
			}
			rate := func(min float64) (float64, error) {
				x, err := strconv.ParseFloat(val, 64)
				if err != nil || (x != 0 && x < min) || math.IsNaN(x) || math.IsInf(x, 0) {
					return 0, bad(fmt.Sprintf("0 or a rate of at least %g", min))
				}
				return x, nil
			}
			points := func() (float64, error) {
				x, err := strconv.ParseFloat(val, 64)
				if err != nil || x < 0 || x > 99 || math.IsNaN(x) {
					return 0, bad("points like 1.0")
				}
				return x, nil
			}
			var err error
			switch key {
			case "PlayersNumber":
				cfg.Players, err = intVal(1, 9999)
			case "RoundsNumber":
				cfg.Rounds, err = intVal(1, 99)
			case "DrawPercentage":
				cfg.DrawPercentage, err = intVal(0, 100)
			case "ForfeitRate":
				cfg.ForfeitRate, err = rate(1)
			case "RetiredRate":
				cfg.RetiredRate, err = rate(2)
			case "HalfPointByeRate", "HalfPointByteRate":
				cfg.HalfPointByeRate, err = rate(1)
			case "ZeroPointByeRate":
				cfg.ZeroPointByeRate, err = rate(1)
			case "HighestRating":
				cfg.HighestRating, err = intVal(0, 9999)
			case "LowestRating":
				cfg.LowestRating, err = intVal(0, 9999)
			case "PointsForWin":
				cfg.Scoring.Win, err = points()
				if !pabSet {
					cfg.Scoring.PAB = cfg.Scoring.Win
				}
			case "PointsForDraw":
				cfg.Scoring.Draw, err = points()
			case "PointsForLoss":
				cfg.Scoring.Loss, err = points()
			case "PointsForZPB":
				cfg.Scoring.ZeroBye, err = points()
			case "PointsForForfeitLoss":
				cfg.Scoring.ForfeitLoss, err = points()
				cfg.Scoring.ZeroBye = cfg.Scoring.ForfeitLoss
			case "PointsForPAB":
				cfg.Scoring.PAB, err = points()
				pabSet = true
			default:
				return cfg, &ConfigError{no, fmt.Sprintf("unknown key %q", key)}
			}
			if err != nil {
				return cfg, err
			}
		}
	}
	if err := sc.Err(); err != nil {
		return cfg, fmt.Errorf("read generator config: %w", err)
	}
	if cfg.LowestRating > cfg.HighestRating {
		return cfg, errors.New("generator config: LowestRating is above HighestRating")
	}
	return cfg, nil
}

// Tournament generates a complete tournament. The same configuration and
// seed always give the same tournament.
func Tournament(cfg Config, seed uint64) (*trf.Tournament, error) {
	if cfg.Players < 1 || cfg.Rounds < 1 {
		return nil, errors.New("generate: need at least one player and one round")
	}
	rng := rand.New(rand.NewPCG(seed, 0x5157))
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
	hit := func(rate float64) bool { return rate >= 1 && rng.Float64()*rate < 1 }
	withdrawn := make([]bool, cfg.Players)
	for round := 1; round <= cfg.Rounds; round++ {
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
		opts := cfg.Pairing
		opts.Round = round
		res, err := pairing.Pair(t, opts)
		if err != nil {
			return nil, fmt.Errorf("generate round %d: %w", round, err)
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
		// Everyone else already has an entry for the round (absence).
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
