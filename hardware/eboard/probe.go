package eboard

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"time"

	"arbiter/board"
)

// Probe opens the port at path with open, runs a session of newSession on
// it until the board says who it is (its hello) or timeout passes, and
// returns what it said. The port is closed again before Probe returns. It
// is how "arbiter ports" and the preflight find out what a serial port
// holds: a port whose device never greets the session as the protocol's
// boards do is not one of them.
func Probe(ctx context.Context, path string, open func(string) (io.ReadWriteCloser, error), newSession NewSession, timeout time.Duration) (*board.Info, error) {
	rw, err := open(path)
	if err != nil {
		return nil, err
	}
	defer rw.Close()
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	found := make(chan *board.Info, 1)
	epoch := time.Now()
	c := &conn{now: func() time.Duration { return time.Since(epoch) }, log: slog.New(slog.DiscardHandler),
		raw: func(board.Record) uint64 { return 0 }, wake: make(chan struct{}, 1)}
	c.s = newSession(path, Wire{Send: c.send, Emit: func(e board.Event) {
		if e.Kind == board.EventHello && e.Info != nil {
			select {
			case found <- e.Info:
				cancel()
			default:
			}
		}
	}})
	runErr := c.run(ctx, rw)
	select {
	case info := <-found:
		return info, nil
	default:
	}
	if runErr != nil && !errors.Is(runErr, context.Canceled) {
		return nil, fmt.Errorf("%s: %w", path, runErr)
	}
	return nil, fmt.Errorf("%s: no answer within %v", path, timeout)
}
