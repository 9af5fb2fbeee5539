package broadcast

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"arbiter/director"
	"arbiter/export"
	"arbiter/store"
)

// Run pushes until ctx ends. subscribe is the hub's Subscribe: when the
// hub drops the pusher's subscription (it fell behind), Run subscribes
// again and checks every round, so nothing is missed. On start every round
// of every target is checked against what its address last accepted.
// Sends in flight when ctx ends are cut short; Flush sends what is left.
func (p *Pusher) Run(ctx context.Context, subscribe func() (<-chan director.Update, func())) error {
	if len(p.targets) == 0 {
		return nil
	}
	var wg sync.WaitGroup
	defer p.settle(&wg)
	for {
		updates, cancel := subscribe()
		// Whatever happened while not subscribed: check every round.
		p.changedAll()
		resubscribe := p.loop(ctx, &wg, updates, false)
		cancel()
		if !resubscribe {
			return nil
		}
	}
}

// Flush sends every round the endpoints do not have yet, respecting the
// interval, the backoff and Retry-After, until none is pending or ctx
// ends. It is for the end of the event, after Run has returned: the
// daemon gives it a bounded time (DefaultFlushWait). The error names each
// round not sent and why.
func (p *Pusher) Flush(ctx context.Context) error {
	if len(p.targets) == 0 {
		return nil
	}
	var wg sync.WaitGroup
	p.changedAll()
	p.loop(ctx, &wg, nil, true)
	p.settle(&wg)
	if unsent := p.Pending(); len(unsent) > 0 {
		return &UnsentError{Rounds: unsent}
	}
	return nil
}

// settle waits for the sends in flight and records their outcomes.
func (p *Pusher) settle(wg *sync.WaitGroup) {
	go func() { wg.Wait(); close(p.done) }()
	for o := range p.done {
		p.finish(o)
	}
	p.done = make(chan outcome)
}

// loop starts each round's sends when they are due and records their
// outcomes, until ctx ends; until nothing is pending when drain is set;
// or until updates closes, when it reports true (subscribe again).
func (p *Pusher) loop(ctx context.Context, wg *sync.WaitGroup, updates <-chan director.Update, drain bool) (resubscribe bool) {
	for {
		next, idle := p.startDue(ctx, wg)
		if drain && p.drained(ctx, next, idle) {
			return false
		}
		if stop, resubscribe := p.wait(ctx, updates, next); stop {
			return resubscribe
		}
	}
}

// drained reports whether a drain is over: nothing is pending (idle), or
// what is left, due next, cannot be sent before ctx's deadline.
func (p *Pusher) drained(ctx context.Context, next time.Time, idle bool) bool {
	if idle {
		return true
	}
	deadline, hasDeadline := ctx.Deadline()
	return hasDeadline && !next.IsZero() && next.After(deadline) && p.inFlight() == 0
}

// wait waits until a round is due at next (zero: none waits), an update
// comes, or a send ends (its outcome recorded). It reports stop when ctx
// ends or updates closes, and then resubscribe for the latter.
func (p *Pusher) wait(ctx context.Context, updates <-chan director.Update, next time.Time) (stop, resubscribe bool) {
	var wake <-chan time.Time
	if !next.IsZero() {
		timer := time.NewTimer(time.Until(next))
		defer timer.Stop()
		wake = timer.C
	}
	select {
	case <-ctx.Done():
		return true, false
	case u, ok := <-updates:
		if !ok {
			return true, true
		}
		p.changed(u)
	case o := <-p.done:
		p.finish(o)
	case <-wake:
	}
	return false, false
}

// startDue begins the send of every round that is due, and returns when
// the next one will be (zero: none waits) and whether nothing is pending.
func (p *Pusher) startDue(ctx context.Context, wg *sync.WaitGroup) (next time.Time, idle bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	now := time.Now()
	idle = true
	pending := map[string]int{}
	for k, r := range p.rounds {
		if r.pending() {
			idle = false
		}
		if at, ok := r.due(p.Interval); ok {
			if !at.After(now) {
				r.start(now)
				t, url, accepted := p.targets[k.target], r.url, r.accepted
				wg.Go(func() { p.done <- p.send(ctx, k, t, url, accepted) })
			} else if next.IsZero() || at.Before(next) {
				next = at
			}
		}
		if r.pending() {
			pending[p.targets[k.target].Tournament]++
		}
	}
	for _, t := range p.targets {
		p.metrics.pending.WithLabelValues(t.Tournament).Set(float64(pending[t.Tournament]))
	}
	return next, idle
}

