// Package web serves the event's public pages, the arbiter console and the
// JSON API.
//
// Public pages (no login) show the event, every tournament's pairings
// (with the scores before each round), standings and crosstable, each
// player's rounds and performance, every game live with its board and
// ticking clocks, a game viewer with the move list and the time of every
// move, and the exports (scoresheets, TRF, the event archive). Boards are
// ARIA grids whose squares say what stands on them in words; the pieces
// are drawn from embedded SVG sets. Pages update without reloading
// through server-sent events from the director's hub: one shared feed
// encodes each update once for every stream (sse.go). Everything is
// embedded: templates, CSS and a small script, no external assets.
//
// The JSON API is under /api/v1 in camelCase, described by the OpenAPI
// document at /api/v1/openapi.json (api.go, openapi.json). /metrics serves
// the event's, the site's, the Go runtime's and the process's metrics from
// a registry of the site's own (metrics.go), to http.metrics_allow.
//
// The arbiter console sits behind a login (config console.users). Every
// state-changing request needs the session cookie and the session's CSRF
// token, and every arbiter action goes through the director with the
// logged-in user as who and a required why.
package web

import (
	"embed"
	"io/fs"
	"log/slog"
	"net/http"
	"slices"
	"sync"
	"time"

	"arbiter/director"
	"arbiter/export"
)

//go:embed templates static
var assets embed.FS

// Site is the web front of an event.
type Site struct {
	d *director.Director
	// reports writes the TRF and archive downloads: the director's, with
	// the event's record keys (city, arbiters, dates) of Config.Event.
	reports export.Reporter
	log     *slog.Logger
	mu      sync.RWMutex
	users   []User
	mux     *http.ServeMux
	pages   *pages

	sessions *sessions
	limit    *loginLimit
	// feed is the live updates, encoded once for every stream (sse.go).
	feed *liveFeed
	// closing ends the event streams when the server shuts down.
	closing   chan struct{}
	closeOnce sync.Once
	// heartbeat is how often an idle event stream sends a comment line, so
	// proxies keep it open and dead clients are noticed.
	heartbeat time.Duration
	// streamWrite is how long one write of an event stream may take.
	streamWrite time.Duration
	// now is the clock of sessions and the login limit.
	now func() time.Time

	// The network around the site (http.trusted_proxies, metrics_allow,
	// secure_cookies).
	trusted       netList
	metricsAllow  netList
	secureCookies bool

	// stats is the site's metrics registry, served at /metrics.
	stats *siteMetrics
	// links, if set, says how a multi-hall event's links are.
	links func() []Link
}

// Config is what the site needs to know beyond the event d runs. The zero
// value is a site with no console login, whose downloads carry only what
// the database knows, that believes no proxy's headers, serves /metrics
// to loopback only and marks the session cookie Secure only on HTTPS
// requests.
type Config struct {
	// Event is what the TRF and archive downloads say about the event
	// beyond its database (the TRF header records).
	Event export.Event
	// Users are the console logins.
	Users []User
	// TrustedProxies are the reverse proxies (CIDRs or addresses) whose
	// X-Forwarded-For and X-Forwarded-Proto headers are believed.
	TrustedProxies []string
	// MetricsAllow are the clients (CIDRs or addresses) that may read
	// /metrics; empty means loopback only.
	MetricsAllow []string
	// SecureCookies marks the session cookie Secure on every request.
	SecureCookies bool
}

// Link is the state of one hall's link to the hub of a multi-hall event,
// as the console shows it.
type Link struct {
	Hall string
	// Linked is whether the hub and the hall hear each other; Since is
	// when that last changed (zero: never linked since the daemon
	// started).
	Linked bool
	Since  time.Time
	// Waiting is the hall's facts the hub does not have yet, the oldest
	// of which has waited Lag.
	Waiting int
	Lag     time.Duration
	// Acknowledged is the last of the hall's facts the hub stored (its
	// sequence in the hall's stream), at AcknowledgedAt.
	Acknowledged   uint64
	AcknowledgedAt time.Time
	// Problems are the mistakes in the way of the link.
	Problems []string
}

// User is one console login. Password is stored as a bcrypt or argon2id
// hash (arbiter hash-password); a demo on this machine may keep it in
// plain text or as "sha256:" and its hex digest (see CheckConfig).
type User struct {
	Name     string
	Password string
}

// New returns the site of the event d runs.
func New(d *director.Director, cfg Config, log *slog.Logger) *Site {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	s := &Site{
		d: d, log: log, mux: http.NewServeMux(), pages: mustParsePages(),
		sessions: newSessions(12 * time.Hour), heartbeat: 15 * time.Second,
		streamWrite: DefaultTimeouts.Stream,
		closing:     make(chan struct{}), limit: newLoginLimit(), now: time.Now,
		metricsAllow: loopback, feed: newLiveFeed(),
	}
	s.stats = newSiteMetrics(d.Collector())
	s.reports = export.WithEvent(d, d.DB(), cfg.Event)
	s.users = slices.Clone(cfg.Users)
	// CheckConfig has refused bad entries before the daemon started; the
	// site logs them again rather than fail here.
	var problems []Problem
	s.trusted, problems = parseNets("TrustedProxies", cfg.TrustedProxies)
	if len(cfg.MetricsAllow) > 0 {
		var more []Problem
		s.metricsAllow, more = parseNets("MetricsAllow", cfg.MetricsAllow)
		problems = append(problems, more...)
	}
	for _, p := range problems {
		s.log.Error("configuration entry ignored", "problem", p.String())
	}
	s.secureCookies = cfg.SecureCookies
	s.routes()
	return s
}

