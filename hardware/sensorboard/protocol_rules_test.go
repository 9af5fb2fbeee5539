package sensorboard

import (
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arbiter/board"
	"arbiter/rules"
	"arbiter/rules/tavreli"
)

// TestHelloButtons: a HELLO may list each (kind, side) button once, since a
// BUTTON frame names only the kind and the side (PROTOCOL 5.1); the new
// kinds of 1.2 are read and named.
func TestHelloButtons(t *testing.T) {
	base := Hello{Major: 1, Minor: 2, Heartbeat: 500, Width: 8, Height: 8, Cells: 64, ID: "B"}
	cases := []struct {
		name    string
		buttons []board.ButtonInfo
		err     string
	}{
		{"one each", []board.ButtonInfo{{Kind: board.ButtonClock, Side: board.SideFirst}, {Kind: board.ButtonClock, Side: board.SideSecond}, {Kind: board.ButtonOffer, Side: board.SideFirst}, {Kind: board.ButtonOffer, Side: board.SideSecond},
			{Kind: board.ButtonResign, Side: board.SideFirst}, {Kind: board.ButtonResign, Side: board.SideSecond}, {Kind: board.ButtonClaim, Side: board.SideFirst}, {Kind: board.ButtonClaim, Side: board.SideSecond}, {Kind: board.ButtonArbiter, Side: board.SideNone}}, ""},
		{"two clock buttons for one side", []board.ButtonInfo{{Kind: board.ButtonClock, Side: board.SideFirst}, {Kind: board.ButtonClock, Side: board.SideFirst}}, "field button 1: a second clock button for side 0x00"},
		{"two shared arbiter buttons", []board.ButtonInfo{{Kind: board.ButtonArbiter, Side: board.SideNone}, {Kind: board.ButtonClock, Side: board.SideFirst}, {Kind: board.ButtonArbiter, Side: board.SideNone}}, "field button 2: a second arbiter button for side 0xff"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			h := base
			h.Buttons = c.buttons
			var got Hello
			err := got.UnmarshalPayload(h.AppendPayload(nil))
			if c.err != "" {
				require.Error(t, err)
				assert.Contains(t, err.Error(), c.err)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, c.buttons, got.Buttons)
		})
	}
	for k, name := range map[board.ButtonKind]string{board.ButtonOffer: "offer", board.ButtonResign: "resign", board.ButtonClaim: "claim", 8: "button(8)"} {
		assert.Equal(t, name, k.String())
	}
}

// TestClockBackwards is PROTOCOL 3.2's one rule for a board clock that goes
// backwards without a HELLO: the frame is accepted with the previous
// frame's time, the host sends HELLO_REQ, and the HELLO brings a dump. A
// clock that wraps at 2^32 does not go backwards.
func TestClockBackwards(t *testing.T) {
	var out []string
	var boardMs []int64
	l := &Link{Emit: func(e board.Event) {
		out = append(out, renderEvent(e))
		if e.Kind == board.EventSquare {
			boardMs = append(boardMs, e.BoardMs)
		}
	}, Send: func(m Message) { out = append(out, renderSend(m)) }}
	l.SetPort("p", 0)
	hello := (&Hello{Major: 1, Boot: 9, Caps: board.CapHeight, Heartbeat: 500, Width: 1, Height: 1, Cells: 1, ID: "R"}).AppendPayload(nil)
	l.Frame(Frame{Header: Header{Type: TypeHello, Seq: 0, Time: 0xFFFF_FF00}, Payload: hello}, 0)
	square := func(seq uint16, ms uint32, host time.Duration) {
		p := (&SquareMsg{Square: 0, Height: uint8(seq % 2)}).AppendPayload(nil)
		l.Frame(Frame{Header: Header{Type: TypeSquare, Seq: seq, Time: ms}, Payload: p}, host)
	}
	square(1, 0xFFFF_FF80, 10*time.Millisecond)
	square(2, 0x0000_0010, 20*time.Millisecond) // wrapped: 0x90 ms later
	out = nil
	square(3, 0x0000_0008, 30*time.Millisecond) // 8 ms back
	assert.Equal(t, []string{"send HELLO_REQ", "square sq=0 h=1"}, out, "accepted, and the HELLO asked for")
	require.Len(t, boardMs, 3)
	assert.Equal(t, boardMs[0]+0x90, boardMs[1], "the wrap is no step back")
	assert.Equal(t, boardMs[1], boardMs[2], "the frame takes the previous frame's time")
	out = nil
	l.Frame(Frame{Header: Header{Type: TypeHello, Seq: 4, Time: 0x10}, Payload: hello}, 40*time.Millisecond)
	require.NotEmpty(t, out)
	assert.Contains(t, out[len(out)-1], "send DUMP_REQ", "the HELLO brings a dump")
}

// TestProtocolDocRatnik: a promoted Ratnik is the same physical piece,
// kind P with its mark (PROTOCOL 4.1), as the Tavreli rules see it.
func TestProtocolDocRatnik(t *testing.T) {
	raw, err := os.ReadFile("PROTOCOL.md")
	require.NoError(t, err)
	flat := strings.Join(strings.Fields(string(raw)), " ")
	for _, role := range []tavreli.Role{tavreli.Ratnik, tavreli.Helgi} {
		p := tavreli.Piece{Color: rules.First, Role: role, Mark: tavreli.Helgi}
		b := appendIdent(nil, board.Ident{Known: true, Piece: p.Physical()})
		assert.Contains(t, flat, fmt.Sprintf("a white Ratnik marked Helgi is `%X %X %X` either way", b[0], b[1], b[2]), "promoted: %t", p.Promoted())
	}
}
