package tensor

import (
	"fmt"
	"strings"

	"arbiter/rules"
	"arbiter/rules/internal/chesscore"
)

// DefaultBackRank is the back-rank order of decision D2: queen on e, king
// on f.
const DefaultBackRank = "RTNBQKBNTR"

// altBackRank swaps king and queen, the alternative D2 allows.
const altBackRank = "RTNBKQBNTR"

// Position is a Tensor chess position: it implements rules.Position,
// rules.Claimer, rules.Perfter and rules.Winnable (CanEverWin, with the
// flag-fall rule of 3.12).
type Position = chesscore.Position

// Name is the game's registered name.
const Name = "tensor"

func init() {
	rules.Register(Name, func(opts rules.Options) (rules.Game, error) { return New(opts) })
	rules.Describe(Name, rules.Facts{Title: "Tensor chess", Pieces: map[string]rules.PieceFacts{
		"K": {Name: "king"}, "Q": {Name: "queen"}, "R": {Name: "rook"}, "B": {Name: "bishop"}, "N": {Name: "knight"},
		"P": {Name: "pawn"}, "T": {Name: "monster"},
	}})
}

// Game is Tensor chess with a fixed back-rank order.
type Game struct {
	backRank string
	cfg      *chesscore.Config
}

// New returns the game with the given options (see the package comment).
func New(opts rules.Options) (*Game, error) {
	backRank := DefaultBackRank
	for k, v := range opts {
		switch k {
		case "backrank":
			v = strings.ToUpper(v)
			if v != DefaultBackRank && v != altBackRank {
				return nil, fmt.Errorf("option backrank=%q: want %s or %s", v, DefaultBackRank, altBackRank)
			}
			backRank = v
		default:
			return nil, fmt.Errorf("unknown option %q (tensor has backrank)", k)
		}
	}
	start := strings.ToLower(backRank) + "/pppppppppp/10/10/10/10/PPPPPPPPPP/" + backRank + " w KQkq - 0 1"
	cfg, err := chesscore.NewConfig(chesscore.ConfigSpec{
		Width: 10, Height: 8,
		Start:       start,
		KingFile:    strings.IndexByte(backRank, 'K'),
		RookFiles:   [2]int{9, 0},
		CastleDests: [2][]int{{7, 8}, {2, 1}}, // king to h or i; to c or b (D22)
		Monsters:    true,
	})
	if err != nil {
		return nil, fmt.Errorf("tensor configuration: %w", err)
	}
	return &Game{backRank: backRank, cfg: cfg}, nil
}

// Name returns "tensor".
func (*Game) Name() string { return "tensor" }

// Options returns the options, defaults included.
func (g *Game) Options() rules.Options { return rules.Options{"backrank": g.backRank} }

// Geometry returns the 10x8 board.
func (g *Game) Geometry() *rules.Geometry { return g.cfg.Geometry() }

// Traits: touch-move applies, to the opponent's pieces too (FIDE 4.3.2;
// D34 keeps the tool monsters out of it); FIDE
// 7.5.5 (an illegal-move loss against an opponent who cannot win is a draw).
func (*Game) Traits() rules.Traits {
	return rules.Traits{TouchMove: true, TouchCaptures: true, IllegalLossDrawnIfUnwinnable: true,
		ClaimPenalty: rules.FIDEClaimPenalty}
}

// SideName returns "White" or "Black".
func (*Game) SideName(c rules.Color) string {
	if c == rules.White {
		return "White"
	}
	return "Black"
}

// Start returns the initial position.
func (g *Game) Start() rules.Position { return g.StartPosition() }

// StartPosition returns the initial position.
func (g *Game) StartPosition() *Position {
	return chesscore.NewPosition(g.cfg.StartBoard(), dialect{})
}

// ParsePosition reads a Tensor FEN.
func (g *Game) ParsePosition(s string) (rules.Position, error) { return g.ParseFEN(s) }

// ParseFEN reads a Tensor FEN (section 2.3).
func (g *Game) ParseFEN(s string) (*Position, error) {
	b, err := g.cfg.ParseFEN(s)
	if err != nil {
		return nil, err
	}
	return chesscore.NewPosition(b, dialect{}), nil
}
