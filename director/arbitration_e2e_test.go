package director_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arbiter/board"
	"arbiter/hardware/sensorboard/sim"
	"arbiter/rules"
)

// Issue 35 §6: Kvaa and Tensor chess arbitrated through the board
// protocol as the other games are: a draw offered and accepted, a
// resignation confirmed, claims (Kvaa has none to claim: refused with the
// reason on the board; Tensor chess's threefold repetition is valid), and
// a take-back put right on the board, after which play goes on (a Kvaa
// turn of a placement and a capture, taken back and made again).
func TestKvaaAndTensorArbitrationEndToEnd(t *testing.T) {
	shows := func(s *simTable, text string) {
		t.Helper()
		require.Eventually(t, func() bool {
			_, _, alert, _ := s.board.HostState()
			return alert.Text == text
		}, 5*time.Second, 20*time.Millisecond, "the board shows %q", text)
	}
	for _, game := range []string{"kvaa", "tensor"} {
		first := map[string][]string{"kvaa": {"b2-c3", "b4-a3"}, "tensor": {"e2-e4", "e7-e5"}}[game]
		names := map[string][2]string{"kvaa": {"South", "North"}, "tensor": {"White", "Black"}}[game]
		t.Run(game+"/offer", func(t *testing.T) {
			s := newSimTable(t, game)
			s.play(first[0])
			s.press(board.ButtonOffer, rules.First, 1, 0)
			shows(s, names[0]+" offers draw")
			s.press(board.ButtonOffer, rules.Second, 1, 0)
			g := s.result()
			assert.Equal(t, "1/2-1/2", g.Result)
			assert.Equal(t, "agreement", g.Reason)
		})
		t.Run(game+"/resign", func(t *testing.T) {
			s := newSimTable(t, game)
			s.play(first...)
			s.press(board.ButtonResign, rules.First, 2, 500*time.Millisecond)
			g := s.result()
			assert.Equal(t, "0-1", g.Result)
			assert.Equal(t, "resignation", g.Reason)
		})
	}
	t.Run("kvaa/claim refused", func(t *testing.T) {
		s := newSimTable(t, "kvaa")
		s.play("b2-c3")
		s.press(board.ButtonClaim, rules.Second, 1, 0)
		shows(s, "North's claim button: Kvaa has no draw to claim")
		s.play("b4-a3")
	})
	t.Run("tensor/threefold claim", func(t *testing.T) {
		s := newSimTable(t, "tensor")
		s.play("Nc1-d3", "Nc8-d6", "Nd3-c1", "Nd6-c8", "Nc1-d3", "Nc8-d6", "Nd3-c1", "Nd6-c8")
		s.press(board.ButtonClaim, rules.First, 1, 0)
		g := s.result()
		assert.Equal(t, "1/2-1/2", g.Result)
		assert.Equal(t, "repetition", g.Reason)
	})
	t.Run("kvaa/take-back", func(t *testing.T) {
		s := newSimTable(t, "kvaa")
		s.play("b2-c3", "d4xb2", "@d4,c1xa3")
		before := s.pos
		require.NoError(t, s.d.TakeBack(s.ctx, s.tbl.Live().GameID, "chief", "the players agree South's turn was made in error"))
		shows(s, "restore the position before the taken-back move")
		// The players put the turn back, and South makes it again.
		g, err := rules.New("kvaa", nil)
		require.NoError(t, err)
		s.pos = g.Start()
		for _, m := range []string{"b2-c3", "d4xb2"} {
			_, s.pos, err = rules.PlayText(s.pos, m)
			require.NoError(t, err)
		}
		require.NoError(t, s.runner.Run(s.ctx, restoreSteps(t, s.board, s.pos.View())))
		require.Eventually(t, func() bool { return !s.tbl.Live().Recovery }, 5*time.Second, 20*time.Millisecond, "the board is put right")
		s.runner.Human.Ordered = 1 // the placement first, as kvaa.md writes it
		s.play("@d4,c1xa3")
		assert.Equal(t, before.String(), s.pos.String())
		s.play("@c3,c5xe3")
	})
}

// restoreSteps lifts and sets down pieces, one square at a time, and
// takes and puts pieces in the zones, until b shows want.
func restoreSteps(t *testing.T, b *sim.Board, want rules.View) []sim.Step {
	t.Helper()
	cur := b.View()
	var steps []sim.Step
	at := time.Duration(0)
	for sq := range cur.Stacks {
		have, need := cur.Stacks[sq], want.Stacks[sq]
		if len(have) == len(need) && (len(have) == 0 || have[len(have)-1] == need[len(need)-1]) {
			continue
		}
		at += 50 * time.Millisecond
		if len(have) > 0 {
			steps = append(steps, sim.Step{At: at, Op: sim.OpLift, Square: rules.Square(sq), N: len(have)})
			at += 50 * time.Millisecond
		}
		if len(need) > 0 {
			steps = append(steps, sim.Step{At: at, Op: sim.OpPlace, Square: rules.Square(sq), Pieces: need})
		}
	}
	for z := range cur.Zones {
		have, need := cur.Zones[z], want.Zones[z]
		for i := len(need); i < len(have); i++ {
			at += 50 * time.Millisecond
			steps = append(steps, sim.Step{At: at, Op: sim.OpTake, Zone: z, Piece: have[i]})
		}
		for i := len(have); i < len(need); i++ {
			at += 50 * time.Millisecond
			steps = append(steps, sim.Step{At: at, Op: sim.OpPut, Zone: z, Piece: need[i]})
		}
	}
	return steps
}
