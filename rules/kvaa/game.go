package kvaa

import (
	"fmt"
	"time"

	"arbiter/rules"
)

// Name is the game's registered name.
const Name = "kvaa"

func init() {
	rules.Register(Name, func(opts rules.Options) (rules.Game, error) {
		g, err := NewFromOptions(opts)
		if err != nil {
			return nil, err
		}
		return g, nil
	})
	// The first mover is chosen per game, so a tournament keeps no colour
	// history.
	rules.Describe(Name, rules.Facts{Title: "Kvaa", SideLetters: [2]byte{'s', 'n'}, Colours: rules.ColoursByLot,
		Pieces: map[string]rules.PieceFacts{"C": {Name: "counter"}}})
}

// Game is Kvaa under one fixed configuration. It implements [rules.Game],
// and its methods on [State] are the engine's fast API.
type Game struct {
	cfg   Config
	tab   *tables
	start State
}

// New returns the game with configuration cfg.
func New(cfg Config) (*Game, error) {
	if cfg.Placement < MoveThenPlace || cfg.Placement > Deferred {
		return nil, fmt.Errorf("placement variant %d: want 4.5.1.1 to 4.5.1.4", cfg.Placement)
	}
	if cfg.Capture > Compulsory || cfg.P2Fallback > PerPlacement || cfg.Adjudication > AdjudicateDraw || !cfg.First.Valid() {
		return nil, fmt.Errorf("configuration %+v: value out of range", cfg)
	}
	if cfg.Scheme >= allSchemes {
		return nil, fmt.Errorf("scheme %d out of range", cfg.Scheme)
	}
	g := &Game{cfg: cfg, tab: cfg.Scheme.tables()}
	if cfg.Setup == "standard" {
		st, err := ParseKPS(StartKPS)
		if err != nil {
			panic(err) // a constant
		}
		st.Turn = cfg.First
		g.start = st
	} else {
		st, err := g.ParseState(cfg.Setup)
		if err != nil {
			return nil, fmt.Errorf("setup: %w", err)
		}
		if st.Turn != cfg.First {
			return nil, fmt.Errorf("setup has %s to move but the first player is %s", sideLetter(st.Turn), sideLetter(cfg.First))
		}
		g.start = st
	}
	return g, nil
}

// NewFromOptions returns the game with the given options (see
// [ParseConfig]).
func NewFromOptions(opts rules.Options) (*Game, error) {
	cfg, err := ParseConfig(opts)
	if err != nil {
		return nil, err
	}
	return New(cfg)
}

// Config returns the game's configuration.
func (g *Game) Config() Config { return g.cfg }

// Name returns "kvaa".
func (g *Game) Name() string { return Name }

// Options returns every option, defaults included.
func (g *Game) Options() rules.Options { return g.cfg.Options() }

// Geometry returns the field (see [Geometry]).
func (g *Game) Geometry() *rules.Geometry { return geometry }

// Traits: no touch-move rule (D-25), no stacks; illegal turns as the
// option illegal_policy says (D-23), a flag fall as flag_result says (D-24).
func (g *Game) Traits() rules.Traits {
	var d rules.IllegalDefault
	switch p := g.cfg.IllegalPolicy; p.Kind {
	case TimePenalty:
		d.AddTime = time.Duration(p.N) * time.Second
	case ForfeitAfter:
		d.LossAt = p.N
	default:
		d.CorrectOnly = true
	}
	return rules.Traits{IllegalMoves: d, FlagDraws: g.cfg.FlagResult == FlagDraw}
}

// SideName returns "South" or "North".
func (g *Game) SideName(c rules.Color) string {
	if c == South {
		return "South"
	}
	return "North"
}

// StartState returns the initial position in the fast form.
func (g *Game) StartState() State { return g.start }

// Start returns the initial position.
func (g *Game) Start() rules.Position { return g.Position(g.start) }

// ParseState reads a KPS and checks it against the game's rules: with rule
// 4.6 off no step may be forbidden, and a forbidden step must be a step of
// the scheme.
func (g *Game) ParseState(s string) (State, error) {
	st, err := ParseKPS(s)
	if err != nil {
		return State{}, err
	}
	for c := range 2 {
		f := st.Forbidden[c]
		if f.None() {
			continue
		}
		if !g.cfg.MirrorRule {
			return State{}, fmt.Errorf("KPS %q field %d: forbidden step %s given but mirror_rule=off", s, 5+c, f)
		}
		if !g.tab.link[f.From][f.To] {
			return State{}, fmt.Errorf("KPS %q field %d: forbidden step %s is not a step of scheme %s", s, 5+c, f, g.cfg.Scheme)
		}
	}
	return st, nil
}

// ParsePosition reads a position in KPS.
func (g *Game) ParsePosition(s string) (rules.Position, error) {
	st, err := g.ParseState(s)
	if err != nil {
		return nil, err
	}
	return g.Position(st), nil
}

// Position returns s as an immutable [rules.Position].
func (g *Game) Position(s State) *Position { return &Position{g: g, s: s} }
