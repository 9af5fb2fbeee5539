package arbiter

import (
	"fmt"
	"strings"
	"time"

	"arbiter/rules"
)

// SquareFix is one square, or off-board zone, that does not show what it
// should: what a person must put right, in the players' words. One
// function (Session.describe) writes them for the set-up, a recovery and
// an illegal move alike.
type SquareFix struct {
	// Square is the square, or NoSquare for a zone.
	Square rules.Square
	// Zone is the zone's index in the game's geometry when Square is
	// NoSquare, and -1 otherwise.
	Zone int
	// Name names the square or zone as the players do: "e4", "3c",
	// "sente's piece stand".
	Name string
	Want int // expected stack height (a zone: its count)
	Got  int // sensed stack height (a zone: its count)
	// Stack is the expected contents of a tower, bottom to top, for a
	// person to rebuild it ("P(H) q N"); empty for a single piece.
	Stack string
	// Text says what is wrong: "e2 empty, expected a white pawn", "extra
	// piece on d5", "d1: a black queen, expected a white queen", "c1: 2
	// pieces, expected 1 (a white Ratoborets)".
	Text string
}

// String returns the fix in the players' words (Text).
func (f SquareFix) String() string { return f.Text }

// describe lists how the sensed cells got differ from want, the cells of
// view v as the board should show them: squares in order, then zones,
// the hand stands only with hands (they are a cross-check, never a
// condition of play). A top piece the board could not read is no
// difference (cell.fits).
func (s *Session) describe(v rules.View, want, got []cell, hands bool) []SquareFix {
	var fixes []SquareFix
	n := s.geo.Len()
	for i := range got {
		if got[i].fits(want[i]) || !hands && i < len(s.hand) && s.hand[i] {
			continue
		}
		if i < n {
			fixes = append(fixes, s.squareFix(v, rules.Square(i), want[i], got[i]))
			continue
		}
		z := s.geo.Zones()[i-n]
		f := SquareFix{Square: rules.NoSquare, Zone: i - n, Name: s.zoneName(z), Want: want[i].height, Got: got[i].height}
		f.Text = fmt.Sprintf("%s: %s, expected %d", f.Name, pieces(f.Got), f.Want)
		fixes = append(fixes, f)
	}
	return fixes
}

// squareFix describes one square whose sensed cell got does not fit want.
func (s *Session) squareFix(v rules.View, sq rules.Square, want, got cell) SquareFix {
	f := SquareFix{Square: sq, Zone: -1, Name: s.squareName(sq), Want: want.height, Got: got.height}
	var expected string // what should stand there
	switch want.height {
	case 0:
	case 1:
		top, _ := v.Top(sq)
		expected = s.pieceName(top, true, true)
	default:
		f.Stack = stackText(v, sq)
		expected = fmt.Sprintf("%s (%s)", pieces(want.height), f.Stack)
	}
	switch {
	case got.height == 0:
		f.Text = fmt.Sprintf("%s empty, expected %s", f.Name, expected)
	case want.height == 0 && got.height == 1:
		f.Text = "extra piece on " + f.Name
	case want.height == 0:
		f.Text = fmt.Sprintf("%d extra pieces on %s", got.height, f.Name)
	case got.height != want.height:
		f.Text = fmt.Sprintf("%s: %s, expected %d", f.Name, pieces(got.height), want.height)
		if want.height == 1 {
			f.Text += " (" + expected + ")"
		} else {
			f.Text += " (" + f.Stack + ")"
		}
	default: // the same height, another top piece
		top, _ := v.Top(sq)
		f.Text = fmt.Sprintf("%s: %s, expected %s", f.Name,
			s.pieceName(got.top, s.cfg.Caps.TopColor, s.cfg.Caps.TopFace), s.pieceName(top, true, true))
	}
	return f
}

// fixesText joins fixes for a message: "e2 empty, expected a white pawn;
// extra piece on d5".
func fixesText(fixes []SquareFix) string {
	texts := make([]string, len(fixes))
	for i, f := range fixes {
		texts[i] = f.Text
	}
	return strings.Join(texts, "; ")
}

// fixSquares returns the squares of fixes, for a board to light.
func fixSquares(fixes []SquareFix) []rules.Square {
	var out []rules.Square
	for _, f := range fixes {
		if f.Square != rules.NoSquare {
			out = append(out, f.Square)
		}
	}
	return out
}

// unmatched says why a board settled for Config.RecoveryAfter matches no
// legal move: its missing or extra pieces (explain), or the generic
// reason when the board shows something else.
func (s *Session) unmatched(v rules.View, fixes []SquareFix) string {
	if why := s.explain(v, fixes); why != "" {
		return why
	}
	return "the board has matched no legal move for " + s.cfg.RecoveryAfter.String()
}

