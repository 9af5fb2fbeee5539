package dgt

import (
	"errors"
	"fmt"
)

// Commands from the host to a board in single-board mode (one byte each;
// DGT_CLOCK_MESSAGE and DGT_SET_LEDS carry a payload).
const (
	CmdReset          byte = 0x40 // DGT_SEND_RESET: idle mode, no reply
	CmdSendClock      byte = 0x41 // DGT_SEND_CLK: one BWTIME
	CmdSendBoard      byte = 0x42 // DGT_SEND_BRD: one BOARD_DUMP
	CmdUpdate         byte = 0x43 // DGT_SEND_UPDATE: field updates and BWTIME every second
	CmdUpdateBoard    byte = 0x44 // DGT_SEND_UPDATE_BRD: field updates only
	CmdSerialNr       byte = 0x45 // DGT_RETURN_SERIALNR
	CmdBusAddress     byte = 0x46 // DGT_RETURN_BUSADRES
	CmdTrademark      byte = 0x47 // DGT_SEND_TRADEMARK
	CmdSendLog        byte = 0x49 // DGT_SEND_EE_MOVES: the EEPROM log
	CmdToBusMode      byte = 0x4a // DGT_TO_BUSMODE
	CmdUpdateNice     byte = 0x4b // DGT_SEND_UPDATE_NICE: field updates, BWTIME on change
	CmdBattery        byte = 0x4c // DGT_SEND_BATTERY_STATUS (Bluetooth boards)
	CmdVersion        byte = 0x4d // DGT_SEND_VERSION
	CmdLongSerialNr   byte = 0x55 // DGT_RETURN_LONG_SERIALNR
	CmdSetLeds        byte = 0x60 // DGT_SET_LEDS (Revelation II)
	CmdClockMessage   byte = 0x2b // DGT_CLOCK_MESSAGE wrapper
	clockStartMessage byte = 0x03
	clockEndMessage   byte = 0x00
)

// Message ids from a board to the host in single-board mode.
const (
	MsgBoardDump    byte = 0x86
	MsgBWTime       byte = 0x8d
	MsgFieldUpdate  byte = 0x8e
	MsgLog          byte = 0x8f // DGT_MSG_EE_MOVES
	MsgBusAddress   byte = 0x90
	MsgSerialNr     byte = 0x91
	MsgTrademark    byte = 0x92
	MsgVersion      byte = 0x93
	MsgBoardDump50B byte = 0x94
	MsgBoardDump50W byte = 0x95
	MsgBattery      byte = 0xa0
	MsgLongSerialNr byte = 0xa2
)

// Sizes of the fixed-size messages, header included.
const (
	SizeBoardDump    = 67
	SizeBWTime       = 10
	SizeFieldUpdate  = 5
	SizeBusAddress   = 5
	SizeSerialNr     = 8
	SizeVersion      = 5
	SizeLongSerialNr = 13
	SizeDump50       = 53
	// MaxLog is the longest EEPROM log message: the 0x1f00-byte buffer,
	// its EE_EOF and the header, with room to spare.
	MaxLog = 0x2000 + 3
	// maxOther bounds messages of ids this package does not know, and the
	// trade mark text (the header allows up to 256 bytes of text).
	maxOther = 259
)

// Message is one message as it came off the wire: its id and the bytes
// after the length (and, in bus mode, after the address and without the
// checksum). Payload aliases the decoder's input.
type Message struct {
	ID byte
	// Addr is the sending board's bus address (bus mode only).
	Addr    uint16
	Payload []byte
	// Offset is the stream offset of the message's first byte.
	Offset int64
}

// ErrIncomplete is returned by [Decoder.Decode] when the input ends inside
// a message: call again with more bytes.
var ErrIncomplete = errors.New("dgt: incomplete message")

// DecodeError says what is wrong with the bytes at Offset of the stream.
// The decoder has skipped them and resynchronised.
type DecodeError struct {
	Offset int64 // stream offset of the first rejected byte
	ID     byte  // message id, 0 for stray bytes
	Addr   uint16
	Reason string
	// Checksum is set when a complete bus message failed its checksum:
	// the command should be repeated (DGT_BUS_REPEAT_CHANGES for changes).
	Checksum bool
}

// Error says what is wrong and at which byte of the stream.
func (e *DecodeError) Error() string {
	if e.ID == 0 {
		return fmt.Sprintf("dgt: byte %d: %s", e.Offset, e.Reason)
	}
	return fmt.Sprintf("dgt: message 0x%02x at byte %d: %s", e.ID, e.Offset, e.Reason)
}

