// Package broadcast pushes the live rounds of an event to broadcast
// services: on every change of a round (a move, a clock, a result) the
// round's feed, the same multi-game record /feed/{tournament}/{round}
// serves, is POSTed to the configured address with the configured token,
// the way lichess broadcasts accept a round's PGN
// (POST /api/broadcast/round/{id}/push, "Authorization: Bearer" token).
//
// Pushes never hold the event up: the pusher reads the director's hub
// (which drops a slow subscriber rather than wait) and only marks rounds
// as changed; each round has its own sender that sends at most once per
// interval, only what changed, and retries failed sends with a growing
// pause until the next one goes through.
package broadcast

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"arbiter/director"
	"arbiter/export"
	"arbiter/internal/config"
	"arbiter/store"
)

// Target is one resolved push: where a tournament's rounds go.
type Target struct {
	URL          string // "{round}" is replaced by the round number
	Token        string
	TournamentID uint64
	Round        int    // 0: every round
	Format       string // the feed's format name
}

// Pusher sends round feeds to its targets.
type Pusher struct {
	db      *store.DB
	event   string
	targets []Target
	log     *slog.Logger
	client  *http.Client

	// Interval is the least time between two sends of one round.
	Interval time.Duration
	// Backoff is the first pause after a failed send; it doubles up to
	// MaxBackoff.
	Backoff, MaxBackoff time.Duration

	mu      sync.Mutex
	senders map[sendKey]chan struct{}
}

type sendKey struct {
	target int
	round  int
}

// New resolves the configured pushes against the event's tournaments.
func New(db *store.DB, event string, pushes []config.Push, log *slog.Logger) (*Pusher, error) {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	tours, err := db.Tournaments()
	if err != nil {
		return nil, fmt.Errorf("broadcast: %w", err)
	}
	p := &Pusher{
		db: db, event: event, log: log, client: &http.Client{Timeout: 30 * time.Second},
		Interval: 2 * time.Second, Backoff: time.Second, MaxBackoff: time.Minute,
		senders: map[sendKey]chan struct{}{},
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
		p.targets = append(p.targets, Target{URL: c.URL, Token: c.PushToken(), TournamentID: t.ID, Round: c.Round, Format: f.Name})
	}
	return p, nil
}

// Targets returns the resolved pushes.
func (p *Pusher) Targets() []Target { return append([]Target(nil), p.targets...) }

// Run pushes until ctx ends. subscribe is the hub's Subscribe: when the
// hub drops the pusher's subscription (it fell behind), Run subscribes
// again and sends every current round, so nothing is missed.
func (p *Pusher) Run(ctx context.Context, subscribe func() (<-chan director.Update, func())) error {
	if len(p.targets) == 0 {
		return nil
	}
	var wg sync.WaitGroup
	defer wg.Wait()
	for {
		updates, cancel := subscribe()
		// Whatever happened while not subscribed: send the current rounds.
		p.changedAll(ctx, &wg)
	read:
		for {
			select {
			case <-ctx.Done():
				cancel()
				return nil
			case u, ok := <-updates:
				if !ok {
					break read
				}
				p.changed(ctx, &wg, u)
			}
		}
		cancel()
	}
}

// changed marks the round of an update's game as changed; an update
// without a game (a new round, an alert) marks every current round.
func (p *Pusher) changed(ctx context.Context, wg *sync.WaitGroup, u director.Update) {
	if u.Game == 0 {
		if u.Kind == "round" || u.Kind == "result" {
			p.changedAll(ctx, wg)
		}
		return
	}
	g, err := p.db.Game(u.Game)
	if err != nil {
		p.log.Warn("broadcast: game of an update", "game", u.Game, "err", err)
		return
	}
	if g.TournamentID == 0 || g.Round == 0 {
		return
	}
	for i, t := range p.targets {
		if t.TournamentID == g.TournamentID && (t.Round == 0 || t.Round == g.Round) {
			p.kick(ctx, wg, sendKey{i, g.Round})
		}
	}
}

// changedAll marks the latest paired round of every target's tournament
// (or the target's own round, once paired).
func (p *Pusher) changedAll(ctx context.Context, wg *sync.WaitGroup) {
	for i, t := range p.targets {
		rs, err := p.db.Rounds(t.TournamentID)
		if err != nil {
			p.log.Warn("broadcast: rounds", "tournament", t.TournamentID, "err", err)
			continue
		}
		for _, r := range rs {
			if t.Round == r.Number || t.Round == 0 && r.Number == rs[len(rs)-1].Number {
				p.kick(ctx, wg, sendKey{i, r.Number})
			}
		}
	}
}

// kick tells the round's sender that its round changed, starting the
// sender on the first change. It never waits.
func (p *Pusher) kick(ctx context.Context, wg *sync.WaitGroup, k sendKey) {
	p.mu.Lock()
	ch, ok := p.senders[k]
	if !ok {
		ch = make(chan struct{}, 1)
		p.senders[k] = ch
		wg.Go(func() { p.send(ctx, k, ch) })
	}
	p.mu.Unlock()
	select {
	case ch <- struct{}{}:
	default: // a change is already waiting: it sends the latest anyway
	}
}

// send is the sender of one target's round: on each change it waits out
// the interval since its last send, writes the round, and POSTs it if it
// differs from what the target last received, retrying until it does.
func (p *Pusher) send(ctx context.Context, k sendKey, changed <-chan struct{}) {
	t := p.targets[k.target]
	url := strings.ReplaceAll(t.URL, "{round}", strconv.Itoa(k.round))
	log := p.log.With("url", url, "tournament", t.TournamentID, "round", k.round)
	var sent []byte
	var last time.Time
	for {
		select {
		case <-ctx.Done():
			return
		case <-changed:
		}
		if !last.IsZero() && !sleep(ctx, p.Interval-time.Since(last)) {
			return
		}
		pause := p.Backoff
		for {
			var buf bytes.Buffer
			err := export.WriteRound(&buf, p.db, p.event, t.TournamentID, k.round, t.Format)
			if err == nil && bytes.Equal(buf.Bytes(), sent) {
				break // the target has it already
			}
			if err == nil {
				err = p.post(ctx, url, t.Token, buf.Bytes())
			}
			last = time.Now()
			if err == nil {
				sent = buf.Bytes()
				log.Debug("broadcast: round pushed", "bytes", len(sent))
				break
			}
			if ctx.Err() != nil {
				return
			}
			log.Warn("broadcast: push failed, retrying", "err", err, "in", pause)
			if !sleep(ctx, pause) {
				return
			}
			pause = min(2*pause, p.MaxBackoff)
		}
	}
}

// post sends one round's feed.
func (p *Pusher) post(ctx context.Context, url, token string, body []byte) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(body))
	if err != nil {
		return fmt.Errorf("push to %s: %w", url, err)
	}
	req.Header.Set("Content-Type", "text/plain; charset=utf-8")
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := p.client.Do(req)
	if err != nil {
		return fmt.Errorf("push: %w", err)
	}
	defer resp.Body.Close()
	msg, _ := io.ReadAll(io.LimitReader(resp.Body, 512))
	if resp.StatusCode/100 != 2 {
		return fmt.Errorf("push to %s: %w: %s %s", url, errRefused, resp.Status, strings.TrimSpace(string(msg)))
	}
	return nil
}

// errRefused is a push the endpoint answered with an error status.
var errRefused = errors.New("refused")

// sleep waits d or until ctx ends; it reports whether d passed.
func sleep(ctx context.Context, d time.Duration) bool {
	if d <= 0 {
		return ctx.Err() == nil
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return false
	case <-t.C:
		return true
	}
}
