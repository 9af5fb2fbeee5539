package sensorboard

import (
	"fmt"
	"slices"

	"arbiter/board"
	"arbiter/rules"
)

// Hello is the board's handshake: who it is and what it can do. A board
// sends it at power-up and in answer to every [HelloReq].
type Hello struct {
	Major, Minor uint8
	// Boot is a random number drawn at power-up: a new value means the
	// board restarted, so its sequence numbers and clock began again.
	Boot      uint32
	Caps      board.Caps
	MaxHeight uint8  // highest stack the board counts exactly
	Heartbeat uint16 // heartbeat interval in ms
	// Width and Height give the grid; Cells the number of sensed cells.
	// A rectangular board has Cells = Width*Height and an empty Graph.
	Width, Height uint8
	Cells         uint16
	Zones         []board.ZoneInfo
	Buttons       []board.ButtonInfo
	ID            string // unique board identity, e.g. "TB-0042"
	Firmware      string
	// Graph names a cell graph ("kvaa13") whose cells the board senses in
	// the game's square order; empty for a rectangular board.
	Graph string
}

// Type implements [Message].
func (*Hello) Type() Type { return TypeHello }

// AppendPayload implements [Message].
func (h *Hello) AppendPayload(dst []byte) []byte {
	dst = append(dst, h.Major, h.Minor)
	dst = appendU32(dst, h.Boot)
	dst = appendU16(dst, uint16(h.Caps))
	dst = append(dst, h.MaxHeight)
	dst = appendU16(dst, h.Heartbeat)
	dst = append(dst, h.Width, h.Height)
	dst = appendU16(dst, h.Cells)
	dst = append(dst, byte(len(h.Zones)))
	for _, z := range h.Zones {
		dst = append(dst, byte(z.Kind), byte(z.Owner))
	}
	dst = append(dst, byte(len(h.Buttons)))
	for _, b := range h.Buttons {
		dst = append(dst, byte(b.Kind), byte(b.Side))
	}
	dst = appendStr(dst, h.ID)
	dst = appendStr(dst, h.Firmware)
	return appendStr(dst, h.Graph)
}

// UnmarshalPayload implements [Message].
func (h *Hello) UnmarshalPayload(p []byte) error {
	r := reader{msg: "HELLO", b: p}
	h.Major = r.u8("major")
	h.Minor = r.u8("minor")
	h.Boot = r.u32("boot")
	h.Caps = board.Caps(r.u16("caps"))
	h.MaxHeight = r.u8("max height")
	h.Heartbeat = r.u16("heartbeat")
	h.Width = r.u8("width")
	h.Height = r.u8("height")
	h.Cells = r.u16("cells")
	h.Zones = readZones(&r)
	h.Buttons = readButtons(&r)
	h.ID = r.str("id")
	h.Firmware = r.str("firmware")
	h.Graph = r.str("graph")
	if r.err != nil {
		return r.err
	}
	switch {
	case h.ID == "":
		return fmt.Errorf("HELLO payload: field id: empty board id")
	case h.Cells == 0:
		return fmt.Errorf("HELLO payload: field cells: board has no cells")
	case h.Graph == "" && int(h.Cells) != int(h.Width)*int(h.Height):
		return fmt.Errorf("HELLO payload: field cells: %d cells on a rectangular %dx%d board", h.Cells, h.Width, h.Height)
	}
	return nil
}

// readZones reads a HELLO's zone count and zones.
func readZones(r *reader) []board.ZoneInfo {
	var zones []board.ZoneInfo
	nz := int(r.u8("zone count"))
	for i := 0; i < nz && r.err == nil; i++ {
		r.i = i
		k := rules.ZoneKind(r.u8("zone # kind"))
		o := r.u8("zone # owner")
		if r.err == nil && (k < rules.Hand || k > rules.Captured) {
			r.fail("zone # kind", "unknown zone kind %d", k)
		}
		if r.err == nil && o > 1 {
			r.fail("zone # owner", "owner %d is not 0 or 1", o)
		}
		zones = append(zones, board.ZoneInfo{Kind: k, Owner: rules.Color(o)})
	}
	return zones
}

