package web

import (
	"net"
	"net/http"
	"sync"
	"time"
)

// loginLimit slows down password guessing: a host that fails to log in
// maxFailures times within window is refused until the window has passed
// since its first failure.
type loginLimit struct {
	mu       sync.Mutex
	window   time.Duration
	max      int
	failures map[string]*failures
}

type failures struct {
	first time.Time
	n     int
}

func newLoginLimit(max int, window time.Duration) *loginLimit {
	return &loginLimit{window: window, max: max, failures: map[string]*failures{}}
}

// host is the client's address without the port.
func host(r *http.Request) string {
	h, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		return r.RemoteAddr
	}
	return h
}

// blocked reports whether a host must wait, and how long.
func (l *loginLimit) blocked(h string, now time.Time) (time.Duration, bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	f, ok := l.failures[h]
	if !ok {
		return 0, false
	}
	if now.Sub(f.first) >= l.window {
		delete(l.failures, h)
		return 0, false
	}
	if f.n < l.max {
		return 0, false
	}
	return l.window - now.Sub(f.first), true
}

// fail counts a failed login.
func (l *loginLimit) fail(h string, now time.Time) {
	l.mu.Lock()
	defer l.mu.Unlock()
	for k, f := range l.failures { // forget old failures now and then
		if now.Sub(f.first) >= l.window {
			delete(l.failures, k)
		}
	}
	f, ok := l.failures[h]
	if !ok {
		f = &failures{first: now}
		l.failures[h] = f
	}
	f.n++
}

// succeed forgets a host's failures.
func (l *loginLimit) succeed(h string) {
	l.mu.Lock()
	delete(l.failures, h)
	l.mu.Unlock()
}
