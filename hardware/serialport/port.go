package serialport

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sync"
	"syscall"
	"time"

	"go.bug.st/serial"
)

// Config says how a port is opened. The zero value opens at 9600 baud,
// 8N1, with the lock in the first writable folder of [DefaultLockDirs].
type Config struct {
	// Mode is the line's speed and framing (default 9600 baud, 8 data
	// bits, no parity, one stop bit). Do not set InitialStatusBits: it
	// makes the open fail on a pseudo-terminal.
	Mode serial.Mode
	// LockDirs are the folders where other programs' lock files are
	// looked for, and this one's written in the first writable one
	// (default [DefaultLockDirs]).
	LockDirs []string
}

// Port is a serial port held by this process. Its methods are safe for
// concurrent use as an *os.File's are: one reader and one writer at a
// time.
type Port struct {
	path string
	r    *os.File    // reads, through the runtime's poller
	p    serial.Port // configuration and writes
	lock *lock

	once     sync.Once
	closeErr error
}

// Open opens the serial port at path (a device, or a link to one such as
// udev's /dev/serial/by-id names) for this process alone: see the package
// documentation. A port that another process (or another driver of this
// one) holds is refused with a *[HeldError]; a missing device or a
// missing permission with the *os.PathError that names it.
func Open(path string, cfg Config) (*Port, error) {
	device, err := filepath.EvalSymlinks(path)
	if err != nil {
		var pe *os.PathError
		if errors.As(err, &pe) {
			// Named as asked (EvalSymlinks names the first part missing).
			err = &os.PathError{Op: "open", Path: path, Err: pe.Err}
		}
		return nil, fmt.Errorf("serialport: %w", err)
	}
	if device, err = filepath.Abs(device); err != nil {
		return nil, fmt.Errorf("serialport: %s: %w", path, err)
	}
	dirs := cfg.LockDirs
	if dirs == nil {
		dirs = DefaultLockDirs()
	}
	l, err := take(path, device, dirs)
	if err != nil {
		return nil, err
	}
	p, err := open(path, device, cfg.Mode)
	if err != nil {
		_ = l.release()
		return nil, err
	}
	p.lock = l
	return p, nil
}

// open opens the device's two descriptors: reads through the poller, and
// go.bug.st/serial for the line's settings (it sets exclusive mode) and
// writes.
func open(path, device string, mode serial.Mode) (*Port, error) {
	if mode.BaudRate == 0 {
		mode.BaudRate = 9600
	}
	if mode.DataBits == 0 {
		mode.DataBits = 8
	}
	rf, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NOCTTY, 0)
	if err != nil {
		if errors.Is(err, syscall.EBUSY) {
			return nil, busy(path, device)
		}
		return nil, fmt.Errorf("serialport: %w", err) // an *os.PathError names the port
	}
	sp, err := serial.Open(path, &mode)
	if err != nil {
		rf.Close()
		var pe *serial.PortError
		if errors.As(err, &pe) && pe.Code() == serial.PortBusy || errors.Is(err, syscall.EBUSY) {
			return nil, busy(path, device)
		}
		return nil, fmt.Errorf("serialport: open %s: %w", path, err)
	}
	return &Port{path: path, r: rf, p: sp}, nil
}

// busy is the error of a device another process holds in exclusive mode,
// naming it where it can be found.
func busy(path, device string) error {
	e := &HeldError{Path: path, Device: device, PID: holder(device)}
	if e.PID != 0 {
		e.Program = program(e.PID)
	}
	return e
}

// SetDTR raises or lowers the line's DTR signal (a pseudo-terminal has
// none: it answers an error).
func (p *Port) SetDTR(on bool) error { return p.p.SetDTR(on) }

// Path returns the path the port was opened by.
func (p *Port) Path() string { return p.path }

// Device returns the device the path led to when it was opened.
func (p *Port) Device() string { return p.lock.device }

// LockFile returns the lock file that holds the port for this process, ""
// when no lock folder was writable (exclusive mode holds it then).
func (p *Port) LockFile() string { return p.lock.file }

// Read reads what the board sent. A read of nothing is the end of the
// port: io.EOF.
func (p *Port) Read(b []byte) (int, error) {
	n, err := p.r.Read(b)
	if err == nil && n == 0 && len(b) > 0 {
		err = io.EOF
	}
	return n, err
}

// Write writes to the board.
func (p *Port) Write(b []byte) (int, error) { return p.p.Write(b) }

// SetReadDeadline bounds the reads in course and to come, as
// os.File.SetReadDeadline does (os.ErrDeadlineExceeded).
func (p *Port) SetReadDeadline(t time.Time) error { return p.r.SetReadDeadline(t) }

// Stat describes the device the port reads.
func (p *Port) Stat() (os.FileInfo, error) { return p.r.Stat() }

// Close ends a blocked Read, closes the port and gives up its lock. It may
// be called more than once.
func (p *Port) Close() error {
	p.once.Do(func() {
		p.closeErr = errors.Join(p.r.Close(), p.p.Close(), p.lock.release())
	})
	return p.closeErr
}
