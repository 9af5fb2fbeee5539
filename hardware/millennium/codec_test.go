package millennium_test

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arbiter/hardware/millennium"
)

// The examples of the protocol notes (2.2), byte for byte.
func TestAppendMatchesTheNotes(t *testing.T) {
	for _, tc := range []struct {
		letter byte
		data   string
		text   string
		wire   []byte
	}{
		{'V', "", "V56", []byte{0xd6, 0xb5, 0xb6}},
		{'S', "", "S53", nil},
		{'X', "", "X58", nil},
		{'T', "", "T54", nil},
		{'R', "02", "R0250", []byte{0x52, 0xb0, 0x32, 0xb5, 0xb0}},
		{'W', "0203", "W020356", nil},
		{'v', "0103", "v010374", []byte{0x76, 0xb0, 0x31, 0xb0, 0xb3, 0x37, 0x34}},
	} {
		got := millennium.Append(nil, tc.letter, tc.data)
		text := make([]byte, len(got))
		for i, b := range got {
			text[i] = b & 0x7f
			assert.True(t, millennium.ParityOK(b), "%s: byte %d % x has odd parity", tc.text, i, b)
		}
		assert.Equal(t, tc.text, string(text))
		if tc.wire != nil {
			assert.Equal(t, tc.wire, got, tc.text)
		}
	}
	assert.Equal(t, byte(0xd6), millennium.Parity('V'))
	assert.Equal(t, byte(0x76), millennium.Parity('v'))
	assert.Equal(t, byte(0xb0), millennium.Parity('0'))
}

func decodeAll(t *testing.T, lengths *millennium.Lengths, wire []byte) (msgs []millennium.Message, errs []error) {
	t.Helper()
	d := millennium.Decoder{Lengths: lengths}
	for len(wire) > 0 {
		n, m, err := d.Decode(wire)
		if errors.Is(err, millennium.ErrIncomplete) {
			break
		}
		require.Positive(t, n)
		if err != nil {
			errs = append(errs, err)
		} else {
			msgs = append(msgs, m)
		}
		wire = wire[n:]
	}
	return msgs, errs
}

// A board status full of piece letters that are also reply letters (r,
// b, n, ... and s itself), between replies, after noise, with a damaged
// copy: the decoder takes exactly the good messages.
func TestDecoderHuntsByChecksum(t *testing.T) {
	status := "rnbqkbnrpppppppp................................PPPPPPPPRNBQKBNR"
	var wire []byte
	wire = append(wire, 0x00, 0x13, 'z')
	wire = millennium.Append(wire, 'v', "0103")
	bad := millennium.Append(nil, 's', status)
	bad[30] ^= 0x01 // one bit flipped: its checksum fails
	wire = append(wire, bad...)
	wire = millennium.Append(wire, 's', status)
	wire = millennium.Append(wire, 'r', "0214")
	wire = millennium.Append(wire, 'l', "")
	msgs, errs := decodeAll(t, &millennium.ReplyLengths, wire)
	var got []string
	for _, m := range msgs {
		got = append(got, m.String())
	}
	assert.Equal(t, []string{"v0103", "s" + status, "r0214", "l"}, got)
	require.NotEmpty(t, errs)
	var de *millennium.DecodeError
	require.ErrorAs(t, errs[0], &de)
	assert.Equal(t, 0, de.Offset)
	assert.Contains(t, errs[0].Error(), "no message begins with them")
}

// A status with a character that is no piece is refused even with a right
// checksum, as python-mchess refuses it.
func TestDecoderRefusesUnknownPieces(t *testing.T) {
	status := strings.Repeat(".", 63) + "X"
	_, errs := decodeAll(t, &millennium.ReplyLengths, millennium.Append(nil, 's', status))
	require.NotEmpty(t, errs)
	assert.Contains(t, errs[0].Error(), "no piece letter")
}

func TestDecoderWaitsForTheRest(t *testing.T) {
	wire := millennium.Append(nil, 'r', "0214")
	d := millennium.Decoder{Lengths: &millennium.ReplyLengths}
	n, _, err := d.Decode(wire[:4])
	assert.Zero(t, n)
	assert.ErrorIs(t, err, millennium.ErrIncomplete)
	n, m, err := d.Decode(wire)
	require.NoError(t, err)
	assert.Equal(t, len(wire), n)
	assert.Equal(t, byte(0x14), millennium.Hex(m.Data, 2))
}

func TestLEDs(t *testing.T) {
	var l millennium.LEDs
	l.Light(0, 0xff) // a8: LEDs 1, 2, 10, 11 of the notes
	for _, led := range []int{1, 2, 10, 11} {
		assert.Equal(t, byte(0xff), l[led-1], "LED %d", led)
	}
	l = millennium.LEDs{}
	l.Light(63, 0xf0) // h1: 71, 72, 80, 81
	for _, led := range []int{71, 72, 80, 81} {
		assert.Equal(t, byte(0xf0), l[led-1], "LED %d", led)
	}
	l = millennium.LEDs{}
	l.Light(4*8+4, 0x0f) // e4 (row 4 from rank 8, column e): 41, 42, 50, 51
	for _, led := range []int{41, 42, 50, 51} {
		assert.Equal(t, byte(0x0f), l[led-1], "LED %d", led)
	}
	cmd := millennium.LEDCommand(0x20, &l)
	assert.Len(t, cmd, 167)
	msgs, errs := decodeAll(t, &millennium.CommandLengths, cmd)
	require.Empty(t, errs)
	slot, back, ok := millennium.ParseLEDs(msgs[0].Data)
	require.True(t, ok)
	assert.Equal(t, byte(0x20), slot)
	assert.Equal(t, l, back)
	assert.True(t, bytes.Equal(millennium.Append(nil, 'X', ""), millennium.LEDCommand(0x20, &millennium.LEDs{})), "dark LEDs are X")
}
