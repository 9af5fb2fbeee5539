package dgt

import (
	"errors"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arbiter/rules"
)

func msg(id byte, payload ...byte) []byte { return AppendMessage(nil, id, payload) }

// decodeAll decodes a whole stream and returns its messages and errors.
func decodeAll(d *Decoder, p []byte) (ms []Message, errs []error) {
	for len(p) > 0 {
		n, m, err := d.Decode(p)
		if errors.Is(err, ErrIncomplete) {
			errs = append(errs, err)
			return
		}
		if err != nil {
			errs = append(errs, err)
		} else {
			m.Payload = append([]byte(nil), m.Payload...)
			ms = append(ms, m)
		}
		p = p[n:]
	}
	return
}

func TestParseMessages(t *testing.T) {
	dump := make([]byte, 64)
	copy(dump, []byte{8, 9, 10, 12, 11, 10, 9, 8})
	var start BoardDump
	copy(start.Position[:8], []Piece{BRook, BKnight, BBishop, BQueen, BKing, BBishop, BKnight, BRook})
	ack := (&ClockAck{Ack: [4]byte{0x10, 0x0a, 0x00, 0x00}}).AppendPayload(nil)
	cases := []struct {
		name string
		wire []byte
		want any
	}{
		{"field update", msg(MsgFieldUpdate, 12, byte(WQueen)), &FieldUpdate{Field: 12, Piece: WQueen}},
		{"lift", msg(MsgFieldUpdate, 63, 0), &FieldUpdate{Field: 63, Piece: Empty}},
		{"board dump", msg(MsgBoardDump, dump...), &start},
		{"serial", msg(MsgSerialNr, '0', '1', '0', '2', '5'), &SerialNr{Serial: "01025"}},
		{"long serial", msg(MsgLongSerialNr, []byte("0000101025")...), &SerialNr{Serial: "0000101025", Long: true}},
		{"version", msg(MsgVersion, 1, 2), &Version{Major: 1, Minor: 2}},
		{"bus address", msg(MsgBusAddress, 0x08, 0x01), &BusAddress{Addr: 1025}},
		{"trademark", msg(MsgTrademark, []byte("DGT Projects")...), &Trademark{Text: "DGT Projects"}},
		{"battery", msg(MsgBattery, 87, 0x7f, 0x7f, 1, 2, 3, 4, 5, 1), &Battery{Percent: 87, Charging: true, Raw: []byte{0x7f, 0x7f, 1, 2, 3, 4, 5, 1}}},
		// Right 0:05:09, left 1:30:00, running, lever right high, left's turn.
		{"clock times", msg(MsgBWTime, 0x00, 0x05, 0x09, 0x01, 0x30, 0x00, 0x13),
			&ClockTimes{Right: 5*time.Minute + 9*time.Second, Left: 90 * time.Minute, Running: true, Lever: true, LeftTurn: true}},
		{"flag fallen", msg(MsgBWTime, 0x10, 0, 0, 0x20, 0x01, 0x00, 0x09),
			&ClockTimes{Right: 0, RightFlag: true, Left: time.Minute, LeftPerMove: true, Running: true, RightTurn: true}},
		{"clock ack", msg(MsgBWTime, ack...), &ClockAck{Ack: [4]byte{0x10, 0x0a, 0, 0}}},
		{"log", msg(MsgLog, 0x6f, 0x41, 0x34, 0x71, 0x05, 0x09, 0x6b),
			&Log{EOF: true, Tags: []LogTag{{Kind: TagMarker, Marker: EEBeginPos}, {Kind: TagField, Offset: 1, Field: 52, Piece: WPawn},
				{Kind: TagTime, Offset: 3, Left: true, Time: time.Hour + 5*time.Minute + 9*time.Second}}}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var d Decoder
			n, m, err := d.Decode(tc.wire)
			require.NoError(t, err)
			require.Equal(t, len(tc.wire), n)
			got, err := Parse(m)
			require.NoError(t, err)
			assert.Equal(t, tc.want, got)
		})
	}
}

func TestParseErrors(t *testing.T) {
	cases := []struct {
		name string
		wire []byte
		want string
	}{
		{"field beyond the board", msg(MsgFieldUpdate, 64, 1), "field 64 beyond 63"},
		{"unknown piece", msg(MsgFieldUpdate, 3, 0x10), "field 3: piece code 0x10 unknown"},
		{"unknown piece in dump", msg(MsgBoardDump, append(make([]byte, 40), append([]byte{0x1f}, make([]byte, 23)...)...)...), "field 40: piece code 0x1f unknown"},
		{"serial not digits", msg(MsgSerialNr, '0', '1', 'x', '2', '5'), "serial number byte 2 is 0x78"},
		{"minutes not BCD", msg(MsgBWTime, 0x00, 0x6a, 0x00, 0, 0, 0, 0), "right time 0:6a:00"},
		{"left seconds not BCD", msg(MsgBWTime, 0, 0, 0, 0, 0, 0x61, 0), "left time 0:00:61"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var d Decoder
			_, m, err := d.Decode(tc.wire)
			require.NoError(t, err)
			_, err = Parse(m)
			var pe *ParseError
			require.ErrorAs(t, err, &pe)
			assert.Contains(t, err.Error(), tc.want)
			assert.Contains(t, err.Error(), "at byte 0")
		})
	}
}

