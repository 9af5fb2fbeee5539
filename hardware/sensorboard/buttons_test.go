package sensorboard

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestHelloButtons: a HELLO may list each (kind, side) button once, since a
// BUTTON frame names only the kind and the side (PROTOCOL 5.1); the new
// kinds of 1.2 are read and named.
func TestHelloButtons(t *testing.T) {
	base := Hello{Major: 1, Minor: 2, Heartbeat: 500, Width: 8, Height: 8, Cells: 64, ID: "B"}
	cases := []struct {
		name    string
		buttons []ButtonInfo
		err     string
	}{
		{"one each", []ButtonInfo{{ButtonClock, SideFirst}, {ButtonClock, SideSecond}, {ButtonOffer, SideFirst}, {ButtonOffer, SideSecond},
			{ButtonResign, SideFirst}, {ButtonResign, SideSecond}, {ButtonClaim, SideFirst}, {ButtonClaim, SideSecond}, {ButtonArbiter, SideNone}}, ""},
		{"two clock buttons for one side", []ButtonInfo{{ButtonClock, SideFirst}, {ButtonClock, SideFirst}}, "field button 1: a second clock button for side 0x00"},
		{"two shared arbiter buttons", []ButtonInfo{{ButtonArbiter, SideNone}, {ButtonClock, SideFirst}, {ButtonArbiter, SideNone}}, "field button 2: a second arbiter button for side 0xff"},
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
	for k, name := range map[ButtonKind]string{ButtonOffer: "offer", ButtonResign: "resign", ButtonClaim: "claim", 8: "button(8)"} {
		assert.Equal(t, name, k.String())
	}
}
