// Package broadcast pushes the live rounds of an event to broadcast
// services: on every change of a round (a move, a clock, a result) the
// round's feed, the same multi-game record /feed/{tournament}/{round}
// serves, is POSTed to the configured address with the configured token,
// the way lichess broadcasts accept a round's PGN
// (POST /api/broadcast/round/{id}/push, "Authorization: Bearer" token).
//
// No round is lost. Every round of every push is pending until the
// endpoint has accepted its latest state; what each round's address last
// accepted is kept in the event's database (a digest of the body), so a
// restarted daemon goes on with every round not yet accepted, not only
// the latest. A failed push is retried with a pause that grows up to
// MaxBackoff with jitter, or after the endpoint's Retry-After; no round is
// sent more often than once per Interval. When the event stops, Flush
// sends what is still pending, for a bounded time, and names what it
// could not send.
//
// Pushes never hold the event up: the pusher reads the director's hub
// (which drops a slow subscriber rather than wait) and only marks rounds
// as changed; each round's send runs on its own.
package broadcast

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"arbiter/export"
	"arbiter/store"
)

// Push is one configured push: the rounds of a tournament, sent to an
// address.
type Push struct {
	// URL is where a round is POSTed; "{round}" in it is replaced by the
	// round number.
	URL string
	// Tournament is the tournament's name.
	Tournament string
	// Round limits the push to one round; 0 pushes every round.
	Round int
	// Token is sent as "Authorization: Bearer"; empty: no header.
	Token string
	// Format is the feed's record format; empty: the game's usual one.
	Format string
}

// Target is one resolved push: where a tournament's rounds go.
type Target struct {
	URL          string // "{round}" is replaced by the round number
	Token        string
	TournamentID uint64
	Tournament   string // its name
	Round        int    // 0: every round
	Format       string // the feed's format name
}

// Defaults of a Pusher's timing.
const (
	// DefaultInterval is the least time between two sends of one round.
	DefaultInterval = 2 * time.Second
	// DefaultMaxBackoff caps the pause between the retries of a round.
	DefaultMaxBackoff = 30 * time.Second
	// DefaultFlushWait is how long the daemon lets Flush send what is
	// pending when it stops.
	DefaultFlushWait = 30 * time.Second
	// maxRetryAfter caps an endpoint's Retry-After, so that a wrong one
	// cannot stop a round for hours.
	maxRetryAfter = 10 * time.Minute
)

// Pusher sends round feeds to its targets.
type Pusher struct {
	db      *store.DB
	event   string
	targets []Target
	log     *slog.Logger

	// Client sends the pushes.
	Client *http.Client
	// Interval is the least time between two sends of one round.
	Interval time.Duration
	// Backoff is the pause after the first failed send of a round; it
	// doubles with each failure up to MaxBackoff, and each pause is drawn
	// between its half and its whole (jitter).
	Backoff, MaxBackoff time.Duration
	// Rand returns a number in [0, 1) for the jitter.
	Rand func() float64

	metrics *metrics

	// done receives the outcome of each send; the loop (Run, then Flush)
	// is its only reader.
	done chan outcome

	mu     sync.Mutex
	rounds map[key]*round
}

// key names one round of one target.
type key struct {
	target int
	round  int
}

// New resolves the configured pushes against the event's tournaments.
func New(db *store.DB, event string, pushes []Push, log *slog.Logger) (*Pusher, error) {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	tours, err := db.Tournaments()
	if err != nil {
		return nil, fmt.Errorf("broadcast: %w", err)
	}
	p := &Pusher{
		db: db, event: event, log: log, Client: &http.Client{Timeout: 30 * time.Second},
		Interval: DefaultInterval, Backoff: DefaultInterval, MaxBackoff: DefaultMaxBackoff, Rand: rand.Float64,
		metrics: newMetrics(), done: make(chan outcome), rounds: map[key]*round{},
	}
	for i, c := range pushes {
		var t *store.Tournament
		for j := range tours {
			if tours[j].Name == c.Tournament {
				t = &tours[j]
			}
		}
		if t == nil {
			return nil, fmt.Errorf("broadcast.push[%d]: tournament %q: %w", i, c.Tournament, store.ErrNotFound)
		}
		format := c.Format
		if format == "" {
			fs := export.Formats(t.Game)
			if len(fs) == 0 {
				return nil, fmt.Errorf("broadcast.push[%d]: %s has no record format", i, t.Game)
			}
			format = fs[0].Name
		}
		f, err := export.RoundFormat(t.Game, format)
		if err != nil {
			return nil, fmt.Errorf("broadcast.push[%d].format: %w", i, err)
		}
		p.targets = append(p.targets, Target{URL: c.URL, Token: c.Token, TournamentID: t.ID, Tournament: t.Name, Round: c.Round, Format: f.Name})
	}
	return p, nil
}

// Targets returns the resolved pushes.
func (p *Pusher) Targets() []Target { return append([]Target(nil), p.targets...) }

// roundURL is where target t's round n goes.
func roundURL(t Target, n int) string { return strings.ReplaceAll(t.URL, "{round}", strconv.Itoa(n)) }

// digest is what the database keeps of a body the endpoint accepted.
func digest(body []byte) string {
	sum := sha256.Sum256(body)
	return hex.EncodeToString(sum[:])
}
