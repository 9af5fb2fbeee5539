package web

import (
	"crypto/rand"
	"encoding/base64"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/crypto/argon2"
	"golang.org/x/crypto/bcrypt"
)

func bcryptOf(t testing.TB, password string) string {
	t.Helper()
	h, err := bcrypt.GenerateFromPassword([]byte(password), bcrypt.MinCost)
	require.NoError(t, err)
	return string(h)
}

func argon2Of(password string, m, tm uint32, p uint8) string {
	salt := make([]byte, 16)
	_, _ = rand.Read(salt)
	key := argon2.IDKey([]byte(password), salt, tm, m, p, 32)
	return fmt.Sprintf("$argon2id$v=19$m=%d,t=%d,p=%d$%s$%s", m, tm, p,
		base64.RawStdEncoding.EncodeToString(salt), base64.RawStdEncoding.EncodeToString(key))
}

func TestHashedPasswords(t *testing.T) {
	b := bcryptOf(t, "s3cret")
	a := argon2Of("s3cret", 64, 1, 1)
	tests := []struct {
		configured, typed string
		ok                bool
	}{
		{b, "s3cret", true},
		{b, "s3creT", false},
		{b, "", false},
		{strings.Replace(b, "$2a$", "$2b$", 1), "s3cret", true},
		{b[:len(b)-1], "s3cret", false},
		{a, "s3cret", true},
		{a, "s3cret ", false},
		{strings.Replace(a, "t=1", "t=2", 1), "s3cret", false},
		{"$argon2id$v=19$m=64,t=1,p=1$x$y", "x", false},
		{"$argon2i$v=19$m=64,t=1,p=1$c2FsdHNhbHQ$aGFzaGhhc2hoYXNoaGFzaA", "x", false},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.ok, checkPassword(tt.configured, tt.typed), "%s / %s", tt.configured, tt.typed)
	}

	h, err := HashPassword("a venue password")
	require.NoError(t, err)
	assert.True(t, strings.HasPrefix(h, "$2a$11$"), h)
	assert.True(t, checkPassword(h, "a venue password"))
	h2, err := HashPassword("a venue password")
	require.NoError(t, err)
	assert.NotEqual(t, h, h2, "salted")
	_, err = HashPassword("")
	assert.ErrorContains(t, err, "empty")
	_, err = HashPassword(strings.Repeat("x", 73))
	assert.ErrorContains(t, err, "at most 72")
}

func TestPasswordFormat(t *testing.T) {
	tests := []struct {
		configured string
		kind       passwordKind
		problem    string
	}{
		{"arbiter", plainPassword, ""},
		{"sha256:2bb80d537b1da3e38bd30361aa855686bde0eacd7162fef6a25fe97bf527a25b", sha256Password, ""},
		{"sha256:abcd", sha256Password, "64 hexadecimal digits"},
		{bcryptOf(t, "x"), bcryptPassword, ""},
		{"$2b$10$short", bcryptPassword, "not a valid bcrypt hash"},
		{argon2Of("x", 64, 1, 1), argon2Password, ""},
		{"$argon2id$v=19$m=64,t=1,p=1$c2FsdHNhbHQ", argon2Password, "want $argon2id$"},
		{"$argon2id$v=16$m=64,t=1,p=1$c2FsdHNhbHQ$aGFzaGhhc2hoYXNoaGFzaA", argon2Password, "want v=19"},
		{"$argon2id$v=19$m=99999999,t=1,p=1$c2FsdHNhbHQ$aGFzaGhhc2hoYXNoaGFzaA", argon2Password, "memory"},
		{"$argon2id$v=19$m=64,t=0,p=1$c2FsdHNhbHQ$aGFzaGhhc2hoYXNoaGFzaA", argon2Password, "passes"},
		{"$argon2id$v=19$m=64,t=1,p=1,x=2$c2FsdHNhbHQ$aGFzaGhhc2hoYXNoaGFzaA", argon2Password, "parameters"},
		{"$argon2id$v=19$m=64,t=1,p=1$c2FsdA$aGFzaGhhc2hoYXNoaGFzaA", argon2Password, "salt"},
	}
	for _, tt := range tests {
		kind, err := passwordFormat(tt.configured)
		assert.Equal(t, tt.kind, kind, tt.configured)
		if tt.problem == "" {
			assert.NoError(t, err, tt.configured)
		} else {
			assert.ErrorContains(t, err, tt.problem, tt.configured)
		}
	}
}

