package web

import (
	"bufio"
	"context"
	"crypto/rand"
	"crypto/sha1"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"sync"
	"time"
)

// A minimal Chrome DevTools Protocol client over a WebSocket written with
// the standard library, enough to drive headless Chromium in tests.

// findChromium returns the browser binary, or "" when there is none.
func findChromium() string {
	if p := os.Getenv("ARBITER_CHROMIUM"); p != "" {
		return p
	}
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable", "headless_shell"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	return ""
}

// browser is a running headless Chromium.
type browser struct {
	cmd  *exec.Cmd
	addr string // host:port of the DevTools endpoint
}

var devtoolsLine = regexp.MustCompile(`DevTools listening on ws://([^/\s]+)/`)

// startBrowser launches Chromium with a fresh profile and waits for its
// DevTools endpoint.
func startBrowser(ctx context.Context, bin, profile string) (*browser, error) {
	cmd := exec.CommandContext(ctx, bin, "--headless", "--no-sandbox", "--disable-gpu",
		"--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run",
		"--disable-dev-shm-usage", "--user-data-dir="+profile, "--remote-debugging-port=0",
		"--remote-debugging-address=127.0.0.1", "--window-size=1280,1600", "about:blank")
	stderr, err := cmd.StderrPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("start %s: %w", bin, err)
	}
	found := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			if m := devtoolsLine.FindStringSubmatch(sc.Text()); m != nil {
				found <- m[1]
				break
			}
		}
		_, _ = io.Copy(io.Discard, stderr)
	}()
	select {
	case addr := <-found:
		return &browser{cmd: cmd, addr: addr}, nil
	case <-time.After(20 * time.Second):
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
		return nil, errors.New("chromium did not open its DevTools endpoint")
	}
}

func (b *browser) close() {
	_ = b.cmd.Process.Kill()
	_ = b.cmd.Wait()
}

