package eboard

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"sync"
	"time"

	"arbiter/board"
	"arbiter/hardware/serialport"
)

// conn runs a [Session] on a live line: it feeds what it reads, wakes the
// session at its deadlines, writes what the session sends, and logs every
// byte both ways with the instant the session took or sent it.
type conn struct {
	now func() time.Duration
	log *slog.Logger
	// raw logs a record and returns its raw number (0: not logged yet).
	raw func(board.Record) uint64

	mu   sync.Mutex
	s    Session
	at   time.Duration // the instant of the session's current call
	seq  uint64        // the raw number of the record the session is taking
	w    io.Writer
	wake chan struct{}
}

// do runs f with the session locked, at the current instant.
func (c *conn) do(f func(s Session, now time.Duration)) {
	c.mu.Lock()
	c.at, c.seq = c.now(), 0
	f(c.s, c.at)
	c.mu.Unlock()
	select {
	case c.wake <- struct{}{}:
	default:
	}
}

// send writes what the session sends (called with c.mu held).
func (c *conn) send(p []byte) {
	if c.w == nil || len(p) == 0 {
		return
	}
	if _, err := c.w.Write(p); err != nil {
		// The read side sees the same failure and ends the run.
		c.log.Debug("board write failed", "err", err)
	}
	c.raw(board.Record{Host: c.at, Sent: true, Data: p})
}

// run speaks to the board on rw until ctx ends or rw fails, and returns
// the read error (nil when ctx ended). The caller closes rw afterwards.
func (c *conn) run(ctx context.Context, rw io.ReadWriter) error {
	done := make(chan struct{})
	defer close(done)
	reads := serialport.Reads(rw, 512, done)
	c.mu.Lock()
	c.w = rw
	c.at = c.now()
	// An empty host record marks the port opened: a replay starts its
	// session there.
	c.seq = c.raw(board.Record{Host: c.at, Sent: true})
	c.s.Start(c.at)
	c.mu.Unlock()
	timer := time.NewTimer(0)
	defer timer.Stop()
	for {
		c.mu.Lock()
		c.at, c.seq = c.now(), 0
		c.s.Tick(c.at)
		wait := c.s.Deadline() - c.at
		c.mu.Unlock()
		timer.Reset(max(wait, time.Millisecond))
		select {
		case <-ctx.Done():
			c.stop()
			return nil
		case <-c.wake:
		case <-timer.C:
		case r := <-reads:
			if len(r.Data) > 0 {
				c.mu.Lock()
				c.at = c.now()
				c.seq = c.raw(board.Record{Host: c.at, Data: r.Data})
				c.s.Feed(r.Data, c.at)
				c.mu.Unlock()
			}
			if r.Err != nil {
				c.stop()
				c.failed()
				if errors.Is(r.Err, io.EOF) {
					return fmt.Errorf("port closed: %w", r.Err)
				}
				return fmt.Errorf("read: %w", r.Err)
			}
		}
	}
}

// failed tells the session, and the raw log (an empty read), that the
// port failed.
func (c *conn) failed() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.at = c.now()
	c.seq = c.raw(board.Record{Host: c.at})
	c.s.Disconnected(c.at)
}

func (c *conn) stop() {
	c.mu.Lock()
	c.w = nil
	c.mu.Unlock()
}

// watch keeps the port open: it opens it with open, runs the session on
// it, and when the port fails (an unplug) closes it and opens it again
// after backoff, until ctx ends.
func (c *conn) watch(ctx context.Context, open func() (io.ReadWriteCloser, error), backoff time.Duration) {
	serialport.Keeper{Open: open, Run: c.run, Backoff: backoff,
		Unavailable: func(err error) { c.log.Warn("cannot open the board's port", "err", err) },
		Ended:       func(err error) { c.log.Info("board link ended", "err", err) },
	}.Keep(ctx)
}