// inFlight counts the sends under way.
func (p *Pusher) inFlight() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	n := 0
	for _, r := range p.rounds {
		if r.inFlight {
			n++
		}
	}
	return n
}

// finish records a send's outcome.
func (p *Pusher) finish(o outcome) {
	t := p.targets[o.key.target]
	p.mu.Lock()
	r := p.rounds[o.key]
	accepted := r.finish(o, p.backoff)
	failures := r.failures
	next, _ := r.due(p.Interval) // the pause, or the interval when longer
	p.mu.Unlock()
	log := p.log.With("url", r.url, "tournament", t.Tournament, "round", o.key.round)
	if o.sent && !o.canceled {
		status := "error" // no answer
		if o.status != 0 {
			status = strconv.Itoa(o.status)
		}
		p.metrics.pushes.WithLabelValues(t.Tournament, strconv.Itoa(o.key.round), status).Inc()
	}
	switch {
	case accepted:
		p.metrics.lastSuccess.WithLabelValues(t.Tournament).Set(float64(o.at.UnixNano()) / 1e9)
		log.Debug("broadcast: round pushed")
		p.keepAccepted(r.url, o.digest, o.at)
	case o.err != nil && !o.canceled:
		log.Warn("broadcast: push failed, retrying", "err", o.err, "failures", failures, "retry", next.Sub(o.at).Round(time.Millisecond))
	}
}

// send writes target t's round and POSTs it to url unless the endpoint
// has it already (its digest is accepted).
func (p *Pusher) send(ctx context.Context, k key, t Target, url, accepted string) outcome {
	o := outcome{key: k}
	var buf bytes.Buffer
	if err := export.WriteRound(&buf, p.db, p.event, t.TournamentID, k.round, t.Format); err != nil {
		o.err, o.at = fmt.Errorf("write round %d: %w", k.round, err), time.Now()
		return o
	}
	o.digest = digest(buf.Bytes())
	if o.digest == accepted {
		o.at = time.Now()
		return o
	}
	o.sent = true
	o.status, o.retryAfter, o.err = p.post(ctx, url, t.Token, buf.Bytes())
	o.at = time.Now()
	o.canceled = o.err != nil && ctx.Err() != nil
	return o
}

// post sends one round's feed and returns the answer's status and
// Retry-After.
func (p *Pusher) post(ctx context.Context, url, token string, body []byte) (int, time.Duration, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(body))
	if err != nil {
		return 0, 0, fmt.Errorf("push to %s: %w", url, err)
	}
	req.Header.Set("Content-Type", "text/plain; charset=utf-8")
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := p.Client.Do(req)
	if err != nil {
		return 0, 0, fmt.Errorf("push: %w", err)
	}
	defer resp.Body.Close()
	msg, _ := io.ReadAll(io.LimitReader(resp.Body, 512))
	if resp.StatusCode/100 != 2 {
		return resp.StatusCode, retryAfter(resp.Header.Get("Retry-After"), time.Now()),
			fmt.Errorf("push to %s: %w: %s %s", url, errRefused, resp.Status, strings.TrimSpace(string(msg)))
	}
	return resp.StatusCode, 0, nil
}

// errRefused is a push the endpoint answered with an error status.
var errRefused = errors.New("refused")

// retryAfter reads a Retry-After header (RFC 9110 10.2.3): a number of
// seconds or an HTTP date; 0 when absent or unreadable.
func retryAfter(v string, now time.Time) time.Duration {
	v = strings.TrimSpace(v)
	if v == "" {
		return 0
	}
	if s, err := strconv.ParseUint(v, 10, 32); err == nil {
		return time.Duration(s) * time.Second
	}
	if t, err := http.ParseTime(v); err == nil && t.After(now) {
		return t.Sub(now)
	}
	return 0
}

