package dgt

import (
	"bytes"
	"errors"
	"testing"
	"time"
)

// seedStreams are wire examples for the decoders' seed corpora.
func seedStreams() [][]byte {
	set, _ := SetNRun(5*time.Minute, 5*time.Minute, RunLeft)
	return [][]byte{
		msg(MsgFieldUpdate, 12, byte(WQueen)),
		msg(MsgBoardDump, (&BoardDump{Position: StartPosition}).AppendPayload(nil)...),
		msg(MsgBWTime, 0x00, 0x05, 0x09, 0x01, 0x30, 0x00, 0x13),
		msg(MsgBWTime, (&ClockAck{Ack: [4]byte{0x10, 0x88, 0, KeyOK}}).AppendPayload(nil)...),
		msg(MsgSerialNr, []byte("01025")...),
		msg(MsgVersion, 1, 2),
		msg(MsgLog, 0x7f, 0x7f, 0x7f, 0x6a, 0x41, 0x30, 0x63, 0x05, 0x10, 0x6b),
		append(msg(MsgBoardDump, make([]byte, 64)...)[:30], msg(MsgFieldUpdate, 1, 2)...),
		{0x01, 0x02, 0x8e, 0x00},
		AppendBusMessage(nil, MsgBusUpdate, 1025, []byte{0x41, 0x34, 0x7b}),
		AppendBusMessage(nil, MsgBusPing, 3, nil),
		set,
	}
}

func FuzzDecode(f *testing.F) {
	for _, s := range seedStreams() {
		f.Add(s, false)
		f.Add(s, true)
	}
	f.Fuzz(func(t *testing.T, in []byte, bus bool) {
		d := Decoder{Bus: bus}
		p := in
		for len(p) > 0 {
			before := d.Offset()
			n, m, err := d.Decode(p)
			if errors.Is(err, ErrIncomplete) {
				if n != 0 {
					t.Fatalf("incomplete after consuming %d bytes", n)
				}
				return
			}
			if n <= 0 || n > len(p) {
				t.Fatalf("Decode consumed %d of %d bytes", n, len(p))
			}
			if d.Offset() != before+int64(n) {
				t.Fatalf("offset %d after %d+%d", d.Offset(), before, n)
			}
			if err != nil {
				var de *DecodeError
				if !errors.As(err, &de) || de.Offset != before {
					t.Fatalf("error %v does not say where (%d)", err, before)
				}
			} else {
				// A message re-encodes to the bytes it came from.
				var re []byte
				if bus {
					re = AppendBusMessage(nil, m.ID, m.Addr, m.Payload)
				} else {
					re = AppendMessage(nil, m.ID, m.Payload)
				}
				if !bytes.Equal(re, p[:n]) {
					t.Fatalf("message % x re-encodes as % x", p[:n], re)
				}
				if !bus {
					_, _ = Parse(m)
				}
			}
			p = p[n:]
		}
	})
}

func FuzzParse(f *testing.F) {
	for _, s := range seedStreams() {
		if len(s) >= 3 && s[0]&0x80 != 0 {
			f.Add(s[0], s[3:])
		}
	}
	f.Fuzz(func(t *testing.T, id byte, payload []byte) {
		v, err := Parse(Message{ID: id, Payload: payload})
		if err != nil {
			var pe *ParseError
			if !errors.As(err, &pe) {
				t.Fatalf("error %v is not a ParseError", err)
			}
			return
		}
		switch v := v.(type) {
		case *BoardDump:
			if !bytes.Equal(v.AppendPayload(nil), payload) {
				t.Fatal("board dump does not re-encode")
			}
		case *ClockAck:
			again, err := Parse(Message{ID: MsgBWTime, Payload: v.AppendPayload(nil)})
			if err != nil || *again.(*ClockAck) != *v {
				t.Fatalf("ack %v does not round-trip: %v", v, err)
			}
		case *ClockTimes:
			again, err := Parse(Message{ID: MsgBWTime, Payload: v.AppendPayload(nil)})
			if err != nil {
				t.Fatalf("clock %+v does not re-encode: %v", v, err)
			}
			a := again.(*ClockTimes)
			if a.Left != v.Left || a.Right != v.Right || a.Lever != v.Lever || a.Running != v.Running {
				t.Fatalf("clock %+v reads back as %+v", v, a)
			}
		}
	})
}

func FuzzParseLog(f *testing.F) {
	f.Add([]byte{0x7f, 0x7f, 0x7f, 0x6a, 0x41, 0x30, 0x63, 0x05, 0x10, 0x6f, 0x7b, 0x6b})
	f.Add([]byte{0x41, 0x50, 0x44, 0x12, 0x63})
	f.Add([]byte{})
	f.Fuzz(func(t *testing.T, in []byte) {
		l := ParseLog(in)
		last := -1
		for _, tag := range l.Tags {
			if tag.Offset <= last {
				t.Fatalf("tag at %d after %d", tag.Offset, last)
			}
			last = tag.Offset
			enc := AppendLogTag(nil, tag)
			if !bytes.HasPrefix(in[tag.Offset:], enc) {
				t.Fatalf("tag %v at %d re-encodes as % x, log has % x", tag, tag.Offset, enc, in[tag.Offset:])
			}
		}
	})
}

func FuzzHostCommands(f *testing.F) {
	for _, s := range seedStreams() {
		f.Add(s)
	}
	f.Add(BusCommand(BusSendChanges, 1025))
	f.Fuzz(func(t *testing.T, in []byte) {
		if cmd, payload, err := ParseClockCommand(in); err == nil {
			if re := ClockCommand(cmd, payload...); !bytes.Equal(re, in) {
				t.Fatalf("clock command % x re-encodes as % x", in, re)
			}
		}
		if cmd, addr, err := ParseBusCommand(in); err == nil {
			if re := BusCommand(cmd, addr); !bytes.Equal(re, in) {
				t.Fatalf("bus command % x re-encodes as % x", in, re)
			}
		}
	})
}
