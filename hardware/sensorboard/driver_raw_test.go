package sensorboard

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
)

// The raw log's host times never go back on a port: a host frame is timed
// when it is queued, on the goroutine that sends it, and may reach the log
// after a board frame that the port's reader timed a moment later. A
// replay takes host time that goes back for a restart of the daemon, and
// stops there (issue 18 §4).
func TestRawLogHostTimeNeverGoesBack(t *testing.T) {
	var logged []time.Duration
	d := &Driver{cfg: Config{Raw: func(f RawFrame) uint64 {
		logged = append(logged, f.Host)
		return uint64(len(logged))
	}}}
	pc := &portConn{d: d, path: "/dev/ttyACM0"}
	for _, r := range []RawFrame{
		{Board: "B1", Host: 10 * time.Millisecond},
		{Board: "B1", Host: 12 * time.Millisecond},             // read
		{Board: "B1", Host: 11 * time.Millisecond, Sent: true}, // queued before that read, logged after it
		{Board: "B1", Host: 13 * time.Millisecond},
	} {
		pc.raw(r)
	}
	assert.Equal(t, []time.Duration{10 * time.Millisecond, 12 * time.Millisecond, 12 * time.Millisecond, 13 * time.Millisecond}, logged)
}