func TestDecodeResynchronises(t *testing.T) {
	good := msg(MsgFieldUpdate, 10, byte(BKnight))
	cases := []struct {
		name   string
		stream []byte
		errs   []string // error texts, in order
		ids    []byte   // the messages still decoded
	}{
		{"stray bytes first", append([]byte{0x01, 0x02}, good...), []string{"byte 0: 2 stray byte(s)"}, []byte{MsgFieldUpdate}},
		{"cut in the header", append([]byte{MsgBoardDump, 0x00}, good...), []string{"message 0x86 at byte 0: truncated at byte 2 of its header"}, []byte{MsgFieldUpdate}},
		{"cut in the payload", append(msg(MsgBoardDump, make([]byte, 64)...)[:30], good...), []string{"message 0x86 at byte 0: truncated at byte 30 of 67"}, []byte{MsgFieldUpdate}},
		{"wrong fixed length", append([]byte{MsgFieldUpdate, 0, 6, 1, 2, 3}, good...), []string{"message 0x8e at byte 0: length 6, want 5", "byte 1: 5 stray byte(s)"}, []byte{MsgFieldUpdate}},
		{"length too long", append([]byte{0xc4, 0x7f, 0x7f}, good...), []string{"message 0xc4 at byte 0: length 16383 out of range 3..259", "byte 1: 2 stray byte(s)"}, []byte{MsgFieldUpdate}},
		{"two good", append(append([]byte(nil), good...), good...), nil, []byte{MsgFieldUpdate, MsgFieldUpdate}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var d Decoder
			ms, errs := decodeAll(&d, tc.stream)
			require.Len(t, errs, len(tc.errs), "%v", errs)
			for i, e := range errs {
				assert.Contains(t, e.Error(), tc.errs[i])
			}
			var ids []byte
			for _, m := range ms {
				ids = append(ids, m.ID)
			}
			assert.Equal(t, tc.ids, ids)
			assert.Equal(t, int64(len(tc.stream)), d.Offset())
		})
	}
}

func TestDecodeIncremental(t *testing.T) {
	stream := append(msg(MsgBoardDump, make([]byte, 64)...), msg(MsgFieldUpdate, 1, 2)...)
	var d Decoder
	var buf []byte
	var got []byte
	for _, b := range stream {
		buf = append(buf, b)
		for {
			n, m, err := d.Decode(buf)
			if errors.Is(err, ErrIncomplete) {
				require.Zero(t, n)
				break
			}
			require.NoError(t, err)
			got = append(got, m.ID)
			buf = buf[n:]
		}
	}
	assert.Equal(t, []byte{MsgBoardDump, MsgFieldUpdate}, got)
}

func TestBusWire(t *testing.T) {
	// The header's own example: 0x81 0x10 0x06 carries checksum 0x17.
	assert.Equal(t, []byte{0x81, 0x10, 0x06, 0x17}, BusCommand(BusSendClock, 0x10<<7|0x06))
	cmd, addr, err := ParseBusCommand([]byte{0x81, 0x10, 0x06, 0x17})
	require.NoError(t, err)
	assert.Equal(t, BusSendClock, cmd)
	assert.Equal(t, uint16(0x806), addr)
	_, _, err = ParseBusCommand([]byte{0x81, 0x10, 0x06, 0x18})
	require.Error(t, err)

	d := Decoder{Bus: true}
	ping := AppendBusMessage(nil, MsgBusPing, 1025, nil)
	assert.Equal(t, []byte{0x87, 0, 6, 0x08, 0x01, (0x87 + 6 + 8 + 1) & 0x7f}, ping)
	changes := AppendBusMessage(nil, MsgBusUpdate, 1025, []byte{0x41, 0x34})
	bad := append([]byte(nil), changes...)
	bad[len(bad)-1] ^= 1
	ms, errs := decodeAll(&d, append(append(append([]byte(nil), ping...), bad...), changes...))
	require.Len(t, errs, 1)
	var de *DecodeError
	require.ErrorAs(t, errs[0], &de)
	assert.True(t, de.Checksum)
	assert.Equal(t, uint16(1025), de.Addr)
	assert.Contains(t, de.Error(), "message 0x85 at byte 6: board 1025: checksum")
	require.Len(t, ms, 2)
	assert.Equal(t, MsgBusPing, ms[0].ID)
	assert.Equal(t, []byte{0x41, 0x34}, ms[1].Payload)
	assert.Equal(t, uint16(1025), ms[1].Addr)
}

