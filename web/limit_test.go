package web

import (
	"io"
	"net/http"
	"net/netip"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// fakeClock is the site's time in tests: it moves only when told.
type fakeClock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *fakeClock) now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *fakeClock) advance(d time.Duration) {
	c.mu.Lock()
	c.t = c.t.Add(d)
	c.mu.Unlock()
}

// tryLogin posts the login form of a client and returns the status and,
// for a refusal by the limit, its Retry-After in seconds.
func tryLogin(t *testing.T, c *client, name, password string, header http.Header) (int, int) {
	t.Helper()
	req, err := http.NewRequest(http.MethodGet, c.e.srv.URL+"/console/login", nil)
	require.NoError(t, err)
	for k, v := range header {
		req.Header[k] = v
	}
	resp, err := c.http.Do(req)
	require.NoError(t, err)
	body, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	require.NoError(t, err)
	m := csrfInput.FindSubmatch(body)
	require.NotNil(t, m, "login form token")
	form := url.Values{"csrf": {string(m[1])}, "name": {name}, "password": {password}}
	req, err = http.NewRequest(http.MethodPost, c.e.srv.URL+"/console/login", strings.NewReader(form.Encode()))
	require.NoError(t, err)
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	for k, v := range header {
		req.Header[k] = v
	}
	resp, err = c.http.Do(req)
	require.NoError(t, err)
	resp.Body.Close()
	retry := 0
	if resp.StatusCode == http.StatusTooManyRequests {
		retry, err = strconv.Atoi(resp.Header.Get("Retry-After"))
		require.NoError(t, err, "Retry-After")
	}
	return resp.StatusCode, retry
}

// Strangers on the venue's address guess the chief's password and other
// names as fast as they are let: the chief, from a fresh browser on the
// same address, waits a few seconds at most.
func TestLoginLimitNeverLocksOutTheChief(t *testing.T) {
	for _, guessed := range []string{"chief", "deputy", "nobody"} {
		t.Run(guessed, func(t *testing.T) {
			e := newEvent(t)
			clock := &fakeClock{t: time.Date(2026, 5, 1, 10, 0, 0, 0, time.UTC)}
			e.site.now = clock.now
			stranger := e.client()
			refused, delayed := 0, 0
			for range 40 {
				code, retry := tryLogin(t, stranger, guessed, "guess", nil)
				switch code {
				case http.StatusUnauthorized:
					refused++
				case http.StatusTooManyRequests:
					delayed++
					require.Positive(t, retry)
					require.LessOrEqual(t, retry, 5, "a wait of a few seconds at most")
					clock.advance(time.Duration(retry) * time.Second)
				default:
					t.Fatalf("a guess got %d", code)
				}
			}
			assert.Positive(t, delayed, "the guesser was slowed down")
			assert.Less(t, refused, 40, "not every guess was checked")

			chief := e.client()
			code, retry := tryLogin(t, chief, "chief", "arbiter", nil)
			if code == http.StatusTooManyRequests {
				assert.LessOrEqual(t, retry, 5)
				clock.advance(time.Duration(retry) * time.Second)
				code, _ = tryLogin(t, chief, "chief", "arbiter", nil)
			}
			assert.Equal(t, http.StatusSeeOther, code, "the chief logs in after a few seconds")
		})
	}
}

// The waits grow from nothing to a few seconds, per key, and are
// forgotten after a quiet while.
func TestLoginLimitBackoff(t *testing.T) {
	t0 := time.Date(2026, 5, 1, 10, 0, 0, 0, time.UTC)
	l := newLoginLimit()
	var waits []time.Duration
	for range 10 {
		l.fail(t0, "a", "b")
		waits = append(waits, l.wait(t0, "a"))
	}
	s := time.Second
	assert.Equal(t, []time.Duration{0, 0, 0, 0, 0, 1 * s, 2 * s, 4 * s, 5 * s, 5 * s}, waits)
	assert.Equal(t, 5*s, l.wait(t0, "b"), "every key counts")
	assert.Zero(t, l.wait(t0, "c"), "other keys are free")
	assert.Equal(t, 5*s, l.wait(t0, "c", "a"), "the longest wait of the keys")
	assert.Equal(t, 2*s, l.wait(t0.Add(3*s), "a"))
	assert.Zero(t, l.wait(t0.Add(5*s), "a"))

	l.fail(t0.Add(loginForget), "a")
	assert.Zero(t, l.wait(t0.Add(loginForget), "a"), "failures are forgotten after a quiet while")
	l.succeed("b")
	assert.Zero(t, l.wait(t0, "b"), "a success forgets them at once")
}

func TestAddressKey(t *testing.T) {
	tests := []struct{ a, want string }{
		{"192.0.2.7", "address:192.0.2.7"},
		{"::ffff:192.0.2.7", "address:::ffff:192.0.2.7"},
		{"2001:db8:1:2:3:4:5:6", "address:2001:db8:1:2::/64"},
		{"2001:db8:1:2:ffff::1", "address:2001:db8:1:2::/64"},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, addressKey(netip.MustParseAddr(tt.a)), tt.a)
	}
}
