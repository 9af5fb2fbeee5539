package sim

import (
	"errors"
	"fmt"
	"io"
	"os"
	"sync"
	"time"

	"arbiter/internal/ptycable"
)

// Line is the cable between the host and one board, or a bus of boards:
// a pseudo-terminal behind a stable symbolic link. Every board hears
// every host byte and writes to the same line, as on DGT's bus.
type Line struct {
	boards []*Board
	link   string

	mu     sync.Mutex
	master *os.File
	slave  *os.File
	wg     sync.WaitGroup
	stop   chan struct{}
	wmu    sync.Mutex
}

// Attach plugs boards into a new pseudo-terminal; link, if not empty,
// becomes a symbolic link to it that survives unplugs.
func Attach(link string, boards ...*Board) (*Line, error) {
	l := &Line{boards: boards, link: link}
	if err := l.plug(); err != nil {
		return nil, err
	}
	return l, nil
}

// Path returns the name the host opens.
func (l *Line) Path() string {
	if l.link != "" {
		return l.link
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.slave == nil {
		return ""
	}
	return l.slave.Name()
}

func (l *Line) plug() error {
	master, slave, err := ptycable.Open(l.link)
	if err != nil {
		return fmt.Errorf("sim: %w", err)
	}
	l.mu.Lock()
	l.master, l.slave, l.stop = master, slave, make(chan struct{})
	stop := l.stop
	l.mu.Unlock()
	for _, b := range l.boards {
		b.SetOutput(func(p []byte) {
			l.wmu.Lock()
			defer l.wmu.Unlock()
			_, _ = master.Write(p) // fails only when unplugged, unseen as on a UART
		})
	}
	l.wg.Add(2)
	go l.read(master)
	go l.tick(stop)
	return nil
}

func (l *Line) read(master *os.File) {
	defer l.wg.Done()
	buf := make([]byte, 512)
	for {
		n, err := master.Read(buf)
		if n > 0 {
			for _, b := range l.boards {
				b.HandleHost(buf[:n])
			}
		}
		if err != nil {
			if !errors.Is(err, io.EOF) && !errors.Is(err, os.ErrClosed) {
				l.mu.Lock()
				gone := l.master != master
				l.mu.Unlock()
				if !gone {
					// EIO: no process holds the slave open yet.
					time.Sleep(5 * time.Millisecond)
					continue
				}
			}
			return
		}
	}
}

func (l *Line) tick(stop chan struct{}) {
	defer l.wg.Done()
	t := time.NewTicker(50 * time.Millisecond)
	defer t.Stop()
	for {
		select {
		case <-stop:
			return
		case <-t.C:
			for _, b := range l.boards {
				b.ClockTick()
			}
		}
	}
}

// Unplug pulls the cable: the device disappears and the host's reads fail.
func (l *Line) Unplug() {
	l.mu.Lock()
	master, slave, stop := l.master, l.slave, l.stop
	l.master, l.slave = nil, nil
	l.mu.Unlock()
	if l.link != "" {
		_ = os.Remove(l.link)
	}
	if master == nil {
		return
	}
	close(stop)
	master.Close()
	for _, b := range l.boards {
		b.SetOutput(nil)
	}
	slave.Close()
	l.wg.Wait()
}

// Replug plugs the cable in again: a new device behind the same link, and
// boards that power up again.
func (l *Line) Replug() error {
	// The boards power up before the host can talk to them.
	for _, b := range l.boards {
		b.Restart()
	}
	return l.plug()
}

// Close unplugs the line for good.
func (l *Line) Close() error {
	l.Unplug()
	return nil
}
