package serialport

import (
	"context"
	"io"
	"time"
)

// A Keeper keeps one board's port open for a driver, through unplugs.
type Keeper struct {
	// Open opens the port.
	Open func() (io.ReadWriteCloser, error)
	// Run speaks to the board on the open port until ctx ends (it then
	// returns nil) or the port fails (it returns why). The Keeper closes
	// the port after it.
	Run func(ctx context.Context, rw io.ReadWriter) error
	// Backoff is the pause before the port is opened again (default 1 s).
	Backoff time.Duration
	// Unavailable, if set, is told the first failed Open at the start and
	// after each time the port was open: once per absence, not at every
	// try.
	Unavailable func(err error)
	// Ended, if set, is told why Run ended when the port failed.
	Ended func(err error)
}

// Keep opens the port and runs the board on it, and opens it again after
// Backoff whenever it fails, until ctx ends.
func (k Keeper) Keep(ctx context.Context) {
	backoff := k.Backoff
	if backoff <= 0 {
		backoff = time.Second
	}
	reported := false
	for ctx.Err() == nil {
		rw, err := k.Open()
		if err != nil {
			if !reported && k.Unavailable != nil {
				k.Unavailable(err)
			}
			reported = true
		} else {
			reported = false
			err = k.Run(ctx, rw)
			_ = rw.Close()
			if err != nil && k.Ended != nil {
				k.Ended(err)
			}
		}
		select {
		case <-ctx.Done():
		case <-time.After(backoff):
		}
	}
}

// A Read is what one Read of a port returned.
type Read struct {
	Data []byte
	Err  error
}

// Reads reads r in a goroutine of its own, at most size bytes a read, and
// sends each read on the channel it returns, the failed one last, then
// closes it; it stops when a read fails or done is closed. A driver's loop selects on
// the channel beside its timers; closing the port ends a blocked read.
func Reads(r io.Reader, size int, done <-chan struct{}) <-chan Read {
	reads := make(chan Read, 16)
	go func() {
		defer close(reads)
		for {
			buf := make([]byte, size)
			n, err := r.Read(buf)
			select {
			case reads <- Read{buf[:n], err}:
			case <-done:
				return
			}
			if err != nil {
				return
			}
		}
	}()
	return reads
}
