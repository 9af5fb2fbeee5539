package tavreli

import (
	"fmt"
	"slices"
	"strings"

	"arbiter/rules"
)

// Name is the name the game is registered under.
const Name = "tavreli"

// Option keys and their defaults.
const (
	// OptionArray is the initial array (D1), eight letters a..h.
	OptionArray = "array"
	// OptionAlphabet is the alphabet of record notation written by
	// [Position.FormatMove]: latin or cyrillic (D3).
	OptionAlphabet = "alphabet"
	// OptionNotation is how moves are read: lenient (default) accepts
	// wrong separators and check marks with a warning, strict rejects
	// them (spec 4.3).
	OptionNotation = "notation"
	// OptionAutoDraw switches on automatic draws (D28, off by default):
	// the [AutoRepetitionCount]-fold repetition and the
	// [AutoMoveCountLimit] half-move rule end the game without a claim.
	OptionAutoDraw = "autodraw"
)

// AnalysisPrefix before a TFEN string makes [Game.ParsePosition] read it
// in analysis mode (D29), for composed positions: "analysis:k7/8/...".
const AnalysisPrefix = "analysis:"

func init() {
	rules.Register(Name, func(opts rules.Options) (rules.Game, error) { return NewGame(opts) })
	rules.Describe(Name, rules.Facts{Title: "Tavreli", Pieces: map[string]rules.PieceFacts{
		"K": {Name: "Volkhv"}, "Q": {Name: "Knyaz"}, "R": {Name: "Ratoborets"}, "B": {Name: "Luchnik"},
		"N": {Name: "Vsadnik"}, "P": {Name: "Ratnik"}, "H": {Name: "Helgi"},
	}})
}

var geometry = rules.NewRect(8, 8)

// Game is Tavreli with fixed options. It implements [rules.Game].
type Game struct {
	array    Array
	reader   Reader
	write    Alphabet
	autoDraw bool
}

// NewGame returns the game with the given options; see the Option
// constants. Missing options take their defaults.
func NewGame(opts rules.Options) (*Game, error) {
	g := &Game{array: DefaultArray, reader: Reader{}, write: Latin}
	for k, v := range opts {
		switch k {
		case OptionArray:
			a, err := ParseArray(v)
			if err != nil {
				return nil, fmt.Errorf("option %s: %w", k, err)
			}
			g.array = a
		case OptionAlphabet:
			a, err := ParseAlphabet(v)
			if err != nil || a == AutoAlphabet {
				return nil, fmt.Errorf("option %s=%q: want latin or cyrillic", k, v)
			}
			g.write = a
		case OptionNotation:
			switch v {
			case "lenient":
				g.reader.Strict = false
			case "strict":
				g.reader.Strict = true
			default:
				return nil, fmt.Errorf("option %s=%q: want lenient or strict", k, v)
			}
		case OptionAutoDraw:
			switch v {
			case "off":
				g.autoDraw = false
			case "on":
				g.autoDraw = true
			default:
				return nil, fmt.Errorf("option %s=%q: want off or on", k, v)
			}
		default:
			known := []string{OptionAlphabet, OptionArray, OptionAutoDraw, OptionNotation}
			slices.Sort(known)
			return nil, fmt.Errorf("unknown option %q (known: %s)", k, strings.Join(known, ", "))
		}
	}
	return g, nil
}

// Name returns "tavreli".
func (g *Game) Name() string { return Name }

// Options returns every option, defaults included.
func (g *Game) Options() rules.Options {
	n := "lenient"
	if g.reader.Strict {
		n = "strict"
	}
	ad := "off"
	if g.autoDraw {
		ad = "on"
	}
	return rules.Options{OptionArray: g.array.String(), OptionAlphabet: g.write.String(), OptionNotation: n, OptionAutoDraw: ad}
}

// Array returns the game's initial array.
func (g *Game) Array() Array { return g.array }

// Geometry returns the 8x8 board; Tavreli has no off-board zones.
func (g *Game) Geometry() *rules.Geometry { return geometry }

// Traits: touch-move applies and pieces stack.
func (g *Game) Traits() rules.Traits {
	// A move is complete when the pieces are set down and the board has
	// settled (spec 3.2, "Completion"); a clock press only confirms it.
	// Illegal moves are rejected and restored; penalties are
	// configuration, off by default (D21).
	return rules.Traits{TouchMove: true, Stacks: true, CompleteOnRelease: true,
		IllegalMoves: rules.IllegalDefault{CorrectOnly: true}}
}

// SideName returns "White" or "Black".
func (g *Game) SideName(c rules.Color) string { return sideName(c) }

// Start returns the initial position.
func (g *Game) Start() rules.Position { return g.position(g.array.Start()) }

// ParsePosition reads a TFEN position in game mode, or in analysis mode
// when it starts with [AnalysisPrefix].
func (g *Game) ParsePosition(s string) (rules.Position, error) {
	p, err := g.ParseTFEN(s)
	if err != nil {
		return nil, err
	}
	return p, nil
}

// ParseTFEN is ParsePosition with the concrete result type.
func (g *Game) ParseTFEN(s string) (*Position, error) {
	mode := GameMode
	if rest, ok := strings.CutPrefix(s, AnalysisPrefix); ok {
		s, mode = rest, AnalysisMode
	}
	b, err := g.array.ParseTFEN(strings.TrimSpace(s), mode)
	if err != nil {
		return nil, err
	}
	return g.position(*b), nil
}

// Position returns the position of a board.
func (g *Game) Position(b Board) *Position { return g.position(b) }

func (g *Game) position(b Board) *Position { return &Position{b: b, g: g} }
