package web

import (
	"context"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arbiter/rules"
)

func FuzzParsePiece(f *testing.F) {
	for _, s := range []string{"P", "p", "P(H)", "s+", "p(Q)+", "", "(", "()", "x(", "+", "K", "q(R)", "é(", "P(HH)+"} {
		f.Add("tavreli", s)
		f.Add("shogi", s)
		f.Add("chess", s)
	}
	f.Fuzz(func(t *testing.T, game, s string) {
		p := parsePiece(game, s)
		assert.Equal(t, s, p.Text)
		// Every piece a game can produce reads back to its colour and face.
		if len(s) > 0 && utf8.ValidString(s) {
			pc := rules.Piece{Kind: rules.Kind('A' + s[0]%26), Color: rules.Color(s[0] % 2), Face: rules.Face(len(s) % 2)}
			q := parsePiece(game, pc.String())
			assert.Equal(t, pc.Color == rules.Second, q.Second, pc.String())
			assert.Equal(t, pc.Face == rules.Back, q.Back, pc.String())
		}
	})
}

func FuzzParseOutcome(f *testing.F) {
	for _, r := range []string{"1-0", "0-1", "1/2-1/2", "draw", "2-0", ""} {
		for _, why := range []string{"", "resignation", "arbiter", "none", "time", "bogus"} {
			f.Add(r, why)
		}
	}
	f.Fuzz(func(t *testing.T, result, reason string) {
		o, err := parseOutcome(result, reason)
		if err != nil {
			assert.ErrorIs(t, err, errBadRequest)
			return
		}
		assert.True(t, o.Over())
		assert.NotEqual(t, rules.NoReason, o.Reason)
	})
}

// FuzzRequests sends strangers' and arbiters' requests with arbitrary
// paths and forms: whatever comes in, the answer is never a server error
// or a panic, and a stranger never gets past the login. The live streams
// are read for a moment and then cut off; the console forms that pair a
// round or set a result are posted to a fresh event of their own, so that
// every input meets the same event.
func FuzzRequests(f *testing.F) {
	if testing.Short() {
		f.Skip("needs a running event")
	}
	e := newEvent(f)
	arb := e.client()
	arb.login("chief", "arbiter")
	seeds := []string{"/", "/live", "/tournaments/1", "/tournaments/1/standings", "/tournaments/2/crosstable",
		"/games/1?ply=0", "/games/1?ply=99999999999999999999", "/games/1/record/pgn", "/games/1/record/../../x",
		"/fragment/table/%00", "/api/v1/games?round=0", "/api/v1/games/1/board?ply=-0", "/console/games/1/addtime",
		"/console/games/1/result", "/console/alerts/18446744073709551615/resolve", "/console/tournaments/2/pair", "/console/games/1/claim", "/console/games/1/offer",
		"/%2e%2e/etc/passwd", "/static/../web.go", "//x", "/api/v1/console/alerts?all=1",
		"/events", "/events?lastEventId=%ff", "/console/events", "/console/events/x", "/console/tournaments/1/pair",
		"/console/games/2/result", "/console/games/99/result", "/console/login",
		"/tournaments/1/players/3", "/tournaments/1/players/-1", "/tournaments/1/players/99999999999999999999"}
	for _, p := range seeds {
		f.Add(p, "why=x&result=1-0&reason=agreement&side=first&seconds=1&move=Nf3&kind=draw", false)
		f.Add(p, "why=&side=%ff&seconds=9e99", true)
	}
	f.Add("/console/games/1/result", "why=x&result=1-0&reason=agreement", true)
	f.Add("/console/games/1/result", "why=x&result=1/2-1/2&reason=%00", true)
	f.Add("/console/games/1/result", "why=x&result=2-0&reason=time", true)
	f.Add("/console/tournaments/2/pair", "why=round+two", true)
	f.Add("/console/tournaments/1/pair", "why=x&round=-1", true)
	f.Add("/console/login", "name=chief&password=arbiter", true)
	f.Fuzz(func(t *testing.T, path, form string, post bool) {
		if !strings.HasPrefix(path, "/") {
			path = "/" + path
		}
		u, err := url.Parse(path)
		if err != nil || u.Host != "" {
			t.Skip("not a path")
		}
		stream := strings.HasPrefix(u.Path, "/events") || strings.HasPrefix(u.Path, "/console/events")
		ev, arbiter := e, arb
		if post && (strings.HasSuffix(u.Path, "/pair") || strings.HasSuffix(u.Path, "/result") ||
			strings.HasSuffix(u.Path, "/resign") || strings.HasSuffix(u.Path, "/answer")) {
			// Pairing, results and resignations change the event: a fresh
			// one for each.
			ev = newEvent(t)
			arbiter = ev.client()
			arbiter.login("chief", "arbiter")
		}
		vals, _ := url.ParseQuery(form)
		for _, who := range []*client{nil, arbiter} {
			var req *http.Request
			if post {
				if who != nil {
					vals.Set("csrf", who.csrf)
				}
				req = httptest.NewRequest(http.MethodPost, "/", strings.NewReader(vals.Encode()))
				req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
			} else {
				req = httptest.NewRequest(http.MethodGet, "/", nil)
			}
			req.URL = u // whatever the path, even one no client would send
			if who != nil {
				srv, _ := url.Parse(ev.srv.URL)
				for _, c := range who.http.Jar.Cookies(srv) {
					req.AddCookie(c)
				}
			}
			// A stream ends when its client goes: this one goes at once.
			ctx, cancel := context.WithTimeout(req.Context(), 30*time.Millisecond)
			if !stream {
				ctx, cancel = context.WithCancel(req.Context())
			}
			req = req.WithContext(ctx)
			rec := httptest.NewRecorder()
			ev.site.ServeHTTP(rec, req)
			cancel()
			require.Less(t, rec.Code, 500, "%s %s: %s", req.Method, path, rec.Body.String())
			if who == nil && post && strings.HasPrefix(u.Path, "/console/") && u.Path != "/console/login" {
				require.Contains(t, []int{301, 307, 308, 401, 403, 404, 405}, rec.Code, "a stranger posted to %s", path)
			}
			if who == nil && strings.HasPrefix(u.Path, "/console/events") {
				require.NotEqual(t, http.StatusOK, rec.Code, "a stranger read the console's stream %s", path)
			}
			if stream && rec.Code == http.StatusOK {
				require.Equal(t, "text/event-stream", rec.Header().Get("Content-Type"), path)
				require.True(t, strings.HasPrefix(rec.Body.String(), "retry: 2000\n"), "%s: %q", path, rec.Body.String())
			}
		}
	})
}
