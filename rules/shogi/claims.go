package shogi

import (
	"errors"
	"fmt"

	"arbiter/rules"
)

// The claims of a shogi position as package rules names them, so that
// the arbitration needs no shogi type: jishogi ([rules.Impasser]) and the
// entering-king declaration ([rules.Declarer]).
var (
	_ rules.Impasser = (*Position)(nil)
	_ rules.Declarer = (*Position)(nil)
)

// ImpasseReady implements [rules.Impasser]: jishogi may be proposed once
// both kings have entered the opponent's camp ([Board.KingsEntered]).
func (p *Position) ImpasseReady() error {
	if !p.b.KingsEntered() {
		return errors.New("jishogi may be proposed once both kings have entered the opponent's camp")
	}
	return nil
}

// ImpasseCount implements [rules.Impasser]: the 24-point count, the
// pieces a handicap's giver (first) left out counting as the giver's
// ([Board.JishogiHandicap]).
func (p *Position) ImpasseCount(first rules.Color) (rules.Outcome, [2]int) {
	return p.b.JishogiHandicap(first)
}

// DeclareWin implements [rules.Declarer] with [Position.Declare].
func (p *Position) DeclareWin() (rules.Declaration, error) {
	d, err := p.Declare()
	if err != nil {
		return rules.Declaration{}, err
	}
	return rules.Declaration{Declarer: d.Declarer, Rule: d.Rule.String(), Points: d.Points, Outcome: d.Outcome,
		Conditions: fmt.Sprintf("king in camp %t, %d pieces in camp, in check %t, %d points",
			d.KingInCamp, d.PiecesInCamp, d.InCheck, d.Points)}, nil
}
