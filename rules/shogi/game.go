package shogi

import (
	"fmt"
	"strconv"
	"strings"

	"arbiter/rules"
)

// Name is the name the game is registered under.
const Name = "shogi"

func init() {
	rules.Register(Name, func(opts rules.Options) (rules.Game, error) { return NewGame(opts) })
	// Ranks are numbered from gote's side (rank "a" is square 0), so the
	// board is drawn top down to put sente at the bottom.
	rules.Describe(Name, rules.Facts{Title: "Shogi", SideLetters: [2]byte{'s', 'g'}, TopDown: true,
		Colours: rules.ColoursShogi, Pieces: map[string]rules.PieceFacts{
			"K": {Name: "king", Glyph: "玉"}, "R": {Name: "rook", Glyph: "飛"}, "B": {Name: "bishop", Glyph: "角"},
			"G": {Name: "gold general", Noun: "gold", Glyph: "金"}, "S": {Name: "silver general", Noun: "silver", Glyph: "銀"},
			"N": {Name: "knight", Glyph: "桂"}, "L": {Name: "lance", Glyph: "香"}, "P": {Name: "pawn", Glyph: "歩"},
			"R+": {Name: "dragon (promoted rook)", Noun: "dragon", Glyph: "龍"},
			"B+": {Name: "horse (promoted bishop)", Noun: "horse", Glyph: "馬"},
			"S+": {Name: "promoted silver", Glyph: "全"}, "N+": {Name: "promoted knight", Glyph: "圭"},
			"L+": {Name: "promoted lance", Glyph: "杏"}, "P+": {Name: "tokin (promoted pawn)", Noun: "tokin", Glyph: "と"},
		},
		HandicapOption: OptHandicap, Handicaps: handicapFacts()})
}

// handicapFacts lists the handicaps for the pages and the console.
func handicapFacts() []rules.Handicap {
	out := make([]rules.Handicap, len(HandicapList))
	for i, h := range HandicapList {
		out[i] = rules.Handicap{Value: h.Name, Title: h.Title}
	}
	return out
}

// Option keys and their values. Every option defaults to off.
const (
	// OptDeclaration selects the entering-king declaration rule (spec
	// 2.10): "none", "jsa24" or "amateur27".
	OptDeclaration = "declaration"
	// OptMaxMoves ends a game as a draw once that many moves have been
	// played ("0" is off; CSA's $MAX_MOVES).
	OptMaxMoves = "maxmoves"
	// OptHandicap makes the game a handicap game (駒落ち): the giver (上手,
	// gote) plays without some pieces and moves first. Its values are
	// the names of [HandicapList] ("lance", "2-piece") or their KIF 手合割
	// names ("香落ち", "二枚落ち"); "none" or "平手" is the even game.
	OptHandicap = "handicap"
)

// DeclarationRule is an entering-king declaration rule (spec 2.10).
type DeclarationRule uint8

// The declaration rules.
const (
	NoDeclaration DeclarationRule = iota
	// JSA24: 31 points or more wins, 24 to 30 is jishogi, else the
	// declarer loses.
	JSA24
	// Amateur27: Black needs 28 points and White 27 to win, else the
	// declarer loses.
	Amateur27
)

var declarationNames = [...]string{NoDeclaration: "none", JSA24: "jsa24", Amateur27: "amateur27"}

// String returns the rule's option value.
func (r DeclarationRule) String() string {
	if int(r) < len(declarationNames) {
		return declarationNames[r]
	}
	return "declaration(" + strconv.Itoa(int(r)) + ")"
}

// Game is shogi with fixed options. It implements [rules.Game].
type Game struct {
	declaration DeclarationRule
	maxMoves    int
	handicap    Handicap
}

// geometry's row 0 is rank a, on gote's side; sensor boards number their
// squares from sente's side, hence the reversed sensor ranks.
var geometry = rules.NewRect(9, 9,
	rules.Zone{Name: "hand-sente", Kind: rules.Hand, Owner: rules.First},
	rules.Zone{Name: "hand-gote", Kind: rules.Hand, Owner: rules.Second},
).WithSensorRanksReversed()

