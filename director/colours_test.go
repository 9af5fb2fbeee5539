package director

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"arbiter/pairing"
	"arbiter/rules"
)

// A tournament gives out colours by its game's colour rule, which the game
// declares in its facts: shogi balances sente and gote, Kvaa draws the
// first mover by lot, the others balance White and Black.
func TestColourPolicyFollowsTheGamesFacts(t *testing.T) {
	tests := []struct {
		game string
		want pairing.ColourPolicy
	}{
		{"chess", pairing.ChessColours},
		{"tensor", pairing.ChessColours},
		{"tavreli", pairing.ChessColours},
		{"shogi", pairing.ShogiColours},
		{"kvaa", pairing.FirstPlayerByLot},
		{"no-such-game", pairing.ChessColours},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, colourPolicy(rules.FactsOf(tt.game).Colours), tt.game)
	}
}
