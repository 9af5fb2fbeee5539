package sensorboard

import (
	"unicode/utf8"

	"arbiter/rules"

	"arbiter/board"
)

// HelloReqMsg asks the board for its [Hello]. The host sends it after
// every open of the port, and names its own protocol version.
type HelloReqMsg struct {
	Major, Minor uint8
}

// Type implements [Message].
func (*HelloReqMsg) Type() Type { return TypeHelloReq }

// AppendPayload implements [Message].
func (m *HelloReqMsg) AppendPayload(dst []byte) []byte { return append(dst, m.Major, m.Minor) }

// UnmarshalPayload implements [Message].
func (m *HelloReqMsg) UnmarshalPayload(p []byte) error {
	r := reader{msg: "HELLO_REQ", b: p}
	m.Major = r.u8("major")
	m.Minor = r.u8("minor")
	return r.err
}

// DumpReqMsg asks for a full-state dump, answered by DUMP_SQUARES and
// DUMP_ZONE frames and a DUMP_END, all carrying Token.
type DumpReqMsg struct {
	Token uint16
}

// Type implements [Message].
func (*DumpReqMsg) Type() Type { return TypeDumpReq }

// AppendPayload implements [Message].
func (m *DumpReqMsg) AppendPayload(dst []byte) []byte { return appendU16(dst, m.Token) }

// UnmarshalPayload implements [Message].
func (m *DumpReqMsg) UnmarshalPayload(p []byte) error {
	r := reader{msg: "DUMP_REQ", b: p}
	m.Token = r.u16("token")
	return r.err
}

// PingMsg asks for a [PongMsg], to measure the round trip.
type PingMsg struct {
	Token uint32
}

// Type implements [Message].
func (*PingMsg) Type() Type { return TypePing }

// AppendPayload implements [Message].
func (m *PingMsg) AppendPayload(dst []byte) []byte { return appendU32(dst, m.Token) }

// UnmarshalPayload implements [Message].
func (m *PingMsg) UnmarshalPayload(p []byte) error {
	r := reader{msg: "PING", b: p}
	m.Token = r.u32("token")
	return r.err
}

// ClockMsg sets the clock display. Times are what remains, in ms; the
// board counts the running side down by itself until the next CLOCK.
type ClockMsg board.Clock

// Type implements [Message].
func (*ClockMsg) Type() Type { return TypeClock }

// AppendPayload implements [Message].
func (m *ClockMsg) AppendPayload(dst []byte) []byte {
	dst = appendU32(dst, m.First)
	dst = appendU32(dst, m.Second)
	return append(dst, byte(m.Running), m.Flags)
}

// UnmarshalPayload implements [Message].
func (m *ClockMsg) UnmarshalPayload(p []byte) error {
	r := reader{msg: "CLOCK", b: p}
	m.First = r.u32("first")
	m.Second = r.u32("second")
	m.Running = board.Side(r.u8("running"))
	m.Flags = r.u8("flags")
	if r.err == nil && m.Running != board.SideFirst && m.Running != board.SideSecond && m.Running != board.SideNone {
		r.fail("running", "side 0x%02x", uint8(m.Running))
	}
	return r.err
}

// MaxLights is the most squares one LIGHT frame lights.
const MaxLights = 255

// LightMsg replaces the whole set of lit squares: the listed squares light
// in the given mode and colour, every other square goes dark. A LIGHT with
// no squares turns all lights off.
type LightMsg board.Lights

// Type implements [Message].
func (*LightMsg) Type() Type { return TypeLight }

// AppendPayload implements [Message].
func (m *LightMsg) AppendPayload(dst []byte) []byte {
	sq := m.Squares
	if len(sq) > MaxLights {
		sq = sq[:MaxLights]
	}
	dst = append(dst, byte(m.Mode), m.Color, byte(len(sq)))
	for _, s := range sq {
		dst = appendU16(dst, s)
	}
	return dst
}

// UnmarshalPayload implements [Message].
func (m *LightMsg) UnmarshalPayload(p []byte) error {
	r := reader{msg: "LIGHT", b: p}
	m.Mode = board.LightMode(r.u8("mode"))
	m.Color = r.u8("color")
	n := int(r.u8("count"))
	if r.err == nil && m.Mode > board.LightBlink {
		r.fail("mode", "unknown mode %d", m.Mode)
	}
	m.Squares = m.Squares[:0]
	for i := 0; i < n && r.err == nil; i++ {
		r.i = i
		m.Squares = append(m.Squares, r.u16("square #"))
	}
	return r.err
}

// MaxText is the longest text, in bytes, that ALERT and ACK_MOVE carry.
const MaxText = board.MaxText

// AlertMsg shows a message to the players (or clears it, level 0).
type AlertMsg board.Alert

// Type implements [Message].
func (*AlertMsg) Type() Type { return TypeAlert }

