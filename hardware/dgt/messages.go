package dgt

import (
	"fmt"
	"strings"
)

// BoardDump is DGT_MSG_BOARD_DUMP: every field's piece.
type BoardDump struct{ Position Position }

// FieldUpdate is DGT_MSG_FIELD_UPDATE: field now holds piece (Empty: a
// non-empty field became empty). It carries no time and no sequence.
type FieldUpdate struct {
	Field byte
	Piece Piece
}

// SerialNr is DGT_MSG_SERIALNR (5 digits) or DGT_MSG_LONG_SERIALNR (10
// digits): the board's identity.
type SerialNr struct {
	Serial string
	Long   bool
}

// Version is DGT_MSG_VERSION, or the bus version reply.
type Version struct{ Major, Minor byte }

// String writes the version as "1.02".
func (v Version) String() string { return fmt.Sprintf("%d.%02d", v.Major, v.Minor) }

// BusAddress is DGT_MSG_BUSADRES: the 14-bit address the board answers to
// in bus mode.
type BusAddress struct{ Addr uint16 }

// Trademark is DGT_MSG_TRADEMARK: the board's identification text.
type Trademark struct{ Text string }

// Battery is DGT_MSG_BATTERY_STATUS of a Bluetooth board.
type Battery struct {
	Percent  byte
	Charging bool
	// Raw holds the remaining bytes (times left, on and stand-by times).
	Raw []byte
}

// ParseError says which message failed to parse and why.
type ParseError struct {
	ID     byte
	Offset int64
	Reason string
}

// Error names the message, where it began and what is wrong with it.
func (e *ParseError) Error() string {
	return fmt.Sprintf("dgt: message 0x%02x at byte %d: %s", e.ID, e.Offset, e.Reason)
}

func parseErr(m Message, format string, args ...any) error {
	return &ParseError{ID: m.ID, Offset: m.Offset, Reason: fmt.Sprintf(format, args...)}
}

// Parse interprets a single-board message. It returns one of
// *[BoardDump], *[FieldUpdate], *[SerialNr], *[Version], *[BusAddress],
// *[Trademark], *[Battery], *[ClockTimes], *[ClockAck] or *[Log], or a
// *[ParseError] naming the message and what is wrong with it. Messages of
// other ids (the draughts dumps) return nil and no error.
func Parse(m Message) (any, error) {
	switch m.ID {
	case MsgBoardDump:
		d := new(BoardDump)
		if err := parsePosition(m, m.Payload, &d.Position); err != nil {
			return nil, err
		}
		return d, nil
	case MsgFieldUpdate:
		return parseFieldUpdate(m)
	case MsgSerialNr, MsgLongSerialNr:
		return parseSerialNr(m)
	case MsgVersion:
		if len(m.Payload) != 2 {
			return nil, parseErr(m, "version of %d bytes, want 2", len(m.Payload))
		}
		return &Version{Major: m.Payload[0], Minor: m.Payload[1]}, nil
	case MsgBusAddress:
		if len(m.Payload) != 2 {
			return nil, parseErr(m, "bus address of %d bytes, want 2", len(m.Payload))
		}
		return &BusAddress{Addr: uint16(m.Payload[0])<<7 | uint16(m.Payload[1])}, nil
	case MsgTrademark:
		return &Trademark{Text: strings.TrimRight(string(m.Payload), "\x00")}, nil
	case MsgBattery:
		return parseBattery(m)
	case MsgBWTime:
		return parseBWTime(m)
	case MsgLog:
		return parseLogMessage(m)
	}
	return nil, nil
}

func parseFieldUpdate(m Message) (any, error) {
	p := m.Payload
	if len(p) != 2 {
		return nil, parseErr(m, "field update of %d bytes, want 2", len(p))
	}
	if p[0] > 63 {
		return nil, parseErr(m, "field %d beyond 63", p[0])
	}
	if !Piece(p[1]).Valid() {
		return nil, parseErr(m, "field %d: piece code 0x%02x unknown", p[0], p[1])
	}
	return &FieldUpdate{Field: p[0], Piece: Piece(p[1])}, nil
}

// parseSerialNr parses a serial number, short or long: digits only.
func parseSerialNr(m Message) (any, error) {
	p := m.Payload
	want := 5
	if m.ID == MsgLongSerialNr {
		want = 10
	}
	if len(p) != want {
		return nil, parseErr(m, "serial number of %d bytes, want %d", len(p), want)
	}
	for i, c := range p {
		if c < '0' || c > '9' {
			return nil, parseErr(m, "serial number byte %d is 0x%02x, not a digit", i, c)
		}
	}
	return &SerialNr{Serial: string(p), Long: m.ID == MsgLongSerialNr}, nil
}

func parseBattery(m Message) (any, error) {
	p := m.Payload
	if len(p) < 1 {
		return nil, parseErr(m, "battery status without its percentage")
	}
	if p[0] > 100 {
		return nil, parseErr(m, "battery at %d%%", p[0])
	}
	b := &Battery{Percent: p[0], Raw: append([]byte(nil), p[1:]...)}
	if len(p) >= 9 {
		b.Charging = p[8]&0x01 != 0
	}
	return b, nil
}

func parsePosition(m Message, p []byte, pos *Position) error {
	if len(p) != 64 {
		return parseErr(m, "board of %d fields, want 64", len(p))
	}
	for i, c := range p {
		if !Piece(c).Valid() {
			return parseErr(m, "field %d: piece code 0x%02x unknown", i, c)
		}
		pos[i] = Piece(c)
	}
	return nil
}

// AppendPayload appends the message's payload as a board sends it.
func (d *BoardDump) AppendPayload(dst []byte) []byte {
	for _, p := range d.Position {
		dst = append(dst, byte(p))
	}
	return dst
}