func TestClockCommands(t *testing.T) {
	set, err := SetNRun(5*time.Minute, 3*time.Minute+7*time.Second, RunLeft|RunToggle)
	require.NoError(t, err)
	assert.Equal(t, []byte{0x2b, 0x0a, 0x03, 0x0a, 0, 5, 0, 0, 3, 7, 0x09, 0x00}, set)
	_, err = SetNRun(10*time.Hour, 0, 0)
	require.ErrorContains(t, err, "left: dgt: clock time 10h0m0s outside 0..9:59:59")
	assert.Equal(t, []byte{0x2b, 0x0c, 0x03, 0x0c, 'I', 'L', 'L', 'E', 'G', 'A', 'L', ' ', 3, 0x00}, ShowText("ILLEGAL", 3))
	assert.Equal(t, []byte{0x2b, 0x03, 0x03, 0x03, 0x00}, EndText())
	assert.Equal(t, []byte{0x2b, 0x04, 0x03, 0x0b, 16, 0x00}, Beep(1024*time.Millisecond))
	cmd, payload, err := ParseClockCommand(set)
	require.NoError(t, err)
	assert.Equal(t, ClockSetNRun, cmd)
	assert.Len(t, payload, 7)
	_, _, err = ParseClockCommand([]byte{0x2b, 0x05, 0x03, 0x0a, 0x00})
	require.ErrorContains(t, err, "size 5 does not match its 5 bytes")
}

func TestClockAckRoundTrip(t *testing.T) {
	for _, a := range [][4]byte{{0x10, 0x0a, 0, 0}, {0x10, 0x88, 0, KeyOK}, {0x40, 0x0a, 0x81, 0xff}, {0xff, 0xff, 0xff, 0xff}} {
		ack := ClockAck{Ack: a}
		got, err := Parse(Message{ID: MsgBWTime, Payload: ack.AppendPayload(nil)})
		require.NoError(t, err)
		assert.Equal(t, &ack, got)
	}
}

func TestParseLog(t *testing.T) {
	l := ParseLog([]byte{EENop, EENop, EEPowerUp, 0x41, 0x30, 0x52, 0x07, 0x63, 0x05, 0x10, 0x12, 0x41, 0x50, EEStartTag, 0x41})
	require.Len(t, l.Errors, 4, "%v", l.Errors)
	assert.EqualError(t, l.Errors[0], "dgt: log byte 10: 0x12 starts no tag")
	assert.EqualError(t, l.Errors[1], "dgt: log byte 11: field tag 0x41 names field 80")
	assert.EqualError(t, l.Errors[2], "dgt: log byte 12: field tag 0x50 names field 123")
	assert.EqualError(t, l.Errors[3], "dgt: log byte 14: field tag 0x41 cut short")
	assert.Equal(t, []LogTag{
		{Kind: TagMarker, Offset: 2, Marker: EEPowerUp},
		{Kind: TagField, Offset: 3, Field: 48, Piece: WPawn},
		{Kind: TagField, Offset: 5, Field: 7, Piece: WRook, Quick: true},
		{Kind: TagTime, Offset: 7, Time: 3*time.Hour + 5*time.Minute + 10*time.Second},
		{Kind: TagMarker, Offset: 13, Marker: EEStartTag},
	}, l.Tags)
	assert.False(t, l.EOF)
	// Tags written by AppendLogTag read back.
	var b []byte
	want := []LogTag{{Kind: TagField, Field: 12, Piece: BQueen, Quick: true}, {Kind: TagTime, Left: true, Time: 9*time.Hour + 59*time.Minute + 59*time.Second}, {Kind: TagMarker, Marker: EEBeginPosRot}}
	for _, tag := range want {
		tag.Offset = len(b)
		b = AppendLogTag(b, tag)
	}
	got := ParseLog(append(b, EEEOF, 0x41))
	require.Empty(t, got.Errors)
	assert.True(t, got.EOF)
	want[1].Offset, want[2].Offset = 2, 5
	assert.Equal(t, want, got.Tags)
}

func TestPieces(t *testing.T) {
	for p := WPawn; p <= BQueen; p++ {
		rp, ok := p.Rules()
		require.True(t, ok)
		back, ok := PieceOf(rp)
		require.True(t, ok)
		assert.Equal(t, p, back)
	}
	_, ok := MagicDraw.Rules()
	assert.False(t, ok)
	_, ok = PieceOf(rules.Piece{Kind: 'T'})
	assert.False(t, ok)
	assert.Equal(t, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR", StartPosition.String())
}