// Decoder splits a byte stream from a board (or a bus of boards) into
// messages. Its zero value decodes single-board mode; set Bus for bus
// mode, whose replies carry an address and a checksum.
type Decoder struct {
	Bus    bool
	offset int64
}

// Offset returns the stream offset of the next byte to decode.
func (d *Decoder) Offset() int64 { return d.offset }

// fixedSize returns the size a message id must have (0: variable) and the
// largest size accepted.
func fixedSize(id byte, bus bool) (fixed, max int) {
	if bus {
		return busSize(id)
	}
	return boardSize(id)
}

// busSize is fixedSize in bus mode.
func busSize(id byte) (fixed, max int) {
	switch id {
	case MsgBusBoardDump:
		return 6 + 64, 0
	case MsgBusBWTime:
		return 6 + 7, 0
	case MsgBusPing, MsgBusStartWritten:
		return 6, 0
	case MsgBusVersion:
		return 0, 8 // 6 up to version 1.2, 8 since
	case MsgBusUpdate, MsgBusFromStart:
		return 0, MaxLog + 3
	}
	return 0, maxOther
}

// boardSize is fixedSize in single-board mode.
func boardSize(id byte) (fixed, max int) {
	switch id {
	case MsgBoardDump:
		return SizeBoardDump, 0
	case MsgBWTime:
		return SizeBWTime, 0
	case MsgFieldUpdate:
		return SizeFieldUpdate, 0
	case MsgBusAddress:
		return SizeBusAddress, 0
	case MsgSerialNr:
		return SizeSerialNr, 0
	case MsgVersion:
		return SizeVersion, 0
	case MsgLongSerialNr:
		return SizeLongSerialNr, 0
	case MsgBoardDump50B, MsgBoardDump50W:
		return SizeDump50, 0
	case MsgLog:
		return 0, MaxLog
	}
	return 0, maxOther
}

// Decode reads one message from the front of p. It returns how many bytes
// it consumed and the message, or an error:
//
//   - [ErrIncomplete] with n == 0: p ends inside a message; call again with
//     more bytes appended.
//   - a *[DecodeError] with n > 0: the first n bytes were stray bytes, a
//     message cut short by the next byte with bit 7 set (the only bytes a
//     message may start with), an impossible length, or a bus message with
//     a bad checksum. Decoding resumes at p[n].
//
// A message's Payload aliases p.
func (d *Decoder) Decode(p []byte) (n int, m Message, err error) {
	if len(p) == 0 {
		return 0, Message{}, ErrIncomplete
	}
	if p[0]&0x80 == 0 {
		return d.stray(p)
	}
	id := p[0]
	// Header: a byte with bit 7 set inside it means this one was cut.
	for i := 1; i < 3 && i < len(p); i++ {
		if p[i]&0x80 != 0 {
			return d.fail(i, id, "truncated at byte %d of its header: 0x%02x starts a new message", i, p[i])
		}
	}
	if len(p) < 3 {
		return 0, Message{}, ErrIncomplete
	}
	size := int(p[1])<<7 | int(p[2])
	fixed, max := fixedSize(id, d.Bus)
	if badSize(size, fixed, max, d.Bus) {
		return d.failSize(id, size, fixed, max)
	}
	for i := 3; i < size && i < len(p); i++ {
		if p[i]&0x80 != 0 {
			return d.fail(i, id, "truncated at byte %d of %d: 0x%02x starts a new message", i, size, p[i])
		}
	}
	if len(p) < size {
		return 0, Message{}, ErrIncomplete
	}
	if d.Bus {
		return d.busMessage(p[:size])
	}
	m = Message{ID: id, Offset: d.offset, Payload: p[3:size]}
	d.offset += int64(size)
	return size, m, nil
}

// stray skips the bytes at the front of p that are outside a message:
// those up to the next byte with bit 7 set.
func (d *Decoder) stray(p []byte) (int, Message, error) {
	start := d.offset
	k := 1
	for k < len(p) && p[k]&0x80 == 0 {
		k++
	}
	d.offset += int64(k)
	return k, Message{}, &DecodeError{Offset: start, Reason: fmt.Sprintf("%d stray byte(s) outside a message, first 0x%02x", k, p[0])}
}

