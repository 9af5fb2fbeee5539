package serialport

import "errors"

// Held remembers the holder last reported of a port that another process
// holds, so that a driver that looks at the port again every few seconds
// tells the daemon of each holder once, not at every attempt to open it.
// The zero Held has reported nothing.
type Held struct{ holder string }

// News takes the outcome of an attempt to open the port and reports
// whether it is a holder not reported yet: err wraps a *HeldError (not
// this process's own) naming another holder than the last one reported.
// An open, or another trouble, makes a holder news again.
func (h *Held) News(err error) bool {
	var he *HeldError
	if !errors.As(err, &he) {
		h.holder = ""
		return false
	}
	if he.Self {
		// Another driver of this process holds the port (a pattern that
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
