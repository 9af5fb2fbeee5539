package driver

import (
	"errors"

	"arbiter/hardware/serialport"
)

// heldPort remembers the holder last reported of a port that another
// process holds, so that the daemon hears of each holder once, not at
// every attempt to open the port.
type heldPort struct{ holder string }

// news takes the outcome of an attempt to open the port and reports
// whether it is a holder not reported yet: the daemon is told of it as a
// board event of kind board.EventError whose Port is the path and whose
// Err wraps the *serialport.HeldError (errors.As) naming the holder.
func (h *heldPort) news(err error) bool {
	var he *serialport.HeldError
	if !errors.As(err, &he) {
		h.holder = "" // open, or another trouble: a holder is news again
		return false
	}
	if he.Self {
		// Another driver of this daemon holds the port (a pattern that
		// matches another protocol's board): not trouble.
		return false
	}
	key := he.Error()
	if key == h.holder {
		return false
	}
	h.holder = key
	return true
}
