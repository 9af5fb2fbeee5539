package sim

import (
	"errors"
	"fmt"
	"io"
	"os"
	"sync"
	"time"

	"arbiter/hardware/sensorboard"
	"arbiter/internal/ptycable"
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
	master, slave, err := ptycable.Open(p.link)
	if err != nil {
		return fmt.Errorf("sim: %w", err)
	}
	p.mu.Lock()
	p.master, p.slave, p.dev = master, slave, slave.Name()
	p.mu.Unlock()
	var stalled time.Time // until when the line is taken as full
	p.board.SetOutput(func(b []byte) {
		// A write fails only when the cable is pulled; the board cannot
		// tell, as a real UART cannot. Nor does a UART wait for a host
		// that does not read (none has opened the port, or it stopped
		// reading): once the pseudo-terminal's buffer stays full for
		// writeWait, what the board sends is lost for writeWait, and the
		// board goes on (it is called with the board's lock held).
		now := time.Now()
		if now.Before(stalled) {
			return
		}
		_ = master.SetWriteDeadline(now.Add(writeWait))
		if _, err := master.Write(b); errors.Is(err, os.ErrDeadlineExceeded) {
			stalled = time.Now().Add(writeWait)
		}
	})
	p.wg.Add(1)
	go p.read(master)
	return nil
}

// writeWait is how long a board's write waits for a host that does not
// read, and then how long what it sends is lost.
const writeWait = time.Second

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