// readButtons reads a HELLO's button count and buttons.
func readButtons(r *reader) []board.ButtonInfo {
	var buttons []board.ButtonInfo
	nb := int(r.u8("button count"))
	for i := 0; i < nb && r.err == nil; i++ {
		r.i = i
		b := board.ButtonInfo{Kind: board.ButtonKind(r.u8("button # kind")), Side: board.Side(r.u8("button # side"))}
		if r.err == nil && slices.Contains(buttons, b) {
			// BUTTON frames name a kind and a side: two such buttons
			// could not be told apart (PROTOCOL 5.1).
			r.fail("button #", "a second %s button for side 0x%02x", b.Kind, uint8(b.Side))
		}
		buttons = append(buttons, b)
	}
	return buttons
}

// SquareMsg reports the new state of one square: its stack height and,
// on identity-sensing boards, its top piece. States are absolute, not
// deltas, so a lost SQUARE frame is healed by the next one for that square.
type SquareMsg struct {
	Square    uint16
	Height    uint8 // 0..127
	Saturated bool  // the true height is at least Height
	Top       board.Ident
}

// Type implements [Message].
func (*SquareMsg) Type() Type { return TypeSquare }

// AppendPayload implements [Message].
func (m *SquareMsg) AppendPayload(dst []byte) []byte {
	dst = appendU16(dst, m.Square)
	dst = append(dst, heightByte(m.Height, m.Saturated))
	return appendIdent(dst, m.Top)
}

// UnmarshalPayload implements [Message].
func (m *SquareMsg) UnmarshalPayload(p []byte) error {
	r := reader{msg: "SQUARE", b: p}
	m.Square = r.u16("square")
	m.Height, m.Saturated = splitHeight(r.u8("height"))
	m.Top = r.ident("top")
	return r.err
}

func heightByte(h uint8, saturated bool) byte {
	b := h & MaxHeight
	if saturated {
		b |= HeightSaturated
	}
	return b
}

func splitHeight(b byte) (uint8, bool) { return b & MaxHeight, b&HeightSaturated != 0 }

// ZoneMsg reports a change in an off-board zone (a tray).
type ZoneMsg struct {
	Zone      uint8
	Count     uint8 // pieces now in the zone, 0..127
	Saturated bool
	Action    board.ZoneAction
	Piece     board.Ident // the piece added or removed, when identified
}

// Type implements [Message].
func (*ZoneMsg) Type() Type { return TypeZone }

// AppendPayload implements [Message].
func (m *ZoneMsg) AppendPayload(dst []byte) []byte {
	dst = append(dst, m.Zone, heightByte(m.Count, m.Saturated), byte(m.Action))
	return appendIdent(dst, m.Piece)
}

// UnmarshalPayload implements [Message].
func (m *ZoneMsg) UnmarshalPayload(p []byte) error {
	r := reader{msg: "ZONE", b: p}
	m.Zone = r.u8("zone")
	m.Count, m.Saturated = splitHeight(r.u8("count"))
	m.Action = board.ZoneAction(r.u8("action"))
	if r.err == nil && m.Action > board.ZoneRemoved {
		r.fail("action", "unknown action %d", m.Action)
	}
	m.Piece = r.ident("piece")
	return r.err
}

// ButtonMsg reports a button press or release.
type ButtonMsg struct {
	Button  board.ButtonKind
	Side    board.Side
	Pressed bool // false: released
	// Count is the number of presses of this button since power-up,
	// modulo 256, this press included: a jump reveals lost presses.
	Count uint8
	Value uint8 // answer value for ButtonAnswer, else 0
}

// Type implements [Message].
func (*ButtonMsg) Type() Type { return TypeButton }

// AppendPayload implements [Message].
func (m *ButtonMsg) AppendPayload(dst []byte) []byte {
	var a byte
	if m.Pressed {
		a = 1
	}
	return append(dst, byte(m.Button), byte(m.Side), a, m.Count, m.Value)
}

// UnmarshalPayload implements [Message].
func (m *ButtonMsg) UnmarshalPayload(p []byte) error {
	r := reader{msg: "BUTTON", b: p}
	m.Button = board.ButtonKind(r.u8("button"))
	m.Side = board.Side(r.u8("side"))
	a := r.u8("action")
	m.Count = r.u8("count")
	m.Value = r.u8("value")
	if r.err == nil && a > 1 {
		r.fail("action", "unknown action %d", a)
	}
	m.Pressed = a == 1
	return r.err
}

