package driver

import (
	"io"

	"arbiter/board"
)

// maxEarlyRaw bounds the bytes kept for the raw log before a board has
// told its serial number (its handshake is a few dozen bytes).
const maxEarlyRaw = 4096

// rawPort is a board's port that hands every byte read and written to
// [Config.Raw], stamped with the driver's clock when the read returned or
// the write was made.
type rawPort struct {
	io.ReadWriteCloser
	l *link
}

// Read implements io.Reader.
func (p *rawPort) Read(b []byte) (int, error) {
	n, err := p.ReadWriteCloser.Read(b)
	if n > 0 {
		p.l.raw(false, b[:n])
	}
	return n, err
}

// Write implements io.Writer.
func (p *rawPort) Write(b []byte) (int, error) {
	n, err := p.ReadWriteCloser.Write(b)
	if n > 0 {
		p.l.raw(true, b[:n])
	}
	return n, err
}

// open opens the link's port, logging its bytes when the driver keeps a
// raw log.
func (l *link) open() (io.ReadWriteCloser, error) {
	rw, err := l.d.cfg.Open(l.path)
	if err != nil || l.d.cfg.Raw == nil {
		return rw, err
	}
	return &rawPort{ReadWriteCloser: rw, l: l}, nil
}

// raw logs bytes under the board's id, or keeps them until the board has
// told its serial number.
func (l *link) raw(sent bool, b []byte) {
	r := board.Record{Host: l.d.cfg.Now(), Sent: sent, Data: b}
	l.rawMu.Lock()
	defer l.rawMu.Unlock()
	if l.rawID != "" {
		l.d.cfg.Raw(l.rawID, r)
		return
	}
	if l.rawEarlyBytes+len(b) > maxEarlyRaw {
		return
	}
	r.Data = append([]byte(nil), b...)
	l.rawEarly = append(l.rawEarly, r)
	l.rawEarlyBytes += len(b)
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
