package emu

import (
	"errors"
	"fmt"
	"io"
	"os"
	"sync"
	"time"

	"arbiter/internal/ptycable"
)

// Firmware is an emulated board's firmware as its cable meets it.
type Firmware interface {
	// HandleHost takes bytes the host wrote.
	HandleHost(p []byte)
	// SetOutput sets where the board's bytes go (nil: nowhere, unplugged).
	SetOutput(out func([]byte))
	// Scan reads the board's squares once and reports what the firmware
	// reports of them.
	Scan()
	// ScanPeriod is how long the firmware waits between two scans now.
	ScanPeriod() time.Duration
	// Restart restarts the firmware, as when the cable is plugged in
	// again (a USB board is powered by its cable).
	Restart()
}

// Line is the cable between the host and one emulated board, or a bus of
// them: a pseudo-terminal behind a stable symbolic link, and each board's
// scan loop while it is plugged in. Every board hears every host byte and
// writes to the same line. It can be pulled out and plugged in again.
type Line struct {
	fws  []Firmware
	link string

	mu     sync.Mutex
	master *os.File
	slave  *os.File
	stop   chan struct{}
	wg     sync.WaitGroup
	wmu    sync.Mutex
}

// Attach plugs boards into a new pseudo-terminal; link, if not empty,
// becomes a symbolic link to it that survives unplugs.
func Attach(link string, boards ...Firmware) (*Line, error) {
	l := &Line{fws: boards, link: link}
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
		return fmt.Errorf("emu: %w", err)
	}
	stop := make(chan struct{})
	l.mu.Lock()
	l.master, l.slave, l.stop = master, slave, stop
	l.mu.Unlock()
	out := func(p []byte) {
		l.wmu.Lock()
		defer l.wmu.Unlock()
		_, _ = master.Write(p) // fails only when unplugged, unseen as on a UART
	}
	l.wg.Add(1 + len(l.fws))
	go l.read(master)
	for _, fw := range l.fws {
		fw.SetOutput(out)
		go l.scan(fw, stop)
	}
	return nil
}

func (l *Line) read(master *os.File) {
	defer l.wg.Done()
	buf := make([]byte, 512)
	for {
		n, err := master.Read(buf)
		if n > 0 {
			for _, fw := range l.fws {
				fw.HandleHost(buf[:n])
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

func (l *Line) scan(fw Firmware, stop chan struct{}) {
	defer l.wg.Done()
	t := time.NewTimer(fw.ScanPeriod())
	defer t.Stop()
	for {
		select {
		case <-stop:
			return
		case <-t.C:
			fw.Scan()
			t.Reset(fw.ScanPeriod())
		}
	}
}

// Unplug pulls the cable: the device disappears and the host's reads
// fail; the board loses its power.
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
	for _, fw := range l.fws {
		fw.SetOutput(nil)
	}
	slave.Close()
	l.wg.Wait()
}

// Replug plugs the cable in again: a new device behind the same link, and
// boards that power up again before the host can talk to them.
func (l *Line) Replug() error {
	for _, fw := range l.fws {
		fw.Restart()
	}
	return l.plug()
}

// Close unplugs the line for good.
func (l *Line) Close() error {
	l.Unplug()
	return nil
}
