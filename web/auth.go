package web

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Cookie names. The session cookie is HttpOnly and SameSite=Strict; the
// login cookie carries the token that the login form must echo, so a
// stranger's page cannot log a browser in under the stranger's account.
const (
	sessionCookie = "arbiter_session"
	loginCookie   = "arbiter_login"
	csrfField     = "csrf"
	csrfHeader    = "X-CSRF-Token"
)

// session is one logged-in arbiter.
type session struct {
	user    string
	csrf    string
	pass    [32]byte // fingerprint of the configured password at login
	expires time.Time
}

// sessions holds the live sessions in memory: a restarted daemon asks
// arbiters to log in again.
type sessions struct {
	mu   sync.Mutex
	ttl  time.Duration
	byID map[string]*session
}

func newSessions(ttl time.Duration) *sessions {
	return &sessions{ttl: ttl, byID: map[string]*session{}}
}

// token returns 32 random bytes, URL-safe.
func token() string {
	var b [32]byte
	if _, err := rand.Read(b[:]); err != nil {
		panic("web: no randomness: " + err.Error()) // crypto/rand does not fail on supported systems
	}
	return base64.RawURLEncoding.EncodeToString(b[:])
}

func (ss *sessions) create(user string, pass [32]byte, now time.Time) (string, *session) {
	id := token()
	s := &session{user: user, csrf: token(), pass: pass, expires: now.Add(ss.ttl)}
	ss.mu.Lock()
	defer ss.mu.Unlock()
	for k, v := range ss.byID { // drop expired sessions now and then
		if now.After(v.expires) {
			delete(ss.byID, k)
		}
	}
	ss.byID[id] = s
	return id, s
}

func (ss *sessions) get(id string, now time.Time) (*session, bool) {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	s, ok := ss.byID[id]
	if !ok {
		return nil, false
	}
	if now.After(s.expires) {
		delete(ss.byID, id)
		return nil, false
	}
	return s, true
}

func (ss *sessions) drop(id string) {
	ss.mu.Lock()
	delete(ss.byID, id)
	ss.mu.Unlock()
}

// passwordPrint fingerprints a configured password, so a session ends
// when its user's password is changed.
func passwordPrint(configured string) [32]byte { return sha256.Sum256([]byte(configured)) }

// authenticate returns the user a name and password log in as. Only the
// named user's password is checked, but an unknown name costs as much as a
// known one (a check against the first user's password), so timing does not
// tell which names exist.
func (s *Site) authenticate(name, password string) (User, bool) {
	s.mu.RLock()
	users := s.users // SetUsers replaces the slice, never changes it
	s.mu.RUnlock()
	found := -1
	for i, u := range users {
		if subtle.ConstantTimeCompare([]byte(u.Name), []byte(name)) == 1 && found < 0 {
			found = i
		}
	}
	if found < 0 {
		if len(users) > 0 {
			checkPassword(users[0].Password, password)
		}
		return User{}, false
	}
	if !checkPassword(users[found].Password, password) {
		return User{}, false
	}
	return users[found], true
}

// limitKeys are the login limit's keys of an attempt to log in as name.
func (s *Site) limitKeys(r *http.Request, name string) []string {
	s.mu.RLock()
	known := slices.ContainsFunc(s.users, func(u User) bool { return u.Name == name })
	s.mu.RUnlock()
	if !known {
		name = "" // every unknown name counts under one key
	}
	return []string{accountKey(name), addressKey(s.clientAddr(r))}
}

// userValid reports whether a session's user still exists with the
// password it logged in with.
func (s *Site) userValid(sess *session) bool {
	s.mu.RLock()
	defer s.mu.RUnlock()
	for _, u := range s.users {
		if u.Name == sess.user {
			return passwordPrint(u.Password) == sess.pass
		}
	}
	return false
}

type ctxKey struct{}

// current returns the request's logged-in session.
func (s *Site) current(r *http.Request) (*session, bool) {
	c, err := r.Cookie(sessionCookie)
	if err != nil || c.Value == "" {
		return nil, false
	}
	sess, ok := s.sessions.get(c.Value, s.now())
	if !ok {
		return nil, false
	}
	if !s.userValid(sess) {
		s.sessions.drop(c.Value)
		return nil, false
	}
	return sess, true
}

// sessionOf returns the session the middleware put in the context.
func sessionOf(r *http.Request) *session {
	sess, _ := r.Context().Value(ctxKey{}).(*session)
	return sess
}

// console guards a console page: a visitor without a session is sent to
// the login form (pages) or refused with 401 (API and streams).
func (s *Site) console(h http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		sess, ok := s.current(r)
		if !ok {
			if strings.HasPrefix(r.URL.Path, "/console") && !strings.HasPrefix(r.URL.Path, "/console/events") {
				http.Redirect(w, r, "/console/login", http.StatusSeeOther)
				return
			}
			apiError(w, http.StatusUnauthorized, "log in to the arbiter console first")
			return
		}
		w.Header().Set("Cache-Control", "no-store")
		h(w, r.WithContext(context.WithValue(r.Context(), ctxKey{}, sess)))
	}
}

