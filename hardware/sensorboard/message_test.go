package sensorboard

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// Bad payloads get errors that name the message, the field and the place.
func TestPayloadErrorsNameTheField(t *testing.T) {
	tests := []struct {
		m    Message
		in   []byte
		want string
	}{
		{new(DumpSquaresMsg), []byte{0, 1, 0, 0, 2, 1, 0x80, 'P', 0, 1}, "DUMP_SQUARES payload: field square 1 top at byte 10: need 3 bytes, have 0"},
		{new(Hello), []byte{1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 8, 8, 0, 64, 1, 9, 0}, "HELLO payload: field zone 0 kind: unknown zone kind 9"},
		{new(SquareMsg), []byte{0, 1, 1, 0x80, 'p', 0}, "SQUARE payload: field top at byte 3: piece kind byte 0x70 is not an upper-case letter"},
		{new(ButtonMsg), []byte{1, 0, 7, 1, 0}, "BUTTON payload: field action: unknown action 7"},
		{new(ClockMsg), []byte{0, 0, 0, 1, 0, 0, 0, 2, 5, 0}, "CLOCK payload: field running: side 0x05"},
		{new(AlertMsg), []byte{1, 0, 2, 0xFF, 0xFE}, "ALERT payload: field text: not UTF-8"},
		{new(Hello), []byte{1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 8, 8, 0, 63, 0, 0, 1, 'B', 0, 0}, "HELLO payload: field cells: 63 cells on a rectangular 8x8 board"},
	}
	for _, tc := range tests {
		err := tc.m.UnmarshalPayload(tc.in)
		if assert.Error(t, err, "%T", tc.m) {
			assert.Equal(t, tc.want, err.Error())
		}
	}
}

// A payload longer than this version knows is read, and the rest ignored.
func TestPayloadTrailingBytesIgnored(t *testing.T) {
	p := (&SquareMsg{Square: 3, Height: 2}).AppendPayload(nil)
	var m SquareMsg
	assert.NoError(t, m.UnmarshalPayload(append(p, 0xAA, 0xBB)))
	assert.Equal(t, SquareMsg{Square: 3, Height: 2}, m)
}
