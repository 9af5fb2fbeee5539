package web

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// serveOnLoopback runs the site's server with timeouts t on a loopback
// port and returns its address and the number of connections it holds.
func serveOnLoopback(t *testing.T, e *event, tm Timeouts) (string, *atomic.Int64) {
	t.Helper()
	srv := NewServer(e.site, tm)
	open := &atomic.Int64{}
	srv.ConnState = func(_ net.Conn, st http.ConnState) {
		switch st {
		case http.StateNew:
			open.Add(1)
		case http.StateClosed, http.StateHijacked:
			open.Add(-1)
		}
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ln) }()
	t.Cleanup(func() {
		_ = srv.Close()
		assert.ErrorIs(t, <-done, http.ErrServerClosed)
	})
	return ln.Addr().String(), open
}

// A POST whose body trickles in is cut off once the read timeout has
// passed, long before the client would have finished sending it.
func TestSlowBodyIsCutOff(t *testing.T) {
	e := newEvent(t)
	addr, _ := serveOnLoopback(t, e, Timeouts{Read: 300 * time.Millisecond})
	conn, err := net.Dial("tcp", addr)
	require.NoError(t, err)
	defer conn.Close()
	_, err = fmt.Fprintf(conn, "POST /console/login HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 1000\r\n\r\n")
	require.NoError(t, err)
	ended := make(chan struct{})
	go func() {
		_, _ = io.Copy(io.Discard, conn) // until the server closes the connection
		close(ended)
	}()
	start := time.Now()
	sent := 0
	for ; sent < 100; sent++ { // 100 bytes, one every 30 ms: 3 s at most
		select {
		case <-ended:
		case <-time.After(30 * time.Millisecond):
			if _, err := conn.Write([]byte("a")); err == nil {
				continue
			}
		}
		break
	}
	select {
	case <-ended:
	case <-time.After(2 * time.Second):
		t.Fatalf("the server still reads a trickling body after %v (%d bytes sent)", time.Since(start), sent)
	}
	assert.Less(t, sent, 100, "the connection ended before the body was sent")
	assert.Less(t, time.Since(start), 2*time.Second)
}

// Idle connections, with a request behind them or none at all, are closed
// once the idle timeout has passed: 500 of them do not stay open.
func TestIdleConnectionsAreClosed(t *testing.T) {
	e := newEvent(t)
	addr, open := serveOnLoopback(t, e, Timeouts{ReadHeader: 200 * time.Millisecond, Idle: 200 * time.Millisecond})
	const n = 500
	conns := make([]net.Conn, 0, n)
	defer func() {
		for _, c := range conns {
			c.Close()
		}
	}()
	for i := range n {
		c, err := net.Dial("tcp", addr)
		require.NoError(t, err)
		conns = append(conns, c)
		if i%2 == 1 {
			continue // never sends a request
		}
		_, err = fmt.Fprint(c, "GET /api/v1 HTTP/1.1\r\nHost: x\r\n\r\n")
		require.NoError(t, err)
		resp, err := http.ReadResponse(bufio.NewReader(c), nil)
		require.NoError(t, err)
		_, _ = io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		require.Equal(t, http.StatusOK, resp.StatusCode)
		require.False(t, resp.Close, "the connection is kept alive")
	}
	require.Eventually(t, func() bool { return open.Load() == 0 }, 10*time.Second, 20*time.Millisecond,
		"%d of %d idle connections are still open", open.Load(), n)
	// The clients see their connections closed too.
	for _, c := range conns[:10] {
		require.NoError(t, c.SetReadDeadline(time.Now().Add(time.Second)))
		_, err := c.Read(make([]byte, 1))
		assert.ErrorIs(t, err, io.EOF)
	}
}

// The live stream keeps going long after the read and write timeouts of
// ordinary requests.
func TestStreamOutlivesRequestTimeouts(t *testing.T) {
	e := newEvent(t)
	addr, _ := serveOnLoopback(t, e, Timeouts{Read: 150 * time.Millisecond, Write: 150 * time.Millisecond})
	conn, err := net.Dial("tcp", addr)
	require.NoError(t, err)
	defer conn.Close()
	_, err = fmt.Fprint(conn, "GET /events HTTP/1.1\r\nHost: x\r\n\r\n")
	require.NoError(t, err)
	br := bufio.NewReader(conn)
	resp, err := http.ReadResponse(br, nil)
	require.NoError(t, err)
	defer resp.Body.Close()
	require.Equal(t, http.StatusOK, resp.StatusCode)
	require.NoError(t, conn.SetReadDeadline(time.Now().Add(5*time.Second)))
	lines := bufio.NewScanner(resp.Body)
	start, beats := time.Now(), 0
	for time.Since(start) < 1200*time.Millisecond {
		if !lines.Scan() {
			t.Fatalf("the stream ended after %v (%d heartbeats): %v", time.Since(start), beats, lines.Err())
		}
		if strings.HasPrefix(lines.Text(), ": beat") {
			beats++
		}
	}
	assert.GreaterOrEqual(t, beats, 3, "heartbeats every 200 ms")
}
