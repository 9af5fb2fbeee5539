package director_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arbiter/director"
	"arbiter/rules"
)

// Issue 18 §3 for every game it applies to, beyond chess (claims_test.go):
// a draw offer accepted ends the game by agreement in each game that has
// one (shogi has none: TestShogiHasNoDrawOffer), and a resignation from
// the console ends every game, each recorded with its reason in the store,
// the audit log and the game's record.
func TestOfferAndResignationInEveryGame(t *testing.T) {
	for _, c := range []struct {
		game, format string
		offers       bool
	}{
		{"tavreli", "latin", true},
		{"kvaa", "kvaa", true},
		{"tensor", "pgn", true},
		{"shogi", "kif", false},
	} {
		if c.offers {
			t.Run(c.game+" offer", func(t *testing.T) {
				g := newBoardGame(t, c.game, "")
				require.NoError(t, g.d.Offer(g.ctx, g.id, rules.First, director.DrawOffer, "chief", "offered at the board"))
				o, err := g.d.AnswerOffer(g.ctx, g.id, rules.Second, true, "chief", "accepted")
				require.NoError(t, err)
				assert.Equal(t, rules.Draw(rules.Agreement), o)
				res, reason := g.result()
				assert.Equal(t, "1/2-1/2", res)
				assert.Equal(t, "agreement", reason)
				acts := g.actions()
				assert.Len(t, acts["draw-offer"], 1)
				assert.NotEmpty(t, g.record(c.format))
			})
		}
		t.Run(c.game+" resignation", func(t *testing.T) {
			g := newBoardGame(t, c.game, "")
			require.NoError(t, g.d.ResignGame(g.ctx, g.id, rules.Second, "chief", "resigned at the board"))
			res, reason := g.result()
			assert.Equal(t, "1-0", res)
			assert.Equal(t, "resignation", reason)
			r := g.actions()["resignation"]
			require.Len(t, r, 1)
			assert.Equal(t, "resigned at the board", r[0].Why)
			assert.Contains(t, g.record(c.format), "resignation", "the record names the reason")
		})
	}
}

// An incorrect draw claim in Tensor chess gives the opponent two minutes,
// as in chess (Tensor G1 plays under the FIDE Laws; chess is tested in
// TestFiftyMoveClaimsAndPenalty).
func TestTensorIncorrectClaimPenalty(t *testing.T) {
	g := newBoardGame(t, "tensor", "")
	before := g.tbl.Live().Clock
	v, err := g.d.ClaimDraw(g.ctx, g.id, rules.First, "", "chief", "claims repetition")
	require.NoError(t, err)
	assert.False(t, v.Valid, v.Detail)
	assert.Equal(t, 2*time.Minute, v.Penalty)
	after := g.tbl.Live().Clock
	assert.Equal(t, before[1].Millis+120000, after[1].Millis, "two minutes to the opponent")
	res, _ := g.result()
	assert.Empty(t, res, "the game goes on")
	require.Len(t, g.actions()["draw-claim"], 1)
}