// HeartbeatMsg is sent by the board when it has sent nothing else for its
// heartbeat interval, and tells the host what the board has received.
type HeartbeatMsg struct {
	HostSeen    bool   // the board has received a host frame since power-up
	LastHostSeq uint16 // sequence number of the last good host frame
	RxBad       uint16 // host frames rejected since power-up (wrapping)
	TxLost      uint16 // frames the board could not send (buffer full)
}

// Type implements [Message].
func (*HeartbeatMsg) Type() Type { return TypeHeartbeat }

// AppendPayload implements [Message].
func (m *HeartbeatMsg) AppendPayload(dst []byte) []byte {
	var f byte
	if m.HostSeen {
		f = 1
	}
	dst = append(dst, f)
	dst = appendU16(dst, m.LastHostSeq)
	dst = appendU16(dst, m.RxBad)
	return appendU16(dst, m.TxLost)
}

// UnmarshalPayload implements [Message].
func (m *HeartbeatMsg) UnmarshalPayload(p []byte) error {
	r := reader{msg: "HEARTBEAT", b: p}
	m.HostSeen = r.u8("flags")&1 != 0
	m.LastHostSeq = r.u16("last host seq")
	m.RxBad = r.u16("rx bad")
	m.TxLost = r.u16("tx lost")
	return r.err
}

// PongMsg answers a [PingMsg].
type PongMsg struct {
	Token    uint32
	HostTime uint32 // the Time field of the PING's header, echoed
}

// Type implements [Message].
func (*PongMsg) Type() Type { return TypePong }

// AppendPayload implements [Message].
func (m *PongMsg) AppendPayload(dst []byte) []byte {
	return appendU32(appendU32(dst, m.Token), m.HostTime)
}

// UnmarshalPayload implements [Message].
func (m *PongMsg) UnmarshalPayload(p []byte) error {
	r := reader{msg: "PONG", b: p}
	m.Token = r.u32("token")
	m.HostTime = r.u32("host time")
	return r.err
}

// NakReason says why a board rejected a host frame.
type NakReason uint8

// NAK reasons.
const (
	NakUnknownType NakReason = 1
	NakBadPayload  NakReason = 2
	NakUnsupported NakReason = 3
	NakBusy        NakReason = 4
)

// NakMsg reports a well-formed host frame that the board could not obey.
// Frames with a bad CRC are not answered (their fields cannot be trusted);
// they are counted in [HeartbeatMsg.RxBad].
type NakMsg struct {
	HostSeq  uint16
	HostType Type
	Reason   NakReason
}

// Type implements [Message].
func (*NakMsg) Type() Type { return TypeNak }

// Error says which host frame the board refused and why: a NAK is
// delivered as the error of a board.EventNak.
func (m *NakMsg) Error() string {
	return fmt.Sprintf("board refused host frame #%d (%s): reason %d", m.HostSeq, m.HostType, m.Reason)
}

// AppendPayload implements [Message].
func (m *NakMsg) AppendPayload(dst []byte) []byte {
	dst = appendU16(dst, m.HostSeq)
	return append(dst, byte(m.HostType), byte(m.Reason))
}

// UnmarshalPayload implements [Message].
func (m *NakMsg) UnmarshalPayload(p []byte) error {
	r := reader{msg: "NAK", b: p}
	m.HostSeq = r.u16("host seq")
	m.HostType = Type(r.u8("host type"))
	m.Reason = NakReason(r.u8("reason"))
	return r.err
}

// MaxDumpSquares is the most squares one DUMP_SQUARES frame carries.
const MaxDumpSquares = 250

// DumpSquaresMsg carries the state of consecutive squares, part of a dump.
type DumpSquaresMsg struct {
	Token   uint16 // the DUMP_REQ's token
	First   uint16 // square of Squares[0]
	Squares []board.SquareState
}

// Type implements [Message].
func (*DumpSquaresMsg) Type() Type { return TypeDumpSquares }

