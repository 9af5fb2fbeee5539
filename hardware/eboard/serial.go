package eboard

import (
	"fmt"
	"io"
	"os"
	"syscall"

	"go.bug.st/serial"
)

// OpenSerial opens a board's serial port (USB, or a Bluetooth RFCOMM
// device) in mode, with DTR lowered when lowDTR (as the open-source
// ChessLink hosts do). go.bug.st/serial configures the port and writes;
// reads go through a second descriptor served by the runtime's poller (as
// hardware/sensorboard and hardware/dgt do), so Close ends a blocked Read
// at once.
func OpenSerial(path string, mode *serial.Mode, lowDTR bool) (io.ReadWriteCloser, error) {
	rf, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NOCTTY, 0)
	if err != nil {
		return nil, err // an *os.PathError names the port
	}
	p, err := serial.Open(path, mode)
	if err != nil {
		rf.Close()
		return nil, fmt.Errorf("open %s: %w", path, err)
	}
	if lowDTR {
		// A pseudo-terminal (an emulator) has no modem lines: that is no
		// reason to refuse it.
		_ = p.SetDTR(false)
	}
	return &serialPort{r: rf, p: p}, nil
}

type serialPort struct {
	r *os.File
	p serial.Port
}

func (s *serialPort) Read(b []byte) (int, error) {
	n, err := s.r.Read(b)
	if err == nil && n == 0 {
		err = io.EOF
	}
	return n, err
}

func (s *serialPort) Write(b []byte) (int, error) { return s.p.Write(b) }

func (s *serialPort) Close() error {
	err := s.r.Close()
	if perr := s.p.Close(); err == nil {
		err = perr
	}
	return err
}