// page returns a connection to the browser's first page.
func (b *browser) page() (*cdp, error) {
	var targets []struct {
		Type string `json:"type"`
		URL  string `json:"webSocketDebuggerUrl"`
	}
	for try := 0; ; try++ {
		resp, err := http.Get("http://" + b.addr + "/json/list")
		if err == nil {
			err = json.NewDecoder(resp.Body).Decode(&targets)
			resp.Body.Close()
		}
		for _, t := range targets {
			if t.Type == "page" && t.URL != "" {
				return dialCDP(t.URL)
			}
		}
		if try > 50 {
			return nil, fmt.Errorf("no page target: %v", err)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// cdp is one DevTools session over a WebSocket.
type cdp struct {
	conn net.Conn
	r    *bufio.Reader
	wmu  sync.Mutex
	next int

	mu      sync.Mutex
	waiting map[int]chan cdpReply
	events  []string // methods of events received
	err     error
}

type cdpReply struct {
	Result json.RawMessage `json:"result"`
	Error  *struct {
		Message string `json:"message"`
	} `json:"error"`
}

// dialCDP opens the WebSocket (RFC 6455 client handshake).
func dialCDP(wsURL string) (*cdp, error) {
	u, err := url.Parse(wsURL)
	if err != nil {
		return nil, err
	}
	conn, err := net.DialTimeout("tcp", u.Host, 5*time.Second)
	if err != nil {
		return nil, err
	}
	var k [16]byte
	_, _ = rand.Read(k[:])
	key := base64.StdEncoding.EncodeToString(k[:])
	fmt.Fprintf(conn, "GET %s HTTP/1.1\r\nHost: %s\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: %s\r\nSec-WebSocket-Version: 13\r\n\r\n", u.RequestURI(), u.Host, key)
	r := bufio.NewReaderSize(conn, 1<<16)
	resp, err := http.ReadResponse(r, &http.Request{Method: http.MethodGet})
	if err != nil {
		conn.Close()
		return nil, fmt.Errorf("websocket handshake: %w", err)
	}
	sum := sha1.Sum([]byte(key + "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"))
	if resp.StatusCode != http.StatusSwitchingProtocols || resp.Header.Get("Sec-WebSocket-Accept") != base64.StdEncoding.EncodeToString(sum[:]) {
		conn.Close()
		return nil, fmt.Errorf("websocket handshake: %s", resp.Status)
	}
	c := &cdp{conn: conn, r: r, waiting: map[int]chan cdpReply{}}
	go c.readLoop()
	return c, nil
}

// writeFrame sends one masked frame, as a client must.
func (c *cdp) writeFrame(op byte, payload []byte) error {
	c.wmu.Lock()
	defer c.wmu.Unlock()
	hdr := []byte{0x80 | op}
	n := len(payload)
	switch {
	case n < 126:
		hdr = append(hdr, 0x80|byte(n))
	case n < 1<<16:
		hdr = append(hdr, 0x80|126, byte(n>>8), byte(n))
	default:
		hdr = append(hdr, 0x80|127)
		hdr = binary.BigEndian.AppendUint64(hdr, uint64(n))
	}
	var mask [4]byte
	_, _ = rand.Read(mask[:])
	hdr = append(hdr, mask[:]...)
	masked := make([]byte, n)
	for i := range payload {
		masked[i] = payload[i] ^ mask[i%4]
	}
	_, err := c.conn.Write(append(hdr, masked...))
	return err
}

// readMessage reads one whole message, answering pings.
func (c *cdp) readMessage() ([]byte, error) {
	var msg []byte
	for {
		var h [2]byte
		if _, err := io.ReadFull(c.r, h[:]); err != nil {
			return nil, err
		}
		fin, op := h[0]&0x80 != 0, h[0]&0x0f
		n := uint64(h[1] & 0x7f)
		switch n {
		case 126:
			var b [2]byte
			if _, err := io.ReadFull(c.r, b[:]); err != nil {
				return nil, err
			}
			n = uint64(binary.BigEndian.Uint16(b[:]))
		case 127:
			var b [8]byte
			if _, err := io.ReadFull(c.r, b[:]); err != nil {
				return nil, err
			}
			n = binary.BigEndian.Uint64(b[:])
		}
		var mask [4]byte
		if h[1]&0x80 != 0 {
			if _, err := io.ReadFull(c.r, mask[:]); err != nil {
				return nil, err
			}
		}
		if n > 64<<20 {
			return nil, fmt.Errorf("websocket frame of %d bytes", n)
		}
		p := make([]byte, n)
		if _, err := io.ReadFull(c.r, p); err != nil {
			return nil, err
		}
		if h[1]&0x80 != 0 {
			for i := range p {
				p[i] ^= mask[i%4]
			}
		}
		switch op {
		case 8:
			return nil, io.EOF
		case 9:
			_ = c.writeFrame(10, p)
			continue
		case 10:
			continue
		}
		msg = append(msg, p...)
		if fin {
			return msg, nil
		}
	}
}

func (c *cdp) readLoop() {
	for {
		data, err := c.readMessage()
		if err != nil {
			c.mu.Lock()
			c.err = err
			for id, ch := range c.waiting {
				close(ch)
				delete(c.waiting, id)
			}
			c.mu.Unlock()
			return
		}
		var m struct {
			ID     int    `json:"id"`
			Method string `json:"method"`
			cdpReply
		}
		if json.Unmarshal(data, &m) != nil {
			continue
		}
		c.mu.Lock()
		if m.Method != "" {
			c.events = append(c.events, m.Method)
		} else if ch, ok := c.waiting[m.ID]; ok {
			ch <- m.cdpReply
			delete(c.waiting, m.ID)
		}
		c.mu.Unlock()
	}
}

// call sends a command and waits for its reply.
func (c *cdp) call(method string, params any, result any) error {
	c.mu.Lock()
	if c.err != nil {
		c.mu.Unlock()
		return c.err
	}
	c.next++
	id := c.next
	ch := make(chan cdpReply, 1)
	c.waiting[id] = ch
	c.mu.Unlock()
	if params == nil {
		params = struct{}{}
	}
	data, err := json.Marshal(map[string]any{"id": id, "method": method, "params": params})
	if err != nil {
		return err
	}
	if err := c.writeFrame(1, data); err != nil {
		return err
	}
	select {
	case rep, ok := <-ch:
		if !ok {
			return fmt.Errorf("%s: connection closed", method)
		}
		if rep.Error != nil {
			return fmt.Errorf("%s: %s", method, rep.Error.Message)
		}
		if result != nil {
			return json.Unmarshal(rep.Result, result)
		}
		return nil
	case <-time.After(20 * time.Second):
		return fmt.Errorf("%s: no reply", method)
	}
}

// eval evaluates a JavaScript expression in the page and returns its value.
func (c *cdp) eval(expr string) (any, error) {
	var r struct {
		Result struct {
			Value any `json:"value"`
		} `json:"result"`
		Exception *struct {
			Text string `json:"text"`
		} `json:"exceptionDetails"`
	}
	if err := c.call("Runtime.evaluate", map[string]any{"expression": expr, "returnByValue": true, "awaitPromise": true}, &r); err != nil {
		return nil, err
	}
	if r.Exception != nil {
		return nil, fmt.Errorf("javascript %q: %s", expr, r.Exception.Text)
	}
	return r.Result.Value, nil
}

// waitTrue polls a JavaScript condition until it holds.
func (c *cdp) waitTrue(expr string, timeout time.Duration) error {
	deadline := time.Now().Add(timeout)
	for {
		v, err := c.eval(expr)
		if err == nil && v == true {
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("timed out waiting for %s (last: %v, %v)", expr, v, err)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// navigate loads a URL and waits until the document is complete.
func (c *cdp) navigate(u string) error {
	if err := c.call("Page.navigate", map[string]any{"url": u}, nil); err != nil {
		return err
	}
	return c.waitTrue(fmt.Sprintf("location.href === %q && document.readyState === 'complete'", u), 15*time.Second)
}

// screenshot returns a PNG of the page.
func (c *cdp) screenshot() ([]byte, error) {
	var r struct {
		Data string `json:"data"`
	}
	if err := c.call("Page.captureScreenshot", map[string]any{"format": "png", "captureBeyondViewport": true}, &r); err != nil {
		return nil, err
	}
	return base64.StdEncoding.DecodeString(r.Data)
}

// sawEvent reports whether an event with the method was received.
func (c *cdp) sawEvent(method string) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, m := range c.events {
		if strings.EqualFold(m, method) {
			return true
		}
	}
	return false
}

func (c *cdp) close() { c.conn.Close() }
