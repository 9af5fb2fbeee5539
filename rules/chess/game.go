package chess

import (
	"fmt"

	"arbiter/rules"
	"arbiter/rules/internal/chesscore"
)

// StartFEN is the initial position.
const StartFEN = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"

// Position is a chess position: it implements rules.Position,
// rules.Claimer, rules.Perfter and rules.Winnable (CanEverWin).
type Position = chesscore.Position

// Verdict is the three-valued answer of Position.WinVerdict, the form of
// Position.CanEverWin (rules.Winnable) with the unknown case as a value.
type Verdict = chesscore.Verdict

// The verdicts of CanEverWin.
const (
	Unknown = chesscore.Unknown
	Yes     = chesscore.Yes
	No      = chesscore.No
)

var config = func() *chesscore.Config {
	c, err := chesscore.NewConfig(chesscore.ConfigSpec{
		Width: 8, Height: 8,
		Start:       StartFEN,
		KingFile:    4,
		RookFiles:   [2]int{7, 0},
		CastleDests: [2][]int{{6}, {2}},
	})
	if err != nil {
		panic(err)
	}
	return c
}()

// Name is the game's registered name.
const Name = "chess"

func init() {
	rules.Register(Name, func(opts rules.Options) (rules.Game, error) { return New(opts) })
	rules.Describe(Name, rules.Facts{Title: "Chess", Pieces: map[string]rules.PieceFacts{
		"K": {Name: "king"}, "Q": {Name: "queen"}, "R": {Name: "rook"}, "B": {Name: "bishop"}, "N": {Name: "knight"},
		"P": {Name: "pawn"},
	}})
}

// Game is orthodox chess. It has no options.
type Game struct{}

// New returns the game; chess takes no options.
func New(opts rules.Options) (*Game, error) {
	for k := range opts {
		return nil, fmt.Errorf("unknown option %q (chess has none)", k)
	}
	return &Game{}, nil
}

// Name returns "chess".
func (*Game) Name() string { return "chess" }

// Options returns no options.
func (*Game) Options() rules.Options { return rules.Options{} }

// Geometry returns the 8x8 board.
func (*Game) Geometry() *rules.Geometry { return config.Geometry() }

// Traits: touch-move applies, to the opponent's pieces too (FIDE 4.3.2);
// no stacks; FIDE 7.5.5 (an illegal-move loss against an opponent who
// cannot mate is a draw).
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
func (*Game) Start() rules.Position { return Start() }

// ParsePosition reads a FEN.
func (*Game) ParsePosition(s string) (rules.Position, error) { return ParseFEN(s) }

// Start returns the initial position.
func Start() *Position { return chesscore.NewPosition(config.StartBoard(), dialect{}) }

// ParseFEN reads a position in FEN.
func ParseFEN(s string) (*Position, error) {
	b, err := config.ParseFEN(s)
	if err != nil {
		return nil, err
	}
	return chesscore.NewPosition(b, dialect{}), nil
}