func FuzzPasswordFormat(f *testing.F) {
	for _, s := range []string{"arbiter", "sha256:abcd", "$2b$10$short", "$argon2id$v=19$m=64,t=1,p=1$c2FsdHNhbHQ$aGFzaGhhc2hoYXNoaGFzaA",
		"$argon2id$v=19$m=+64,t=1,p=1$c2FsdHNhbHQ$aGFzaGhhc2hoYXNoaGFzaA", "$2a$04$" + strings.Repeat("a", 53), ""} {
		f.Add(s, "x")
	}
	f.Fuzz(func(t *testing.T, configured, typed string) {
		kind, err := passwordFormat(configured)
		if err != nil {
			assert.False(t, checkPassword(configured, typed), "a broken hash matches nothing")
			return
		}
		if kind == plainPassword {
			assert.Equal(t, configured == typed, checkPassword(configured, typed))
		}
	})
}

func TestCheckConfig(t *testing.T) {
	hashed := bcryptOf(t, "a venue password")
	demo := bcryptOf(t, DemoPassword)
	users := func(pw ...string) []User {
		var us []User
		for i, p := range pw {
			us = append(us, User{Name: fmt.Sprintf("u%d", i), Password: p})
		}
		return us
	}
	const venue = "a listen address beyond this machine"
	tests := []struct {
		name     string
		exposed  string
		users    []User
		trusted  []string
		metrics  []string
		problems []string // what each problem's text contains
		warnings int
	}{
		{"demo on this machine", "", users(DemoPassword), nil, nil, nil, 1},
		{"demo on the venue network", venue, users(DemoPassword), nil, nil, []string{`Users[0].Password = "(hidden)": user "u0" has the demo password "arbiter", refused with ` + venue}, 0},
		{"demo among hashed", venue, users(hashed, demo), nil, nil, []string{`Users[1].Password`, "demo password"}, 0},
		{"demo with boards", "boards", users(demo), nil, nil, []string{"demo password", "refused with boards"}, 0},
		{"no login with boards", "boards", nil, nil, nil, []string{`Users = "(none)"`, "an event with boards needs at least one arbiter login"}, 0},
		{"no login on this machine", "", nil, nil, nil, nil, 0},
		{"plain password with boards", "boards", users("s3cret-pw"), nil, nil, []string{"stored in plain text", "arbiter hash-password"}, 0},
		{"plain password on this machine", "", users("s3cret-pw"), nil, nil, nil, 1},
		{"sha256 on the venue network", venue, users("sha256:2bb80d537b1da3e38bd30361aa855686bde0eacd7162fef6a25fe97bf527a25b"), nil, nil, []string{"unsalted SHA-256"}, 0},
		{"hashed with boards", "boards", users(hashed, argon2Of("x", 64, 1, 1)), nil, nil, nil, 0},
		{"broken hash on this machine", "", users("$2b$10$short"), nil, nil, []string{"Users[0].Password", "not a valid bcrypt hash"}, 0},
		{"networks", "", users(hashed), []string{"10.0.0.0/8", "192.168.1.10", "nope"}, []string{"::1", "10.0.0.0/33"},
			[]string{`TrustedProxies[2] = "nope"`, `MetricsAllow[1] = "10.0.0.0/33"`}, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg := Config{Users: tt.users, TrustedProxies: tt.trusted, MetricsAllow: tt.metrics}
			problems, warnings := CheckConfig(cfg, tt.exposed)
			var all []string
			for _, p := range problems {
				all = append(all, p.String())
			}
			text := strings.Join(all, "\n")
			if len(tt.problems) == 0 {
				assert.Empty(t, problems)
			}
			for _, want := range tt.problems {
				assert.Contains(t, text, want)
			}
			assert.Len(t, warnings, tt.warnings, "%q", warnings)
		})
	}
}