// SetUsers replaces the console logins (on SIGHUP). Sessions of users who
// are no longer listed, or whose password changed, end at once.
func (s *Site) SetUsers(u []User) {
	s.mu.Lock()
	s.users = slices.Clone(u)
	s.mu.Unlock()
}

// Shutdown ends every open event stream, so that http.Server.Shutdown
// does not wait for them: register it with the server's
// RegisterOnShutdown. Pages served later get streams that end at once.
func (s *Site) Shutdown() { s.closeOnce.Do(func() { close(s.closing) }) }

// ServeHTTP implements http.Handler.
func (s *Site) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	h := w.Header()
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Referrer-Policy", "same-origin")
	h.Set("X-Frame-Options", "DENY")
	h.Set("Content-Security-Policy", "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; connect-src 'self'; frame-ancestors 'none'; form-action 'self'; base-uri 'none'")
	defer func() {
		// A bug in a handler must not take the daemon down; the request
		// gets a 500 and the log says why.
		if v := recover(); v != nil {
			if v == http.ErrAbortHandler {
				panic(v)
			}
			s.log.Error("web handler panic", "method", r.Method, "path", r.URL.Path, "panic", v)
			http.Error(w, "internal error", http.StatusInternalServerError)
		}
	}()
	start := time.Now()
	sw := &statusWriter{ResponseWriter: w}
	s.mux.ServeHTTP(sw, r)
	if h.Get("Content-Type") != "text/event-stream" { // streams are counted apart
		s.stats.observe(r, sw.status(), time.Since(start))
	}
}

// routes registers every page, API and console route.
func (s *Site) routes() {
	m := s.mux
	static, _ := fs.Sub(assets, "static")
	m.Handle("GET /static/", http.StripPrefix("/static/", staticHandler(static)))

	// Public pages.
	m.HandleFunc("GET /{$}", s.eventPage)
	m.HandleFunc("GET /live", s.livePage)
	m.HandleFunc("GET /tournaments/{id}", s.tournamentPage)
	m.HandleFunc("GET /tournaments/{id}/standings", s.standingsPage)
	m.HandleFunc("GET /tournaments/{id}/crosstable", s.crosstablePage)
	m.HandleFunc("GET /tournaments/{id}/players/{n}", s.playerPage)
	m.HandleFunc("GET /tournaments/{id}/trf", s.trfFile)
	// Printouts.
	m.HandleFunc("GET /tournaments/{id}/rounds/{n}/pairings", s.printPage("pairings"))
	m.HandleFunc("GET /tournaments/{id}/rounds/{n}/slips", s.printPage("slips"))
	m.HandleFunc("GET /tournaments/{id}/print/standings", s.printOf("standings", s.standingsData))
	m.HandleFunc("GET /tournaments/{id}/print/crosstable", s.printOf("crosstable", s.crosstableData))
	m.HandleFunc("GET /games/{id}", s.gamePage)
	m.HandleFunc("GET /games/{id}/record/{format}", s.recordFile)
	m.HandleFunc("GET /games/{id}/scoresheet", s.scoresheetPage)
	m.HandleFunc("GET /archive.zip", s.archiveFile)
	m.HandleFunc("GET /fragment/table/{table}", s.tableFragment)
	m.HandleFunc("GET /fragment/game/{id}", s.gameFragment)
	m.HandleFunc("GET /events", s.events)
	// The event's and the daemon's metrics, for http.metrics_allow.
	m.HandleFunc("GET /metrics", s.metrics())

	// Live feeds of a round for broadcasters (feed.go).
	m.HandleFunc("GET /feed/{tournament}/{file}", s.feedFile)
	m.HandleFunc("OPTIONS /feed/{tournament}/{file}", s.feedPreflight)

	// The JSON API (api.go), under /api/v1 and, deprecated, /api.
	s.routesAPI()

	// The arbiter console.
	m.HandleFunc("GET /console/login", s.loginPage)
	m.HandleFunc("POST /console/login", s.login)
	m.HandleFunc("POST /console/logout", s.arbiter(s.logout))
	m.HandleFunc("GET /console", s.console(s.consolePage))
	m.HandleFunc("GET /console/events", s.console(s.consoleEvents))
	m.HandleFunc("GET /console/tournaments/{id}/rounds/{round}/explanation", s.console(s.consoleTrace))
	m.HandleFunc("GET /console/tournaments/{id}", s.console(s.consoleTournament))
	for _, a := range actions {
		m.HandleFunc("POST "+a.path, s.arbiter(s.act(a)))
	}
}

// staticHandler serves the embedded assets with a short cache lifetime.
func staticHandler(fsys fs.FS) http.Handler {
	files := http.FileServerFS(fsys)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		// Only plain names of files that exist: anything else (bad UTF-8,
		// dot segments, directories) is simply not there.
		name := r.URL.Path
		if st, err := fs.Stat(fsys, name); !fs.ValidPath(name) || err != nil || st.IsDir() {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Cache-Control", "public, max-age=300")
		files.ServeHTTP(w, r)
	})
}