// AppendPayload implements [Message].
func (m *DumpSquaresMsg) AppendPayload(dst []byte) []byte {
	dst = appendU16(dst, m.Token)
	dst = appendU16(dst, m.First)
	dst = append(dst, byte(len(m.Squares)))
	for _, s := range m.Squares {
		dst = append(dst, heightByte(s.Height, s.Saturated))
		dst = appendIdent(dst, s.Top)
	}
	return dst
}

// UnmarshalPayload implements [Message].
func (m *DumpSquaresMsg) UnmarshalPayload(p []byte) error {
	r := reader{msg: "DUMP_SQUARES", b: p}
	m.Token = r.u16("token")
	m.First = r.u16("first")
	n := int(r.u8("count"))
	m.Squares = m.Squares[:0]
	for i := 0; i < n && r.err == nil; i++ {
		r.i = i
		var s board.SquareState
		s.Height, s.Saturated = splitHeight(r.u8("square # height"))
		s.Top = r.ident("square # top")
		m.Squares = append(m.Squares, s)
	}
	return r.err
}

// MaxDumpPieces is the most pieces one DUMP_ZONE frame lists.
const MaxDumpPieces = 127

// DumpZoneMsg carries the contents of one zone, part of a dump.
type DumpZoneMsg struct {
	Token     uint16
	Zone      uint8
	Count     uint8
	Saturated bool
	// Pieces lists the identified pieces; empty when the board only counts.
	Pieces []rules.Piece
}

// Type implements [Message].
func (*DumpZoneMsg) Type() Type { return TypeDumpZone }

// AppendPayload implements [Message].
func (m *DumpZoneMsg) AppendPayload(dst []byte) []byte {
	dst = appendU16(dst, m.Token)
	dst = append(dst, m.Zone, heightByte(m.Count, m.Saturated), byte(len(m.Pieces)))
	for _, p := range m.Pieces {
		dst = appendIdent(dst, board.Ident{Known: true, Piece: p})
	}
	return dst
}

// UnmarshalPayload implements [Message].
func (m *DumpZoneMsg) UnmarshalPayload(p []byte) error {
	r := reader{msg: "DUMP_ZONE", b: p}
	m.Token = r.u16("token")
	m.Zone = r.u8("zone")
	m.Count, m.Saturated = splitHeight(r.u8("count"))
	n := int(r.u8("pieces"))
	m.Pieces = m.Pieces[:0]
	for i := 0; i < n && r.err == nil; i++ {
		r.i = i
		id := r.ident("piece #")
		if r.err == nil && !id.Known {
			r.fail("piece #", "listed piece is not identified")
		}
		m.Pieces = append(m.Pieces, id.Piece)
	}
	return r.err
}

// DumpEndMsg closes a dump. The dump is complete when the host has the
// DUMP_SQUARES frames for all Squares and the DUMP_ZONE frames for all
// Zones, with no sequence gap since the first of them.
type DumpEndMsg struct {
	Token   uint16
	Squares uint16
	Zones   uint8
	Buttons []board.ButtonState
}

// Type implements [Message].
func (*DumpEndMsg) Type() Type { return TypeDumpEnd }

// AppendPayload implements [Message].
func (m *DumpEndMsg) AppendPayload(dst []byte) []byte {
	dst = appendU16(dst, m.Token)
	dst = appendU16(dst, m.Squares)
	dst = append(dst, m.Zones, byte(len(m.Buttons)))
	for _, b := range m.Buttons {
		var p byte
		if b.Pressed {
			p = 1
		}
		dst = append(dst, byte(b.Button), byte(b.Side), b.Count, p)
	}
	return dst
}

// UnmarshalPayload implements [Message].
func (m *DumpEndMsg) UnmarshalPayload(p []byte) error {
	r := reader{msg: "DUMP_END", b: p}
	m.Token = r.u16("token")
	m.Squares = r.u16("squares")
	m.Zones = r.u8("zones")
	n := int(r.u8("buttons"))
	m.Buttons = m.Buttons[:0]
	for i := 0; i < n && r.err == nil; i++ {
		r.i = i
		var b board.ButtonState
		b.Button = board.ButtonKind(r.u8("button # kind"))
		b.Side = board.Side(r.u8("button # side"))
		b.Count = r.u8("button # count")
		b.Pressed = r.u8("button # state")&1 != 0
		m.Buttons = append(m.Buttons, b)
	}
	return r.err
}