func TestClientAddress(t *testing.T) {
	nets, problems := parseNets("TrustedProxies", []string{"10.0.0.1", "192.168.0.0/16", "::1"})
	require.Empty(t, problems)
	s := &Site{trusted: nets}
	tests := []struct {
		remote string
		xff    []string
		proto  string
		client string
		secure bool
	}{
		{"203.0.113.9:5000", nil, "", "203.0.113.9", false},
		{"203.0.113.9:5000", []string{"198.51.100.1"}, "https", "203.0.113.9", false}, // a stranger's header is ignored
		{"10.0.0.1:5000", []string{"198.51.100.1"}, "https", "198.51.100.1", true},
		{"10.0.0.1:5000", []string{"198.51.100.1"}, "http", "198.51.100.1", false},
		{"10.0.0.1:5000", []string{"6.6.6.6, 198.51.100.1, 192.168.3.4"}, "https, http", "198.51.100.1", true},
		{"10.0.0.1:5000", []string{"6.6.6.6", "198.51.100.1"}, "", "198.51.100.1", false},
		{"10.0.0.1:5000", []string{"192.168.3.4"}, "", "192.168.3.4", false}, // every hop trusted: the farthest
		{"10.0.0.1:5000", []string{"junk, 192.168.3.4"}, "", "192.168.3.4", false},
		{"10.0.0.1:5000", []string{"198.51.100.1:443"}, "HTTPS", "198.51.100.1", true},
		{"[::1]:5000", []string{"2001:db8::7"}, "https", "2001:db8::7", true},
		{"[::ffff:10.0.0.1]:5000", []string{"198.51.100.1"}, "", "198.51.100.1", false},
		{"10.0.0.1:5000", nil, "https", "10.0.0.1", true},
	}
	for _, tt := range tests {
		r := httptest.NewRequest(http.MethodGet, "/", nil)
		r.RemoteAddr = tt.remote
		for _, v := range tt.xff {
			r.Header.Add("X-Forwarded-For", v)
		}
		if tt.proto != "" {
			r.Header.Set("X-Forwarded-Proto", tt.proto)
		}
		assert.Equal(t, netip.MustParseAddr(tt.client), s.clientAddr(r), "%s %q", tt.remote, tt.xff)
		assert.Equal(t, tt.secure, s.secure(r), "%s %q %s", tt.remote, tt.xff, tt.proto)
	}
	s.secureCookies = true
	r := httptest.NewRequest(http.MethodGet, "/", nil)
	assert.True(t, s.secure(r), "http.secure_cookies")
}

// Behind a TLS-terminating proxy the session cookie is Secure, and the
// login limit counts the client's address, not the proxy's.
func TestBehindAProxy(t *testing.T) {
	e := newEvent(t)
	e.site.trusted, _ = parseNets("TrustedProxies", []string{"127.0.0.1"})
	clock := &fakeClock{}
	e.site.now = clock.now
	via := func(client string) http.Header {
		return http.Header{"X-Forwarded-For": {client}, "X-Forwarded-Proto": {"https"}}
	}
	// A stranger at 198.51.100.1 guesses the deputy's password until it waits.
	stranger := e.client()
	for code := 0; code != http.StatusTooManyRequests; {
		code, _ = tryLogin(t, stranger, "deputy", "guess", via("198.51.100.1"))
	}
	code, _ := tryLogin(t, e.client(), "chief", "arbiter", via("198.51.100.1"))
	assert.Equal(t, http.StatusTooManyRequests, code, "the stranger's address waits, whatever the name")

	// The chief, elsewhere behind the same proxy, does not.
	chief := e.client()
	req, err := http.NewRequest(http.MethodGet, e.srv.URL+"/console/login", nil)
	require.NoError(t, err)
	req.Header = via("198.51.100.2")
	resp, err := chief.http.Do(req)
	require.NoError(t, err)
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	assert.Contains(t, resp.Header.Get("Set-Cookie"), "Secure", "the login cookie")
	token := csrfInput.FindStringSubmatch(string(body))[1]
	req, err = http.NewRequest(http.MethodPost, e.srv.URL+"/console/login",
		strings.NewReader("csrf="+token+"&name=chief&password="+DemoPassword))
	require.NoError(t, err)
	req.Header = via("198.51.100.2")
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	resp, err = chief.http.Do(req)
	require.NoError(t, err)
	resp.Body.Close()
	require.Equal(t, http.StatusSeeOther, resp.StatusCode)
	var session *http.Cookie
	for _, c := range resp.Cookies() {
		if c.Name == sessionCookie {
			session = c
		}
	}
	require.NotNil(t, session)
	assert.True(t, session.Secure, "the session cookie is Secure behind an HTTPS proxy")

	// Without the proxy's word, plain HTTP gets no Secure cookie.
	e.site.trusted = nil
	resp, err = e.client().http.Get(e.srv.URL + "/console/login")
	require.NoError(t, err)
	resp.Body.Close()
	assert.NotContains(t, resp.Header.Get("Set-Cookie"), "Secure")
}

