package serialport_test

import (
	"context"
	"errors"
	"io"
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/assert"

	"arbiter/hardware/serialport"
)

// line is a port whose reads fail at once, as an unplugged board's do.
type line struct{ closed *int }

func (line) Read([]byte) (int, error)    { return 0, io.EOF }
func (line) Write(p []byte) (int, error) { return len(p), nil }
func (l line) Close() error              { *l.closed++; return nil }

func TestKeeperReopensAndTellsEachAbsenceOnce(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		// The port is missing for three tries, there for one run, missing
		// twice, then there for good.
		plan := []bool{false, false, false, true, false, false, true}
		var opens, runs, closed int
		var unavailable, ended []string
		ctx, cancel := context.WithCancel(context.Background())
		k := serialport.Keeper{
			Open: func() (io.ReadWriteCloser, error) {
				i := opens
				opens++
				if i < len(plan) && !plan[i] {
					return nil, errors.New("no such device")
				}
				return line{&closed}, nil
			},
			Run: func(ctx context.Context, rw io.ReadWriter) error {
				runs++
				if runs == 1 {
					return errors.New("port closed")
				}
				<-ctx.Done()
				return nil
			},
			Backoff:     2 * time.Second,
			Unavailable: func(err error) { unavailable = append(unavailable, err.Error()) },
			Ended:       func(err error) { ended = append(ended, err.Error()) },
		}
		done := make(chan struct{})
		go func() { defer close(done); k.Keep(ctx) }()
		time.Sleep(time.Minute)
		cancel()
		<-done
		assert.Equal(t, len(plan), opens, "a try every Backoff until the port stays")
		assert.Equal(t, 2, runs)
		assert.Equal(t, 2, closed, "each open port is closed after its run")
		assert.Equal(t, []string{"no such device", "no such device"}, unavailable, "once per absence")
		assert.Equal(t, []string{"port closed"}, ended)
	})
}

func TestReadsStopsAtTheFailedRead(t *testing.T) {
	done := make(chan struct{})
	defer close(done)
	var n int
	for r := range serialport.Reads(line{&n}, 16, done) {
		assert.ErrorIs(t, r.Err, io.EOF)
		assert.Empty(t, r.Data)
	}
}