// fail skips k bytes of a message with id, which is broken as reason
// says.
func (d *Decoder) fail(k int, id byte, reason string, args ...any) (int, Message, error) {
	start := d.offset
	d.offset += int64(k)
	return k, Message{}, &DecodeError{Offset: start, ID: id, Reason: fmt.Sprintf(reason, args...)}
}

// badSize reports whether size, the length in the header of a message
// whose kind has the sizes fixed and max (see fixedSize), is impossible.
func badSize(size, fixed, max int, bus bool) bool {
	if fixed != 0 {
		return size != fixed
	}
	return size < minSize(bus) || size > max
}

// minSize is the least length of a message of variable size: its header
// and, on a bus, its checksum.
func minSize(bus bool) int {
	if bus {
		return 6
	}
	return 3
}

// failSize fails a message with id whose length size is impossible (see
// badSize), past its first byte.
func (d *Decoder) failSize(id byte, size, fixed, max int) (int, Message, error) {
	if fixed != 0 {
		return d.fail(1, id, "length %d, want %d", size, fixed)
	}
	return d.fail(1, id, "length %d out of range %d..%d", size, minSize(d.Bus), max)
}

// busMessage returns the whole bus message p after checking its
// checksum.
func (d *Decoder) busMessage(p []byte) (int, Message, error) {
	size := len(p)
	m := Message{ID: p[0], Offset: d.offset, Addr: uint16(p[3])<<7 | uint16(p[4])}
	if want := checksum(p[:size-1]); p[size-1] != want {
		d.offset += int64(size)
		return size, Message{}, &DecodeError{Offset: m.Offset, ID: m.ID, Addr: m.Addr, Checksum: true,
			Reason: fmt.Sprintf("board %d: checksum 0x%02x, want 0x%02x", m.Addr, p[size-1], want)}
	}
	m.Payload = p[5 : size-1]
	d.offset += int64(size)
	return size, m, nil
}

// checksum is the bus checksum: the sum of the bytes, bit 7 cleared.
func checksum(p []byte) byte {
	var s byte
	for _, b := range p {
		s += b
	}
	return s & 0x7f
}

// AppendMessage appends a single-board message with the given id and
// payload, as a board sends it.
func AppendMessage(dst []byte, id byte, payload []byte) []byte {
	n := 3 + len(payload)
	dst = append(dst, id, byte(n>>7)&0x7f, byte(n)&0x7f)
	return append(dst, payload...)
}

// AppendBusMessage appends a bus-mode reply from the board at addr.
func AppendBusMessage(dst []byte, id byte, addr uint16, payload []byte) []byte {
	n := 6 + len(payload)
	start := len(dst)
	dst = append(dst, id, byte(n>>7)&0x7f, byte(n)&0x7f, byte(addr>>7)&0x7f, byte(addr)&0x7f)
	dst = append(dst, payload...)
	return append(dst, checksum(dst[start:]))
}

// ClockCommand returns a DGT_CLOCK_MESSAGE that wraps clock command cmd
// with its payload: 0x2b, size, 0x03, cmd, payload..., 0x00. The size
// counts the bytes after itself, as the header's examples do (0x03 for a
// command without payload).
func ClockCommand(cmd byte, payload ...byte) []byte {
	b := make([]byte, 0, 5+len(payload))
	b = append(b, CmdClockMessage, byte(3+len(payload)), clockStartMessage, cmd)
	b = append(b, payload...)
	return append(b, clockEndMessage)
}

// ParseClockCommand reads a clock message as [ClockCommand] writes it,
// for emulators: it returns the clock command and its payload.
func ParseClockCommand(p []byte) (cmd byte, payload []byte, err error) {
	if len(p) < 5 || p[0] != CmdClockMessage {
		return 0, nil, fmt.Errorf("dgt: clock message of %d bytes too short or not 0x2b", len(p))
	}
	size := int(p[1])
	if size < 3 || len(p) != size+2 {
		return 0, nil, fmt.Errorf("dgt: clock message size %d does not match its %d bytes", size, len(p))
	}
	if p[2] != clockStartMessage || p[len(p)-1] != clockEndMessage {
		return 0, nil, fmt.Errorf("dgt: clock message lacks its start 0x03 or end 0x00 byte")
	}
	return p[3], p[4 : len(p)-1], nil
}

// ClockCommandLen returns the total length of the clock message whose
// first two bytes are p[0:2], or 0 if more bytes are needed to know.
func ClockCommandLen(p []byte) int {
	if len(p) < 2 {
		return 0
	}
	return int(p[1]) + 2
}