// changed marks the round of an update's game as changed; an update
// without a game (a new round, an alert) marks every round.
func (p *Pusher) changed(u director.Update) {
	if u.Game == 0 {
		if u.Kind == "round" || u.Kind == "result" {
			p.changedAll()
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
			p.mark(key{i, g.Round})
		}
	}
}

// changedAll marks every paired round of every target (or the target's
// own round, once paired).
func (p *Pusher) changedAll() {
	for i, t := range p.targets {
		rs, err := p.db.Rounds(t.TournamentID)
		if err != nil {
			p.log.Warn("broadcast: rounds", "tournament", t.Tournament, "err", err)
			continue
		}
		for _, r := range rs {
			if t.Round == 0 || t.Round == r.Number {
				p.mark(key{i, r.Number})
			}
		}
	}
}

// mark notes that round k may have changed, reading on its first change
// what its address accepted before.
func (p *Pusher) mark(k key) {
	p.mu.Lock()
	r, ok := p.rounds[k]
	p.mu.Unlock()
	if !ok {
		url := roundURL(p.targets[k.target], k.round)
		r = &round{url: url, accepted: p.acceptedBefore(url)}
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if have, ok := p.rounds[k]; ok {
		r = have
	} else {
		p.rounds[k] = r
	}
	r.changed()
}

// acceptedKey is the database setting holding what url accepted last.
func acceptedKey(url string) string { return "broadcast.accepted " + url }

// acceptedRecord is what the database keeps of a round's accepted push.
type acceptedRecord struct {
	SHA256 string    `json:"sha256"`
	At     time.Time `json:"at"`
}

// acceptedBefore returns the digest of what url last accepted, "" if
// nothing (or the database cannot tell: the round is then sent again).
func (p *Pusher) acceptedBefore(url string) string {
	v, err := p.db.Setting(acceptedKey(url))
	if err != nil {
		if !errors.Is(err, store.ErrNotFound) {
			p.log.Warn("broadcast: what the address accepted before is unknown; sending its round again", "url", url, "err", err)
		}
		return ""
	}
	var rec acceptedRecord
	if err := json.Unmarshal(v, &rec); err != nil {
		p.log.Warn("broadcast: unreadable record of an accepted push; sending its round again", "url", url, "err", err)
		return ""
	}
	return rec.SHA256
}

// keepAccepted stores what url accepted, so that a restart does not send
// it again.
func (p *Pusher) keepAccepted(url, sum string, at time.Time) {
	v, err := json.Marshal(acceptedRecord{SHA256: sum, At: at.UTC()})
	if err == nil {
		err = p.db.PutSetting(acceptedKey(url), v)
	}
	if err != nil {
		p.log.Warn("broadcast: cannot record the accepted push; a restart sends the round again", "url", url, "err", err)
	}
}

// Unsent is a round whose latest state its address has not accepted.
type Unsent struct {
	Tournament string
	Round      int
	URL        string
	// Err is why the last send failed; nil if none was tried since the
	// round last changed.
	Err error
}

// Pending returns the rounds whose latest state their address may not
// have, by target and round.
func (p *Pusher) Pending() []Unsent {
	p.mu.Lock()
	defer p.mu.Unlock()
	var keys []key
	for k, r := range p.rounds {
		if r.pending() {
			keys = append(keys, k)
		}
	}
	slices.SortFunc(keys, func(a, b key) int {
		if a.target != b.target {
			return a.target - b.target
		}
		return a.round - b.round
	})
	out := make([]Unsent, 0, len(keys))
	for _, k := range keys {
		r := p.rounds[k]
		out = append(out, Unsent{Tournament: p.targets[k.target].Tournament, Round: k.round, URL: r.url, Err: r.lastErr})
	}
	return out
}

// UnsentError is Flush's error: the rounds it could not send in time.
type UnsentError struct {
	Rounds []Unsent
}

func (e *UnsentError) Error() string {
	var b strings.Builder
	b.WriteString("broadcast: not sent:")
	for i, u := range e.Rounds {
		if i > 0 {
			b.WriteString(";")
		}
		fmt.Fprintf(&b, " round %d of %q to %s", u.Round, u.Tournament, u.URL)
		if u.Err != nil {
			fmt.Fprintf(&b, " (%v)", u.Err)
		}
	}
	return b.String()
}