// AppendPayload implements [Message].
func (m *AlertMsg) AppendPayload(dst []byte) []byte {
	var b byte
	if m.Beep {
		b = 1
	}
	dst = append(dst, m.Level, b)
	return appendStr(dst, cutText(m.Text))
}

// UnmarshalPayload implements [Message].
func (m *AlertMsg) UnmarshalPayload(p []byte) error {
	r := reader{msg: "ALERT", b: p}
	m.Level = r.u8("level")
	m.Beep = r.u8("beep")&1 != 0
	m.Text = r.str("text")
	if r.err == nil && m.Level > board.AlertError {
		r.fail("level", "unknown level %d", m.Level)
	}
	return r.err
}

// AckMoveMsg tells the board that a move was recorded: the board may light
// its squares briefly and show its text.
type AckMoveMsg board.AckMove

// Type implements [Message].
func (*AckMoveMsg) Type() Type { return TypeAckMove }

// AppendPayload implements [Message].
func (m *AckMoveMsg) AppendPayload(dst []byte) []byte {
	dst = appendU16(dst, m.Ply)
	dst = appendU16(dst, uint16(m.From))
	dst = appendU16(dst, uint16(m.To))
	return appendStr(dst, cutText(m.Text))
}

// UnmarshalPayload implements [Message].
func (m *AckMoveMsg) UnmarshalPayload(p []byte) error {
	r := reader{msg: "ACK_MOVE", b: p}
	m.Ply = r.u16("ply")
	m.From = rules.Square(int16(r.u16("from")))
	m.To = rules.Square(int16(r.u16("to")))
	m.Text = r.str("text")
	return r.err
}

func cutText(s string) string { return cutTo(s, MaxText) }

// cutTo cuts s to at most n bytes at a rune boundary.
func cutTo(s string, n int) string {
	if len(s) <= n {
		return s
	}
	s = s[:n]
	for !utf8.ValidString(s) {
		s = s[:len(s)-1]
	}
	return s
}

// WireMessage returns the wire message that carries a display message,
// sharing its fields, or nil for a message this protocol does not know.
func WireMessage(m board.Message) Message {
	switch m := m.(type) {
	case *board.Clock:
		return (*ClockMsg)(m)
	case *board.Lights:
		return (*LightMsg)(m)
	case *board.Alert:
		return (*AlertMsg)(m)
	case *board.AckMove:
		return (*AckMoveMsg)(m)
	case *board.Question:
		return (*QuestionMsg)(m)
	}
	return nil
}

// NewMessage returns an empty message of type t, or nil for a type this
// version does not know.
func NewMessage(t Type) Message {
	if newMessage, ok := messageTypes[t]; ok {
		return newMessage()
	}
	return nil
}

// messageTypes make an empty message of each type this version knows.
var messageTypes = map[Type]func() Message{
	TypeHello:       func() Message { return new(Hello) },
	TypeSquare:      func() Message { return new(SquareMsg) },
	TypeZone:        func() Message { return new(ZoneMsg) },
	TypeButton:      func() Message { return new(ButtonMsg) },
	TypeHeartbeat:   func() Message { return new(HeartbeatMsg) },
	TypePong:        func() Message { return new(PongMsg) },
	TypeNak:         func() Message { return new(NakMsg) },
	TypeDumpSquares: func() Message { return new(DumpSquaresMsg) },
	TypeDumpZone:    func() Message { return new(DumpZoneMsg) },
	TypeDumpEnd:     func() Message { return new(DumpEndMsg) },
	TypeHelloReq:    func() Message { return new(HelloReqMsg) },
	TypeDumpReq:     func() Message { return new(DumpReqMsg) },
	TypePing:        func() Message { return new(PingMsg) },
	TypeClock:       func() Message { return new(ClockMsg) },
	TypeLight:       func() Message { return new(LightMsg) },
	TypeAlert:       func() Message { return new(AlertMsg) },
	TypeAckMove:     func() Message { return new(AckMoveMsg) },
	TypeQuestion:    func() Message { return new(QuestionMsg) },
}

// Encoder numbers and frames the messages of one sender.
type Encoder struct {
	seq uint16
	buf []byte
}

// Seq returns the sequence number the next frame will carry.
func (e *Encoder) Seq() uint16 { return e.seq }

// Reset starts numbering from 0 again, as after a power-up.
func (e *Encoder) Reset() { e.seq = 0 }

// Append frames m with the next sequence number and the sender's time in
// ms, appends the wire bytes to dst and returns them.
func (e *Encoder) Append(dst []byte, m Message, timeMs uint32) []byte {
	e.buf = m.AppendPayload(e.buf[:0])
	dst = AppendFrame(dst, Header{Type: m.Type(), Seq: e.seq, Time: timeMs}, e.buf)
	e.seq++
	return dst
}