// /healthz and /metrics carry the pages' security headers, and /metrics
// answers only the clients http.metrics_allow lists.
func TestHealthAndMetrics(t *testing.T) {
	e := newEvent(t)
	e.site.Handle("GET /healthz", http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { _, _ = io.WriteString(w, "ok\n") }))
	c := e.client()
	for _, path := range []string{"/healthz", "/metrics"} {
		code, _, h := c.get(path)
		assert.Equal(t, http.StatusOK, code, path)
		assert.Equal(t, "nosniff", h.Get("X-Content-Type-Options"), path)
		assert.Equal(t, "DENY", h.Get("X-Frame-Options"), path)
		assert.Contains(t, h.Get("Content-Security-Policy"), "frame-ancestors 'none'", path)
	}
	get := func(header http.Header) int {
		req, err := http.NewRequest(http.MethodGet, e.srv.URL+"/metrics", nil)
		require.NoError(t, err)
		req.Header = header
		resp, err := c.http.Do(req)
		require.NoError(t, err)
		resp.Body.Close()
		return resp.StatusCode
	}
	assert.Equal(t, http.StatusOK, get(nil), "loopback by default")
	assert.Equal(t, http.StatusForbidden, get(http.Header{"X-Forwarded-For": {"203.0.113.9"}}), "relayed by a proxy nobody trusts")
	e.site.trusted, _ = parseNets("TrustedProxies", []string{"127.0.0.1"})
	assert.Equal(t, http.StatusForbidden, get(http.Header{"X-Forwarded-For": {"203.0.113.9"}}), "a stranger behind the trusted proxy")
	e.site.metricsAllow, _ = parseNets("MetricsAllow", []string{"203.0.113.0/24"})
	assert.Equal(t, http.StatusOK, get(http.Header{"X-Forwarded-For": {"203.0.113.9"}}), "the monitoring host behind the proxy")
	assert.Equal(t, http.StatusForbidden, get(nil), "loopback is no longer listed")
	code, _, _ := c.get("/healthz")
	assert.Equal(t, http.StatusOK, code, "the health check stays open")
}

// FuzzClientAddr feeds arbitrary X-Forwarded-For and X-Forwarded-Proto
// headers through a trusted proxy and from a stranger: the stranger's
// headers never count, and the client found is one the request named.
func FuzzClientAddr(f *testing.F) {
	for _, s := range []string{"198.51.100.1", "6.6.6.6, 10.0.0.1", "junk", "", "[::1]:80", "::ffff:1.2.3.4", "1.2.3.4:5, ,", "2001:db8::1%eth0"} {
		f.Add(s, "https")
		f.Add(s, "http, https")
	}
	nets, _ := parseNets("TrustedProxies", []string{"10.0.0.0/8", "::1"})
	s := &Site{trusted: nets}
	f.Fuzz(func(t *testing.T, xff, proto string) {
		r := httptest.NewRequest(http.MethodGet, "/", nil)
		r.Header.Set("X-Forwarded-For", xff)
		r.Header.Set("X-Forwarded-Proto", proto)
		r.RemoteAddr = "203.0.113.9:4000"
		assert.Equal(t, netip.MustParseAddr("203.0.113.9"), s.clientAddr(r), "a stranger's header")
		assert.False(t, s.secure(r))
		r.RemoteAddr = "10.1.2.3:4000"
		got := s.clientAddr(r)
		require.True(t, got.IsValid())
		if got != netip.MustParseAddr("10.1.2.3") {
			named := false
			for _, part := range strings.Split(xff, ",") {
				if a, ok := parseHop(part); ok && a == got {
					named = true
				}
			}
			assert.True(t, named, "%s is not in %q", got, xff)
		}
	})
}

// BenchmarkCheckPassword measures what one login costs at HashCost, the
// cost arbiter hash-password uses.
func BenchmarkCheckPassword(b *testing.B) {
	h, err := HashPassword("a venue password")
	require.NoError(b, err)
	for b.Loop() {
		if !checkPassword(h, "a venue password") {
			b.Fatal("the password does not match its hash")
		}
	}
}
