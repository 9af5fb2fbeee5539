package dgt

// Bus-mode commands (host to boards). Each is followed by the board's
// 14-bit address in two 7-bit bytes and a checksum; see [BusCommand].
const (
	BusSendClock      byte = 0x81
	BusSendBoard      byte = 0x82
	BusSendChanges    byte = 0x83
	BusRepeatChanges  byte = 0x84
	BusSetStartGame   byte = 0x85
	BusSendFromStart  byte = 0x86
	BusPing           byte = 0x87
	BusEndBusMode     byte = 0x88
	BusReset          byte = 0x89
	BusIgnoreNextPing byte = 0x8a
	BusSendVersion    byte = 0x8b
	BusSendBoard50B   byte = 0x8c
	BusSendAll        byte = 0x8d // changes, clock and board in a row
)

// Bus-mode replies (boards to host): length, address, data, checksum.
const (
	MsgBusBoardDump    byte = 0x83
	MsgBusBWTime       byte = 0x84
	MsgBusUpdate       byte = 0x85 // changes in the EEPROM log format
	MsgBusFromStart    byte = 0x86 // the log from the start tag
	MsgBusPing         byte = 0x87
	MsgBusStartWritten byte = 0x88
	MsgBusVersion      byte = 0x89
	MsgBusBoardDump50B byte = 0x8a
)

// BusCommand returns a bus command for the board at addr (0: every
// board): the command, the address's high and low seven bits, and the
// checksum of the three.
func BusCommand(cmd byte, addr uint16) []byte {
	b := []byte{cmd, byte(addr>>7) & 0x7f, byte(addr) & 0x7f}
	return append(b, checksum(b))
}

// ParseBusCommand reads a 4-byte bus command, for emulators. It fails on
// a byte without bit 7 in front or a bad checksum.
func ParseBusCommand(p []byte) (cmd byte, addr uint16, err error) {
	if len(p) != 4 || p[0]&0x80 == 0 || p[1]&0x80 != 0 || p[2]&0x80 != 0 {
		return 0, 0, &DecodeError{Reason: "bus command is not 4 bytes: command, address high, address low, checksum"}
	}
	if c := checksum(p[:3]); p[3] != c {
		return 0, 0, &DecodeError{ID: p[0], Checksum: true, Reason: "bus command checksum mismatch"}
	}
	return p[0], uint16(p[1])<<7 | uint16(p[2]), nil
}