// NewGame returns shogi with the given options (see [OptDeclaration],
// [OptMaxMoves] and [OptHandicap]); nil or empty options give the
// defaults.
func NewGame(opts rules.Options) (*Game, error) {
	g := &Game{handicap: HandicapList[0]}
	for k, v := range opts {
		switch k {
		case OptDeclaration:
			found := false
			for i, n := range declarationNames {
				if v == n {
					g.declaration = DeclarationRule(i)
					found = true
				}
			}
			if !found {
				return nil, fmt.Errorf("option %s=%q: want none, jsa24 or amateur27", k, v)
			}
		case OptMaxMoves:
			n, err := strconv.Atoi(v)
			if err != nil || n < 0 {
				return nil, fmt.Errorf("option %s=%q: want a move count >= 0", k, v)
			}
			g.maxMoves = n
		case OptHandicap:
			h, ok := ParseHandicap(v)
			if !ok {
				return nil, fmt.Errorf("option %s=%q: want %s", k, v, handicapWords())
			}
			g.handicap = h
		default:
			return nil, fmt.Errorf("unknown option %q (known: %s, %s, %s)", k, OptDeclaration, OptHandicap, OptMaxMoves)
		}
	}
	return g, nil
}

// Name returns "shogi".
func (g *Game) Name() string { return Name }

// Options returns every option, defaults included.
func (g *Game) Options() rules.Options {
	return rules.Options{OptDeclaration: g.declaration.String(), OptMaxMoves: strconv.Itoa(g.maxMoves), OptHandicap: g.handicap.Name}
}

// Handicap returns the game's handicap; its Name is "none" in an even
// game.
func (g *Game) Handicap() Handicap { return g.handicap }

// Declaration returns the game's declaration rule.
func (g *Game) Declaration() DeclarationRule { return g.declaration }

// Geometry returns the 9x9 board with the two hands as zones. Square
// indexes follow the SFEN reading order (see the package comment).
func (g *Game) Geometry() *rules.Geometry { return geometry }

// Traits: shogi has no touch-move rule (spec 3.1) and no stacks. A move is
// final when the hand leaves the piece, but with a clock it is committed at
// the press (spec 3.4), because the board cannot see the hand leave; and a
// foul loses at once (spec 2.8).
func (g *Game) Traits() rules.Traits {
	return rules.Traits{IllegalMoveLoses: true, JudgeAtPress: true, NoDrawByAgreement: true, Impasse: true}
}

// SquareName names a square the shogi way ("7g").
func (g *Game) SquareName(sq rules.Square) string { return SquareName(sq) }

// SideName returns "sente" or "gote".
func (g *Game) SideName(c rules.Color) string {
	if c == rules.First {
		return "sente"
	}
	return "gote"
}

// Start returns the game's initial position: the even game's, or its
// handicap's, where gote (the giver) moves first.
func (g *Game) Start() rules.Position { return g.StartPosition() }

// StartPosition returns the game's initial position (Start).
func (g *Game) StartPosition() *Position {
	b, err := ParseSFEN(g.handicap.SFEN)
	if err != nil {
		panic("shogi: bad start position: " + err.Error())
	}
	return &Position{b: *b, game: g}
}

// ParsePosition reads an SFEN, "startpos", a KIF handicap name ("香落ち",
// see [Handicaps]), or a USI position line body ("startpos moves 7g7f
// ...", "sfen <SFEN> moves ...") and plays the moves.
func (g *Game) ParsePosition(s string) (rules.Position, error) { return g.Position(s) }

// Position is ParsePosition with the concrete result type.
func (g *Game) Position(s string) (*Position, error) {
	s = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(s), "position "))
	head, moves, hasMoves := strings.Cut(s, " moves")
	if h, ok := Handicaps[strings.TrimSpace(head)]; ok {
		head = h
	}
	b, err := ParseSFEN(head)
	if err != nil {
		return nil, err
	}
	p := &Position{b: *b, game: g}
	if hasMoves {
		for i, ms := range strings.Fields(moves) {
			m, err := p.b.ParseUSI(ms)
			if err != nil {
				return nil, fmt.Errorf("move %d: %w", i+1, err)
			}
			p = p.play(m)
		}
	}
	return p, nil
}

// Handicaps maps the KIF 手合割 names of [HandicapList] to their start
// positions (spec 1.5: the handicap giver, gote, moves first).
var Handicaps = func() map[string]string {
	m := make(map[string]string, len(HandicapList))
	for _, h := range HandicapList {
		m[h.KIF] = h.SFEN
	}
	return m
}()

// FromBoard returns the position of b under g's rules.
func (g *Game) FromBoard(b *Board) *Position { return &Position{b: *b, game: g} }
