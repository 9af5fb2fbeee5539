package sim

import (
	"errors"
	"fmt"
	"io"
	"os"
	"sync"

	"github.com/creack/pty"
	"golang.org/x/sys/unix"

	"arbiter/hardware/sensorboard"
)

// PTY connects a simulated board to a pseudo-terminal, so that a host
// opens it with the same serial code as real hardware. The host opens
// [PTY.Path]; when a link name is given, that is a symbolic link (like
// udev's /dev/serial/by-id names) that stays the same across unplugs while
// the pseudo-terminal behind it changes.
type PTY struct {
	board *Board
	link  string

	mu     sync.Mutex
	master *os.File
	slave  *os.File
	dev    string
	wg     sync.WaitGroup
}

// Attach creates a pseudo-terminal for b and plugs the board into it. If
// link is not empty, a symbolic link of that name points to the device.
func Attach(b *Board, link string) (*PTY, error) {
	p := &PTY{board: b, link: link}
	if err := p.plug(); err != nil {
		return nil, err
	}
	return p, nil
}

// Path returns the name the host should open.
func (p *PTY) Path() string {
	if p.link != "" {
		return p.link
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.dev
}

// Device returns the current pseudo-terminal device.
func (p *PTY) Device() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.dev
}

func (p *PTY) plug() error {
	master, slave, err := pty.Open()
	if err != nil {
		return fmt.Errorf("sim: open pty: %w", err)
	}
	// pty.Open reads the master's descriptor with Fd, which puts it in
	// blocking mode: a blocked Read would then survive Close and the
	// host would never see the hang-up. A non-blocking duplicate goes
	// through the runtime's poller, where Close interrupts Read.
	master, err = pollable(master)
	if err != nil {
		slave.Close()
		return fmt.Errorf("sim: pty master: %w", err)
	}
	// Raw mode at once: a cooked terminal would echo frames back, hold
	// bytes until a newline and treat 0x03 as an interrupt.
	if err := makeRaw(int(slave.Fd())); err != nil {
		master.Close()
		slave.Close()
		return fmt.Errorf("sim: raw mode on %s: %w", slave.Name(), err)
	}
	if p.link != "" {
		_ = os.Remove(p.link)
		if err := os.Symlink(slave.Name(), p.link); err != nil {
			master.Close()
			slave.Close()
			return fmt.Errorf("sim: link %s: %w", p.link, err)
		}
	}
	p.mu.Lock()
	p.master, p.slave, p.dev = master, slave, slave.Name()
	p.mu.Unlock()
	p.board.SetOutput(func(b []byte) {
		// A write fails only when the cable is pulled; the board cannot
		// tell, as a real UART cannot.
		_, _ = master.Write(b)
	})
	p.wg.Add(1)
	go p.read(master)
	return nil
}

// read feeds host frames to the board until the master side closes.
func (p *PTY) read(master *os.File) {
	defer p.wg.Done()
	dec := sensorboard.NewDecoder()
	buf := make([]byte, 1024)
	for {
		n, err := master.Read(buf)
		q := buf[:n]
		for len(q) > 0 {
			k, f, derr := dec.Decode(q)
			q = q[k:]
			switch {
			case derr == nil:
				p.board.HandleHost(f)
			case errors.Is(derr, sensorboard.ErrIncomplete):
			default:
				p.board.RejectHost()
			}
		}
		if err != nil {
			if !errors.Is(err, io.EOF) && !errors.Is(err, os.ErrClosed) {
				// EIO: no process holds the slave open; keep waiting
				// unless the master itself is gone.
				p.mu.Lock()
				gone := p.master != master
				p.mu.Unlock()
				if !gone {
					continue
				}
			}
			return
		}
	}
}

// Unplug pulls the cable: the device disappears and the host's reads fail.
func (p *PTY) Unplug() {
	p.mu.Lock()
	master, slave := p.master, p.slave
	p.master, p.slave = nil, nil
	p.mu.Unlock()
	if p.link != "" {
		_ = os.Remove(p.link)
	}
	if master != nil {
		// Closing the master first frees a write blocked on a host that
		// does not read; only then can the output be taken away.
		master.Close()
		p.board.SetOutput(nil)
		slave.Close()
	}
	p.wg.Wait()
}

// Replug plugs the cable in again: a new device, the same link name, and a
// board that restarts as it is powered up again.
func (p *PTY) Replug() error {
	if err := p.plug(); err != nil {
		return err
	}
	p.board.Restart()
	return nil
}

// Close unplugs the board for good.
func (p *PTY) Close() error {
	p.Unplug()
	return nil
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
