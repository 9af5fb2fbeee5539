package eboard

import (
	"io"

	"go.bug.st/serial"

	"arbiter/hardware/serialport"
)

// OpenSerial opens a board's serial port (USB, or a Bluetooth RFCOMM
// device) in mode, for this process alone (hardware/serialport: a lock
// file and exclusive mode; a port another process holds is refused with a
// *serialport.HeldError that names the holder), with DTR lowered when
// lowDTR (as the open-source ChessLink hosts do).
func OpenSerial(path string, mode serial.Mode, lowDTR bool) (io.ReadWriteCloser, error) {
	p, err := serialport.Open(path, serialport.Config{Mode: mode})
	if err != nil {
		return nil, err
	}
	if lowDTR {
		// A pseudo-terminal (an emulator) has no modem lines: that is no
		// reason to refuse it.
		_ = p.SetDTR(false)
	}
	return p, nil
}
