package dgt

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"sync"
	"time"

	"go.bug.st/serial"

	"arbiter/hardware/serialport"
	"arbiter/rules"
)

// ConnConfig configures a [Conn].
type ConnConfig struct {
	Session Config
	// Now returns the host's monotonic time; every event's At comes from
	// it. Default: time since the Conn was made.
	Now func() time.Duration
	// Emit receives every event, from the Conn's goroutine.
	Emit func(Event)
	// Raw, if set, receives every chunk of bytes read from the board and
	// every command written to it, stamped with the instant the session
	// took or sent it: the raw log from which a [Replayer] recreates the
	// session's events exactly. It is called with the Conn locked, must be
	// quick and must not call the Conn; Data is valid only during the
	// call.
	Raw func(Chunk)
	// Logger receives diagnostics (default slog.Default()).
	Logger *slog.Logger
}

// Conn runs a [Session] on a live line: it feeds what it reads, wakes the
// session at its deadlines and writes what the session sends. Its methods
// are safe for concurrent use.
type Conn struct {
	cfg ConnConfig
	log *slog.Logger

	mu      sync.Mutex
	s       *Session
	at      time.Duration // the instant of the session's current call
	w       io.Writer
	pending []byte
	wake    chan struct{}
	logWait chan Event // guarded by mu
}

// NewConn returns a Conn for one board.
func NewConn(cfg ConnConfig) *Conn {
	if cfg.Now == nil {
		epoch := time.Now()
		cfg.Now = func() time.Duration { return time.Since(epoch) }
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.Default()
	}
	c := &Conn{cfg: cfg, log: cfg.Logger, s: NewSession(cfg.Session), wake: make(chan struct{}, 1)}
	c.s.Emit = func(e Event) {
		// The session calls Emit with c.mu held.
		if e.Kind == EventLog && c.logWait != nil {
			c.logWait <- e
			c.logWait = nil
		}
		if cfg.Emit != nil {
			cfg.Emit(e)
		}
	}
	c.s.Send = func(b []byte) {
		if c.w == nil {
			return
		}
		if _, err := c.w.Write(b); err != nil {
			// The read side sees the same failure and ends the run.
			c.log.Debug("dgt: write failed", "err", err)
		}
		if cfg.Raw != nil {
			cfg.Raw(Chunk{Host: c.at, Sent: true, Data: b})
		}
	}
	return c
}

// Do runs f with the session locked, at the Conn's current instant (for
// clock commands and statistics).
func (c *Conn) Do(f func(s *Session, now time.Duration)) {
	c.mu.Lock()
	c.at = c.cfg.Now()
	f(c.s, c.at)
	c.mu.Unlock()
	select {
	case c.wake <- struct{}{}:
	default:
	}
}

// SetClock sets and runs the clock (see [Session.SetClock]).
func (c *Conn) SetClock(white, black time.Duration, toMove rules.Color) (err error) {
	c.Do(func(s *Session, now time.Duration) { err = s.SetClock(white, black, toMove, now) })
	return err
}

// StopClock stops the clock at the given times (see [Session.StopClock]).
func (c *Conn) StopClock(white, black time.Duration) (err error) {
	c.Do(func(s *Session, now time.Duration) { err = s.StopClock(white, black, now) })
	return err
}

// ShowText shows a text on a DGT 3000 (touch-move refusal, illegal move,
// result): see [Session.ShowText].
func (c *Conn) ShowText(t Text) (err error) {
	c.Do(func(s *Session, now time.Duration) { err = s.ShowText(t, now) })
	return err
}

// EndText gives the DGT 3000's display back to the times.
func (c *Conn) EndText() {
	c.Do(func(s *Session, now time.Duration) { s.EndText(now) })
}

