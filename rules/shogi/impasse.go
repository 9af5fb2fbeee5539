package shogi

import (
	"fmt"

	"arbiter/rules"
)

// fullSetPoints is the 24-point count of a complete set (spec 2.10).
const fullSetPoints = 54

// Points returns c's 24-point count (spec 2.10): every piece c owns on the
// board and in hand, rooks and bishops 5, the king 0, every other piece 1,
// promoted pieces at their base value.
func (b *Board) Points(c rules.Color) int {
	n := 0
	for _, s := range padOf {
		if p := b.sq[s]; p != NoPiece && p.Color() == c {
			n += p.Type().Points()
		}
	}
	return n + b.handPoints(c)
}

// handPoints returns the 24-point count of c's pieces in hand.
func (b *Board) handPoints(c rules.Color) int {
	n := 0
	for t := Pawn; t <= Gold; t++ {
		n += int(b.hand[c][t]) * t.Points()
	}
	return n
}

// KingsEntered reports whether both kings stand in their promotion zones,
// the situation in which jishogi may be proposed.
func (b *Board) KingsEntered() bool {
	for c := rules.First; c <= rules.Second; c++ {
		if k := b.king[c]; k == 0 || !inZone[c][k] {
			return false
		}
	}
	return true
}

// Jishogi applies the 24-point rule once both players have confirmed
// jishogi or the arbiter has ruled it (spec 2.10): a player with fewer than
// 24 points loses, otherwise the game is drawn. It returns the counts too.
func (b *Board) Jishogi() (rules.Outcome, [2]int) {
	return jishogi([2]int{b.Points(rules.First), b.Points(rules.Second)})
}

// JishogiHandicap is [Board.Jishogi] for a handicap game: the pieces the
// handicap giver left out count as the giver's (spec 2.10).
func (b *Board) JishogiHandicap(giver rules.Color) (rules.Outcome, [2]int) {
	pts := [2]int{b.Points(rules.First), b.Points(rules.Second)}
	if missing := fullSetPoints - pts[0] - pts[1]; missing > 0 {
		pts[giver] += missing
	}
	return jishogi(pts)
}

func jishogi(pts [2]int) (rules.Outcome, [2]int) {
	lose0, lose1 := pts[0] < 24, pts[1] < 24
	switch {
	case lose0 && !lose1:
		return rules.Loss(rules.First, rules.Impasse), pts
	case lose1 && !lose0:
		return rules.Loss(rules.Second, rules.Impasse), pts
	}
	return rules.Draw(rules.Impasse), pts
}

// Declaration is the judgement of an entering-king declaration (spec
// 2.10): the conditions as found and the result.
type Declaration struct {
	Rule     DeclarationRule
	Declarer rules.Color
	// KingInCamp: the declarer's king is in the opponent's camp.
	KingInCamp bool
	// PiecesInCamp counts the declarer's other pieces in the opponent's camp.
	PiecesInCamp int
	// InCheck: the declarer is in check.
	InCheck bool
	// Points counts the declarer's pieces in hand and in the opponent's camp.
	Points int
	// Outcome is the result of the declaration.
	Outcome rules.Outcome
}

// Declare judges a declaration by the side to move under rule (spec
// 2.10). A declaration whose conditions fail loses for the declarer
// (reason rules.DeclarationFailed: it is what ended the game; records write it
// as the declarer's foul, 反則負け).
func (b *Board) Declare(rule DeclarationRule) (Declaration, error) {
	c := b.turn
	d := Declaration{Rule: rule, Declarer: c, InCheck: b.InCheck()}
	if k := b.king[c]; k != 0 && inZone[c][k] {
		d.KingInCamp = true
	}
	d.PiecesInCamp, d.Points = b.inCamp(c)
	d.Points += b.handPoints(c)
	ok := d.KingInCamp && d.PiecesInCamp >= 10 && !d.InCheck
	out, err := rule.judge(c, ok, d.Points)
	if err != nil {
		return d, err
	}
	d.Outcome = out
	return d, nil
}

// inCamp counts c's pieces other than the king in the opponent's camp,
// and their 24-point count.
func (b *Board) inCamp(c rules.Color) (pieces, points int) {
	for _, s := range padOf {
		p := b.sq[s]
		if p == NoPiece || p.Color() != c || p.Type() == King || !inZone[c][s] {
			continue
		}
		pieces++
		points += p.Type().Points()
	}
	return pieces, points
}

// judge returns the outcome of a declaration by c under r whose
// conditions other than the points are met (met) or not, with points.
func (r DeclarationRule) judge(c rules.Color, met bool, points int) (rules.Outcome, error) {
	switch r {
	case JSA24:
		switch {
		case !met || points < 24:
			return rules.Loss(c, rules.DeclarationFailed), nil
		case points >= 31:
			return rules.Win(c, rules.Impasse), nil
		}
		return rules.Draw(rules.Impasse), nil
	case Amateur27:
		need := 27
		if c == rules.First {
			need = 28
		}
		if met && points >= need {
			return rules.Win(c, rules.Impasse), nil
		}
		return rules.Loss(c, rules.DeclarationFailed), nil
	}
	return rules.Outcome{}, fmt.Errorf("declaration rule %s: the game has no declaration rule", r)
}

// Declare judges a declaration by the side to move under the game's
// declaration rule (option "declaration").
func (p *Position) Declare() (Declaration, error) {
	rule := NoDeclaration
	if p.game != nil {
		rule = p.game.declaration
	}
	return p.b.Declare(rule)
}

// Jishogi applies the 24-point rule to p (see [Board.Jishogi]).
func (p *Position) Jishogi() (rules.Outcome, [2]int) { return p.b.Jishogi() }
