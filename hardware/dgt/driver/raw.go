package driver

import (
	"bytes"

	"arbiter/board"
	"arbiter/hardware/dgt"
)

// maxEarlyRaw bounds the bytes kept for the raw log before a board has
// told its serial number (its handshake is a few dozen bytes).
const maxEarlyRaw = 4096

// raw logs a chunk of the board's raw log ([dgt.ConnConfig.Raw]) under
// the board's id, or keeps it until the board has told its serial number.
func (l *link) raw(c dgt.Chunk) {
	r := board.Record{Host: c.Host, Sent: c.Sent, Data: c.Data}
	l.rawMu.Lock()
	defer l.rawMu.Unlock()
	if l.rawID != "" {
		l.d.cfg.Raw(l.rawID, r)
		return
	}
	if l.rawEarlyBytes+len(c.Data) > maxEarlyRaw {
		return
	}
	r.Data = bytes.Clone(c.Data)
	l.rawEarly = append(l.rawEarly, r)
	l.rawEarlyBytes += len(c.Data)
}

// rawIdentified logs under id, from now on and for the bytes kept until
// the board told it.
func (l *link) rawIdentified(id string) {
	if l.d.cfg.Raw == nil {
		return
	}
	l.rawMu.Lock()
	defer l.rawMu.Unlock()
	l.rawID = id
	for _, r := range l.rawEarly {
		l.d.cfg.Raw(id, r)
	}
	l.rawEarly, l.rawEarlyBytes = nil, 0
}
