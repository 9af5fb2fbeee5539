// Package ptycable opens the pseudo-terminals that the board simulators
// (hardware/sensorboard/sim, hardware/dgt/sim) plug their boards into, so
// that a host opens them with the same serial code as real hardware.
package ptycable

import (
	"fmt"
	"os"

	"github.com/creack/pty"
	"golang.org/x/sys/unix"
)

// Open opens a pseudo-terminal in raw mode and returns its master side,
// for the simulated board, and its slave side, the device the host opens.
// If link is not empty, a symbolic link of that name (like udev's
// /dev/serial/by-id names) points to the device, replacing any old one.
//
// The master is non-blocking and read through the runtime's poller, so
// that Close interrupts a blocked Read and the host sees the hang-up:
// pty.Open reads its descriptor with Fd, which makes it blocking.
func Open(link string) (master, slave *os.File, err error) {
	master, slave, err = pty.Open()
	if err != nil {
		return nil, nil, fmt.Errorf("open pty: %w", err)
	}
	if master, err = pollable(master); err != nil {
		slave.Close()
		return nil, nil, fmt.Errorf("pty master: %w", err)
	}
	// Raw mode at once: a cooked terminal would echo frames back, hold
	// bytes until a newline and treat 0x03 as an interrupt.
	if err := makeRaw(int(slave.Fd())); err != nil {
		master.Close()
		slave.Close()
		return nil, nil, fmt.Errorf("raw mode on %s: %w", slave.Name(), err)
	}
	if link != "" {
		_ = os.Remove(link)
		if err := os.Symlink(slave.Name(), link); err != nil {
			master.Close()
			slave.Close()
			return nil, nil, fmt.Errorf("link %s: %w", link, err)
		}
	}
	return master, slave, nil
}

func makeRaw(fd int) error {
	t, err := unix.IoctlGetTermios(fd, unix.TCGETS)
	if err != nil {
		return err
	}
	t.Iflag &^= unix.IGNBRK | unix.BRKINT | unix.PARMRK | unix.ISTRIP | unix.INLCR | unix.IGNCR | unix.ICRNL | unix.IXON
	t.Oflag &^= unix.OPOST
	t.Lflag &^= unix.ECHO | unix.ECHONL | unix.ICANON | unix.ISIG | unix.IEXTEN
	t.Cflag &^= unix.CSIZE | unix.PARENB
	t.Cflag |= unix.CS8
	t.Cc[unix.VMIN] = 1
	t.Cc[unix.VTIME] = 0
	return unix.IoctlSetTermios(fd, unix.TCSETS, t)
}

// pollable returns a non-blocking duplicate of f, which it closes.
func pollable(f *os.File) (*os.File, error) {
	defer f.Close()
	fd, err := unix.Dup(int(f.Fd()))
	if err != nil {
		return nil, err
	}
	if err := unix.SetNonblock(fd, true); err != nil {
		unix.Close(fd)
		return nil, err
	}
	unix.CloseOnExec(fd)
	return os.NewFile(uintptr(fd), f.Name()), nil
}
