// Package fedtest holds what the federation's tests share across
// packages: a leaf node link that a test can cut and restore.
package fedtest

import (
	"io"
	"net"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// Link is a TCP relay between a hall's leaf node and the hub's: cutting it
// closes every connection and refuses new ones until it is restored, as a
// failed network would. A hall reaches the hub through Addr.
type Link struct {
	t      testing.TB
	addr   string
	target string
	mu     sync.Mutex
	ln     net.Listener
	conns  []net.Conn
}

// NewLink relays a loopback address of its own to target until the test
// ends.
func NewLink(t testing.TB, target string) *Link {
	t.Helper()
	l := &Link{t: t, target: target}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	l.addr = ln.Addr().String()
	l.serve(ln)
	t.Cleanup(l.Cut)
	return l
}

// Addr is the link's end for the hall: host:port.
func (l *Link) Addr() string { return l.addr }

func (l *Link) serve(ln net.Listener) {
	l.mu.Lock()
	l.ln = ln
	l.mu.Unlock()
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			up, err := net.Dial("tcp", l.target)
			if err != nil {
				c.Close()
				continue
			}
			l.mu.Lock()
			l.conns = append(l.conns, c, up)
			l.mu.Unlock()
			go func() { _, _ = io.Copy(up, c); up.Close() }()
			go func() { _, _ = io.Copy(c, up); c.Close() }()
		}
	}()
}

// Cut closes the link.
func (l *Link) Cut() {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.ln != nil {
		l.ln.Close()
		l.ln = nil
	}
	for _, c := range l.conns {
		c.Close()
	}
	l.conns = nil
}

// Restore opens the link again, on the same address.
func (l *Link) Restore() {
	l.t.Helper()
	var ln net.Listener
	require.Eventually(l.t, func() bool {
		var err error
		ln, err = net.Listen("tcp", l.addr)
		return err == nil
	}, 5*time.Second, 10*time.Millisecond)
	l.serve(ln)
}
