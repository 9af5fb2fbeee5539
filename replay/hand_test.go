package replay_test

import (
	"flag"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arbiter/arbiter"
	"arbiter/board"
	"arbiter/hardware/sensorboard/sim"
	"arbiter/rules"
)

var handGames = flag.Int("shogi-hand-games", 0, "games per board class in TestShogiHandStands (0: 10, or 3 with -short)")

// standHuman is a brisk player whose captured pieces reach the hand stand
// after the clock press, before the capturing piece is set down, or on the
// opponent's stand first, and who now and then lifts the moved piece after
// the press and puts it back (issue 24).
var standHuman = func() sim.Human {
	h := fastHuman
	h.LateStand, h.EarlyStand, h.WrongStand, h.Retouch = 0.35, 0.35, 0.25, 0.05
	return h
}()

// captures prefers moves that take a piece, so that many pieces travel to
// the stands and back as drops.
func captures(pos rules.Position, m rules.Move) bool {
	return m.From() != rules.NoSquare && pos.View().Height(m.To()) > 0
}

// TestShogiHandStands plays random shogi games full of captures and drops
// whose captured pieces reach the stand late, early or on the wrong stand,
// on boards that count the hand stands and on boards that do not. Every
// move is read as played, no game is lost for it, and the only alerts are
// the etiquette alerts of a wrong stand, on boards that can see it, and
// the foul-suspected reports of a moved piece lifted after the press.
// (Its evidence is only a report: the move stands.)
// Questions go through the board (QUESTION) and are answered with its
// keys: yes and no for promotions.
func TestShogiHandStands(t *testing.T) {
	games, plies := 10, 80
	if testing.Short() || raceEnabled {
		games, plies = 3, 60
	}
	if *handGames > 0 {
		games = *handGames
	}
	boards := []struct {
		name   string
		caps   board.Caps
		stands bool
	}{
		{"height+stands", board.CapHeight | board.CapZoneCount, true},
		{"identity+stands", shogiIdentity, true},
		{"height", heightOnly, false},
		{"identity", board.CapHeight | board.CapIdentity | board.CapFace, false},
	}
	g := newGame(t, "shogi")
	for _, b := range boards {
		t.Run(b.name, func(t *testing.T) {
			t.Parallel()
			total := newTally()
			for i := range games {
				s := 24_000 + uint64(i)
				label := fmt.Sprintf("shogi/%s seed %d", b.name, s)
				turns, err := biasedGame(g.Start(), plies, rand.New(rand.NewPCG(s, 24)), 0.6, captures)
				require.NoError(t, err, label)
				r, err := newRig(rigConfig{game: g, caps: b.caps, seed: s, human: standHuman, questions: true})
				require.NoError(t, err, label)
				tl := playGame(t, r, turns, sim.Faults{}, label)
				if r.over != nil {
					assert.NotEqual(t, rules.IllegalMove, r.over.Outcome.Reason, "%s: the game was lost: %s", label, r.over.Detail)
				}
				assert.Equal(t, len(turns), tl.plies, "%s: every move read", label)
				total.add(tl)
			}
			t.Logf("%s: %s", b.name, total)
			require.Zero(t, total.wrong, "wrong moves")
			require.Zero(t, total.held, "moves not read at the press")
			require.Zero(t, total.abandoned)
			etiquette := total.alerts[arbiter.EtiquetteAlert.String()]
			delete(total.alerts, arbiter.EtiquetteAlert.String())
			require.Positive(t, total.alerts[arbiter.FoulSuspectedAlert.String()], "a moved piece lifted after the press")
			delete(total.alerts, arbiter.FoulSuspectedAlert.String())
			require.Empty(t, total.alerts, "no alert but etiquette and foul-suspected")
			if b.stands {
				require.Positive(t, etiquette, "a board that counts the stands sees the wrong ones")
			} else {
				require.Zero(t, etiquette)
			}
			if b.caps&board.CapFace == 0 {
				require.Positive(t, total.prompts, "promotions asked through the board")
			}
		})
	}
}