// arbiter guards a state-changing request: 401 without a session, 403
// without the session's CSRF token (form field or header).
func (s *Site) arbiter(h http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		sess, ok := s.current(r)
		if !ok {
			s.fail(w, r, http.StatusUnauthorized, "log in to the arbiter console first")
			return
		}
		r.Body = http.MaxBytesReader(w, r.Body, 64<<10)
		if err := r.ParseForm(); err != nil {
			s.fail(w, r, http.StatusBadRequest, "bad form: "+err.Error())
			return
		}
		got := r.PostForm.Get(csrfField)
		if got == "" {
			got = r.Header.Get(csrfHeader)
		}
		if subtle.ConstantTimeCompare([]byte(got), []byte(sess.csrf)) != 1 {
			s.fail(w, r, http.StatusForbidden, "missing or wrong CSRF token: reload the console and try again")
			return
		}
		w.Header().Set("Cache-Control", "no-store")
		h(w, r.WithContext(context.WithValue(r.Context(), ctxKey{}, sess)))
	}
}

// loginPage shows the login form with a fresh login token.
func (s *Site) loginPage(w http.ResponseWriter, r *http.Request) {
	if _, ok := s.current(r); ok {
		http.Redirect(w, r, "/console", http.StatusSeeOther)
		return
	}
	s.showLogin(w, r, http.StatusOK, "")
}

func (s *Site) showLogin(w http.ResponseWriter, r *http.Request, status int, problem string) {
	t := token()
	http.SetCookie(w, &http.Cookie{Name: loginCookie, Value: t, Path: "/console", HttpOnly: true,
		SameSite: http.SameSiteStrictMode, Secure: s.secure(r), MaxAge: 3600})
	w.Header().Set("Cache-Control", "no-store")
	s.render(w, r, status, "login", map[string]any{"CSRF": t, "Problem": problem})
}

// login checks the form and starts a session.
func (s *Site) login(w http.ResponseWriter, r *http.Request) {
	r.Body = http.MaxBytesReader(w, r.Body, 16<<10)
	if err := r.ParseForm(); err != nil {
		s.showLogin(w, r, http.StatusBadRequest, "The form could not be read.")
		return
	}
	c, err := r.Cookie(loginCookie)
	if err != nil || c.Value == "" || subtle.ConstantTimeCompare([]byte(c.Value), []byte(r.PostForm.Get(csrfField))) != 1 {
		s.showLogin(w, r, http.StatusForbidden, "The login form expired. Please try again.")
		return
	}
	now := s.now()
	name := r.PostForm.Get("name")
	keys := s.limitKeys(r, name)
	if wait := s.limit.wait(now, keys...); wait > 0 {
		secs := int((wait + time.Second - 1) / time.Second)
		w.Header().Set("Retry-After", strconv.Itoa(secs))
		s.log.Warn("console login delayed", "name", name, "client", s.client(r), "wait", wait)
		s.showLogin(w, r, http.StatusTooManyRequests, fmt.Sprintf("Too many failed logins: try again in %d seconds.", secs))
		return
	}
	u, ok := s.authenticate(name, r.PostForm.Get("password"))
	if !ok {
		s.limit.fail(now, keys...)
		s.log.Warn("console login refused", "name", name, "client", s.client(r), "peer", r.RemoteAddr)
		s.showLogin(w, r, http.StatusUnauthorized, "Wrong name or password.")
		return
	}
	s.limit.succeed(keys...)
	id, _ := s.sessions.create(u.Name, passwordPrint(u.Password), now)
	http.SetCookie(w, &http.Cookie{Name: sessionCookie, Value: id, Path: "/", HttpOnly: true,
		SameSite: http.SameSiteStrictMode, Secure: s.secure(r)})
	http.SetCookie(w, &http.Cookie{Name: loginCookie, Value: "", Path: "/console", MaxAge: -1})
	s.log.Info("console login", "user", u.Name, "client", s.client(r), "peer", r.RemoteAddr)
	http.Redirect(w, r, "/console", http.StatusSeeOther)
}

// logout ends the session.
func (s *Site) logout(w http.ResponseWriter, r *http.Request) {
	if c, err := r.Cookie(sessionCookie); err == nil {
		s.sessions.drop(c.Value)
	}
	http.SetCookie(w, &http.Cookie{Name: sessionCookie, Value: "", Path: "/", MaxAge: -1, HttpOnly: true, SameSite: http.SameSiteStrictMode, Secure: s.secure(r)})
	http.Redirect(w, r, "/", http.StatusSeeOther)
}