// explain names, from a board's differences with the position, the
// pieces held off the board ("piece missing from e4 (a white knight)")
// or the pieces added ("extra piece on d5"); "" when the differences are
// anything else.
func (s *Session) explain(v rules.View, fixes []SquareFix) string {
	var missing, extra []string
	nMissing, nExtra := 0, 0
	for _, f := range fixes {
		switch {
		case f.Square == rules.NoSquare:
		case f.Got < f.Want && f.Want == 1:
			top, _ := v.Top(f.Square)
			missing = append(missing, fmt.Sprintf("%s (%s)", f.Name, s.pieceName(top, true, true)))
			nMissing++
		case f.Got < f.Want:
			missing = append(missing, fmt.Sprintf("%s (%d of the tower %s)", f.Name, f.Want-f.Got, f.Stack))
			nMissing += f.Want - f.Got
		case f.Got > f.Want:
			extra = append(extra, f.Name)
			nExtra += f.Got - f.Want
		default:
			return ""
		}
	}
	switch {
	case nMissing > 0 && nExtra == 0:
		return plural(nMissing, "piece") + " missing from " + strings.Join(missing, ", ")
	case nExtra > 0 && nMissing == 0:
		return "extra " + plural(nExtra, "piece") + " on " + strings.Join(extra, ", ")
	}
	return ""
}

// SetupDiff lists, while the session waits for the start position
// (SettingUp), how the board differs from it, in the players' words
// (SquareFix.Text), hand stands included: the console shows it. It is
// nil once the game has started, and when the board shows the position.
func (s *Session) SetupDiff() []SquareFix {
	if !s.SettingUp() {
		return nil
	}
	t := s.currentTurn()
	return s.describe(t.base, t.baseCells, s.obs, true)
}

// settleSetUp judges a board being set up that has settled since
// s.lastChange, once its whole state has been seen: the game starts when
// it shows the start position (hand stands aside); after
// Config.SetupAlertAfter settled but wrong, one SetupAlert lists the
// differences, and another only when they change.
func (s *Session) settleSetUp(out []Output, now time.Duration) []Output {
	if !s.dumped {
		return out
	}
	t := s.currentTurn()
	if t.sig(s.obs) == "" {
		return s.setUpDone(out, s.lastChange)
	}
	if s.horizon(now)-s.lastChange < s.cfg.SetupAlertAfter {
		return out
	}
	fixes := s.describe(t.base, t.baseCells, s.obs, true)
	text := fixesText(fixes)
	if text == s.setupTold {
		return out
	}
	s.setupTold = text
	what := "the start position"
	if len(s.history) > 0 {
		what = "the position of the game resumed" // Resume: its stored moves
	}
	a := s.alert(SetupAlert, s.pos.Turn(), now, "the board does not show "+what+": "+text, false).shown(
		"set up: "+text, "set up the position: see the lit squares")
	a.Squares = fixSquares(fixes)
	return append(out, a)
}

// zoneName names an off-board zone for the players: "sente's piece
// stand", "South's reserve".
func (s *Session) zoneName(z rules.Zone) string {
	word := map[rules.ZoneKind]string{rules.Hand: "piece stand", rules.Reserve: "reserve", rules.Captured: "captured pieces"}[z.Kind]
	if word == "" {
		word = z.Name
	}
	return s.game.SideName(z.Owner) + "'s " + word
}

// pieces writes a count of pieces: "1 piece", "2 pieces".
func pieces(n int) string { return fmt.Sprintf("%d %s", n, plural(n, "piece")) }

// plural writes noun for n of them: "piece", "pieces".
func plural(n int, noun string) string {
	if n == 1 {
		return noun
	}
	return noun + "s"
}

// pieceName names a piece for the players: "a white pawn", "a gote
// dragon", "a white Ratnik marked Helgi". colour and face say whether
// the piece's colour and face are known (a sensed piece: what the board
// senses); an unknown kind is "a piece".
func (s *Session) pieceName(p rules.Piece, colour, face bool) string {
	if p.Kind == 0 {
		return "a piece"
	}
	noun := s.kindNoun(p.Kind)
	if face && p.Face == rules.Back {
		if n, ok := rules.FactsOf(s.game.Name()).Noun(string(rune(p.Kind)) + "+"); ok {
			noun = n
		} else {
			noun = "promoted " + noun
		}
	}
	if p.Mark != 0 && p.Mark != p.Kind {
		noun += " marked " + s.kindNoun(p.Mark)
	}
	if colour {
		noun = strings.ToLower(s.game.SideName(p.Color)) + " " + noun
	}
	return "a " + noun
}

// kindNoun names a kind of piece in the session's game (its
// rules.Facts), or writes its letter for a game that does not name it.
func (s *Session) kindNoun(k rules.Kind) string {
	if n, ok := rules.FactsOf(s.game.Name()).Noun(string(rune(k))); ok {
		return n
	}
	return string(rune(k))
}

func stackText(v rules.View, sq rules.Square) string {
	parts := make([]string, len(v.Stacks[sq]))
	for i, p := range v.Stacks[sq] {
		parts[i] = p.String()
	}
	return strings.Join(parts, " ")
}
