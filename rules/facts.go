package rules

import (
	"sync"
	"time"
)

// Facts are what the code above the rules needs to know about a game that
// is not part of playing it: how players call the game, its sides and its
// pieces, how a board is drawn, and how a tournament gives out colours. A
// game package declares them with [Describe] from its init function, next
// to [Register], so that the pages, the console messages, the records and
// the pairing never switch on a game's name: a new game is its package
// and one import.
type Facts struct {
	// Title names the game as players do ("Tensor chess"); empty: the
	// registered name.
	Title string
	// SideLetters are the letters of the sides in a crosstable, First's
	// then Second's ('s' and 'g' for sente and gote); zero: 'w' and 'b'.
	SideLetters [2]byte
	// TopDown: the board's rank 0 is drawn at the top (shogi numbers its
	// ranks from gote's side, so sente, the first player, sits at the
	// bottom); otherwise rank 0 is the bottom rank.
	TopDown bool
	// Colours is how a tournament gives out the first move.
	Colours ColourRule
	// Pieces name the game's pieces, keyed by the kind letter as
	// [Piece.String] writes it for First ("P"), with "+" after it for the
	// piece turned to its back face ("P+": a shogi tokin).
	Pieces map[string]PieceFacts
	// HandicapOption is the rule option an arbiter sets for one pairing
	// to give a handicap (shogi's "handicap", 駒落ち), and Handicaps its
	// values, the even game first; empty for a game without handicaps.
	HandicapOption string
	Handicaps      []Handicap
}

// Handicap is one value of a game's handicap option, with its name for
// people.
type Handicap struct {
	Value string // the option's value ("lance")
	Title string // "lance (香落ち)"
}

// PieceFacts name one piece of a game.
type PieceFacts struct {
	// Name is the piece's name on the pages ("silver general", "dragon
	// (promoted rook)").
	Name string
	// Noun is the shorter name a message to the players uses ("silver",
	// "dragon"); empty: Name.
	Noun string
	// Glyph is the character printed on the piece ("銀"); empty: the piece
	// is drawn with its letter. A game with glyphs shows the letter beside
	// them.
	Glyph string
}

// ColourRule is how a tournament gives out the first move over its rounds.
type ColourRule uint8

const (
	// ColoursBalanced balances the first and second moves by the FIDE
	// rules for White and Black (C.04.3 Art. 5.2).
	ColoursBalanced ColourRule = iota
	// ColoursShogi balances them as shogi tournaments do for sente and
	// gote.
	ColoursShogi
	// ColoursByLot ignores colour history: who moves first is drawn by lot
	// at the board.
	ColoursByLot
)

// Glyphed reports whether the game's pieces carry glyphs of their own
// (shogi's characters) rather than letters.
func (f Facts) Glyphed() bool {
	for _, p := range f.Pieces {
		if p.Glyph != "" {
			return true
		}
	}
	return false
}

// Noun returns the short name of the piece keyed key (as [Facts.Pieces]
// keys it): its Noun, or its Name when it has no shorter one. ok is false
// for a piece the game does not name.
func (f Facts) Noun(key string) (noun string, ok bool) {
	p, ok := f.Pieces[key]
	switch {
	case !ok || p.Name == "":
		return "", false
	case p.Noun != "":
		return p.Noun, true
	}
	return p.Name, true
}

// Letters returns the crosstable letters of First and Second.
func (f Facts) Letters() (first, second byte) {
	if f.SideLetters == [2]byte{} {
		return 'w', 'b'
	}
	return f.SideLetters[0], f.SideLetters[1]
}

var (
	factsMu sync.RWMutex
	facts   = map[string]Facts{}
)

// Describe declares the facts of the game registered (or about to be
// registered) as name. Game packages call it from init. It panics if the
// game is described twice, as [Register] does.
func Describe(name string, f Facts) {
	factsMu.Lock()
	defer factsMu.Unlock()
	if _, dup := facts[name]; dup {
		panic("rules: Describe called twice for game " + name)
	}
	if f.Title == "" {
		f.Title = name
	}
	facts[name] = f
}

// FactsOf returns the facts of the named game. A game that declared none
// (or an unknown name, as an old stored game may carry) gets the defaults:
// its name as the title, 'w' and 'b', rank 0 at the bottom, balanced
// colours and no piece names.
func FactsOf(name string) Facts {
	factsMu.RLock()
	f, ok := facts[name]
	factsMu.RUnlock()
	if !ok {
		f = Facts{Title: name}
	}
	return f
}

// FIDEClaimPenalty is the time FIDE 9.5.3 gives the opponent of a player
// whose draw claim is found incorrect, for games played under the FIDE
// Laws to set as [Traits.ClaimPenalty].
const FIDEClaimPenalty = 2 * time.Minute
