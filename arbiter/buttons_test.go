package arbiter_test

import (
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arbiter/arbiter"
	"arbiter/board"
	"arbiter/rules"
)

// TestFromSensorBoardButtons maps the offer, resign and claim buttons
// (PROTOCOL 5.4, kinds 5-7) onto their session events: a press by a side,
// with its instant and whether it was recovered from a dump; a release, or
// a press with no side, is nothing.
func TestFromSensorBoardButtons(t *testing.T) {
	cases := []struct {
		name      string
		button    board.ButtonKind
		side      board.Side
		pressed   bool
		recovered bool
		kind      arbiter.EventKind
		ok        bool
	}{
		{"offer", board.ButtonOffer, board.SideFirst, true, false, arbiter.OfferPressed, true},
		{"resign", board.ButtonResign, board.SideSecond, true, false, arbiter.ResignPressed, true},
		{"claim", board.ButtonClaim, board.SideSecond, true, false, arbiter.ClaimPressed, true},
		{"recovered resign", board.ButtonResign, board.SideFirst, true, true, arbiter.ResignPressed, true},
		{"released", board.ButtonResign, board.SideFirst, false, false, 0, false},
		{"nobody's offer", board.ButtonOffer, board.SideNone, true, false, 0, false},
		{"unknown kind", board.ButtonKind(8), board.SideFirst, true, false, 0, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ev, ok := arbiter.FromSensor(board.Event{Kind: board.EventButton, Button: c.button, Side: c.side, Pressed: c.pressed,
				Recovered: c.recovered, Host: 2 * time.Second, At: time.Second, Mapped: true})
			require.Equal(t, c.ok, ok)
			if !ok {
				return
			}
			assert.Equal(t, c.kind, ev.Kind)
			assert.Equal(t, rules.Color(c.side), ev.Side)
			assert.Equal(t, time.Second, ev.At, "the board's instant")
			assert.Equal(t, c.recovered, ev.Recovered)
		})
	}
	for k, name := range map[arbiter.EventKind]string{arbiter.OfferPressed: "offer", arbiter.ResignPressed: "resign", arbiter.ClaimPressed: "claim"} {
		assert.Equal(t, name, k.String())
	}
}

// TestProtocolDocAdjust: PROTOCOL.md §5.4 gives the times after which the
// host ends adjust mode by itself; they are the session's defaults.
func TestProtocolDocAdjust(t *testing.T) {
	raw, err := os.ReadFile("../hardware/sensorboard/PROTOCOL.md")
	require.NoError(t, err)
	doc := strings.Join(strings.Fields(string(raw)), " ")
	g, err := rules.New("chess", nil)
	require.NoError(t, err)
	cfg := arbiter.DefaultConfig(g)
	assert.Contains(t, doc, fmt.Sprintf("unchanged for the settle time (%d ms by default)", cfg.Settle.Milliseconds()))
	assert.Contains(t, doc, fmt.Sprintf("the recovery time (%d s by default)", int(cfg.RecoveryAfter.Seconds())))
}