// ReadLog downloads the board's EEPROM log (about 9 s for a full log at
// 9600 baud); [Recover] replays it.
func (c *Conn) ReadLog(ctx context.Context) (*Log, error) {
	ch := make(chan Event, 1)
	c.Do(func(s *Session, now time.Duration) {
		c.logWait = ch
		s.RequestLog(now)
	})
	select {
	case e := <-ch:
		return e.Log, e.Err
	case <-ctx.Done():
		c.Do(func(*Session, time.Duration) { c.logWait = nil })
		return nil, fmt.Errorf("dgt: reading the board's log: %w", ctx.Err())
	}
}

// Stats returns the session's counters.
func (c *Conn) Stats() (st SessionStats) {
	c.Do(func(s *Session, _ time.Duration) { st = s.Stats })
	return st
}

// Run speaks to the board on rw until ctx ends or rw fails; it returns
// the read error (nil when ctx ended). The caller closes rw afterwards,
// which also ends Run's reader. The session survives: Run may be called
// again on a new line (see [Watch]).
func (c *Conn) Run(ctx context.Context, rw io.ReadWriter) error {
	done := make(chan struct{})
	defer close(done)
	reads := serialport.Reads(rw, 256, done)
	c.mu.Lock()
	c.w = rw
	c.pending = c.pending[:0]
	c.at = c.cfg.Now()
	c.s.Start(c.at)
	c.mu.Unlock()
	timer := time.NewTimer(0)
	defer timer.Stop()
	for {
		c.mu.Lock()
		now := c.cfg.Now()
		c.at = now
		c.s.Tick(now)
		wait := c.s.Deadline() - now
		c.mu.Unlock()
		timer.Reset(max(wait, time.Millisecond))
		select {
		case <-ctx.Done():
			c.stop()
			return nil
		case <-c.wake:
		case <-timer.C:
		case r := <-reads:
			c.mu.Lock()
			if len(r.Data) > 0 {
				c.at = c.cfg.Now()
				if c.cfg.Raw != nil {
					c.cfg.Raw(Chunk{Host: c.at, Data: r.Data})
				}
				c.s.Feed(r.Data, c.at, &c.pending)
			}
			c.mu.Unlock()
			if r.Err != nil {
				c.stop()
				c.disconnected()
				if errors.Is(r.Err, io.EOF) {
					return fmt.Errorf("dgt: port closed: %w", r.Err)
				}
				return fmt.Errorf("dgt: read: %w", r.Err)
			}
		}
	}
}

// disconnected tells the session, and the raw log (an empty chunk), that
// the port failed.
func (c *Conn) disconnected() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.at = c.cfg.Now()
	if c.cfg.Raw != nil {
		c.cfg.Raw(Chunk{Host: c.at})
	}
	c.s.Disconnected(c.at)
}

func (c *Conn) stop() {
	c.mu.Lock()
	c.w = nil
	c.mu.Unlock()
}

// Watch keeps a board's port open: it opens it with open, runs the Conn on
// it, and when the port fails (an unplug) closes it and opens it again
// after backoff, until ctx ends.
func Watch(ctx context.Context, c *Conn, open func() (io.ReadWriteCloser, error), backoff time.Duration) error {
	serialport.Keeper{Open: open, Run: c.Run, Backoff: backoff,
		Unavailable: func(err error) {
			c.log.Warn("dgt: cannot open the board's port", "err", err)
			c.disconnected()
		},
		Ended: func(err error) { c.log.Info("dgt: board link ended", "err", err) },
	}.Keep(ctx)
	return nil
}

// OpenSerial opens a DGT board's serial port (USB, serial or a Bluetooth
// RFCOMM device) at 9600 baud, 8 data bits, no parity, one stop bit and no
// handshaking, for this process alone (hardware/serialport: a lock file
// and exclusive mode). A port another process holds is refused with a
// *serialport.HeldError that names the holder.
func OpenSerial(path string) (io.ReadWriteCloser, error) {
	p, err := serialport.Open(path, serialport.Config{Mode: serial.Mode{BaudRate: 9600, DataBits: 8, Parity: serial.NoParity, StopBits: serial.OneStopBit}})
	if err != nil {
		return nil, fmt.Errorf("dgt: %w", err)
	}
	return p, nil
}
