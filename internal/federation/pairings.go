package federation

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"arbiter/store"
)

// PairingsBucket is the JetStream key-value bucket through which the hub
// hands its rounds to the halls. The hub is its only writer; each hall
// reads a mirror of it in its own JetStream domain, so that a hall whose
// link is down still has every round paired before the cut.
const PairingsBucket = "ARBITER_PAIRINGS"

// HubDomain is the hub's JetStream domain, where the pairings bucket
// lives.
const HubDomain = "hub"

// RoundKey is the key of a round in the pairings bucket:
// t<tournament>.r<round>.
func RoundKey(tournament uint64, round int) string {
	return fmt.Sprintf("t%d.r%d", tournament, round)
}

// PairedRound is the value of a round in the pairings bucket: the round as
// the hub paired it, without the hub's game IDs or results of boards (each
// hall makes its own games; their results come back as facts).
type PairedRound struct {
	Tournament string      `json:"tournament"` // its name, for the logs
	Round      store.Round `json:"round"`
}

// pairedRound is the round as published: byes keep their result, boards
// lose their game and result.
func pairedRound(name string, r store.Round) PairedRound {
	r.Pairings = append([]store.Pairing(nil), r.Pairings...)
	for i := range r.Pairings {
		p := &r.Pairings[i]
		p.GameID = 0
		if p.Second != 0 {
			p.Result = ""
		}
	}
	return PairedRound{Tournament: name, Round: r}
}

// DecodeRound reads a round from the pairings bucket and checks that it is
// the round its key names.
func DecodeRound(key string, data []byte) (PairedRound, error) {
	var pr PairedRound
	if err := json.Unmarshal(data, &pr); err != nil {
		return pr, fmt.Errorf("pairings %s: %w", key, err)
	}
	r := pr.Round
	if r.TournamentID == 0 || r.Number < 1 || RoundKey(r.TournamentID, r.Number) != key {
		return pr, fmt.Errorf("pairings %s: holds round %d of tournament %d", key, r.Number, r.TournamentID)
	}
	seen := map[int]bool{}
	for _, p := range r.Pairings {
		if p.Board < 1 || p.First < 1 || p.Second < 0 || seen[p.Board] {
			return pr, fmt.Errorf("pairings %s: board %d (%d-%d) is not a board of its own with players", key, p.Board, p.First, p.Second)
		}
		seen[p.Board] = true
	}
	return pr, nil
}

// EnsurePairings creates (or opens) the hub's pairings bucket.
func EnsurePairings(ctx context.Context, js jetstream.JetStream) (jetstream.KeyValue, error) {
	return ensureHubBucket(ctx, js, PairingsBucket, "pairings", "rounds paired by the hub; written by the hub only")
}

// MirrorPairings creates (or opens) hall's read-only mirror of the hub's
// pairings bucket, which lives in JetStream domain hubDomain; the mirror
// is delivered on the hall's own subjects (DeliverPrefix).
func MirrorPairings(ctx context.Context, js jetstream.JetStream, hall, hubDomain string) (jetstream.KeyValue, error) {
	return mirrorHubBucket(ctx, js, hall, hubDomain, PairingsBucket, "pairings", "mirror of the hub's rounds")
}

// ErrRoundChanged is returned when the pairings bucket holds a round other
// than the hub's: the hub never overwrites a published round.
var ErrRoundChanged = errors.New("the pairings bucket holds other pairings for this round")

// PublishRound puts a round the hub paired into the pairings bucket, once:
// it is created at revision 0 only, and a round published already is left
// alone if it is the same and refused with ErrRoundChanged if not. It
// returns the round's revision.
func PublishRound(ctx context.Context, kv jetstream.KeyValue, name string, r store.Round) (uint64, error) {
	key := RoundKey(r.TournamentID, r.Number)
	data, err := json.Marshal(pairedRound(name, r))
	if err != nil {
		return 0, fmt.Errorf("pairings %s: %w", key, err)
	}
	rev, err := kv.Create(ctx, key, data)
	if err == nil {
		return rev, nil
	}
	if !errors.Is(err, jetstream.ErrKeyExists) {
		return 0, fmt.Errorf("pairings %s: %w", key, err)
	}
	e, err := kv.Get(ctx, key)
	if err != nil {
		return 0, fmt.Errorf("pairings %s: %w", key, err)
	}
	if !bytes.Equal(e.Value(), data) {
		return e.Revision(), fmt.Errorf("pairings %s (round %d of %s) at revision %d: %w", key, r.Number, name, e.Revision(), ErrRoundChanged)
	}
	return e.Revision(), nil
}

// Pairer is the hub's writer of the pairings bucket: it publishes every
// round of the hub's store, at start, after each Notify and every Poll.
type Pairer struct {
	DB  *store.DB
	KV  jetstream.KeyValue
	Log *slog.Logger
	// Poll is how often Run looks at the store without a Notify (0: 5s).
	Poll time.Duration

	wake wake
}

// Notify tells a running Pairer that a round was paired. It never blocks.
func (p *Pairer) Notify() { p.wake.notify() }

// Run publishes the rounds until ctx ends. A round that cannot be
// published is logged and tried again; one that the bucket holds with
// other pairings raises an alert once.
func (p *Pairer) Run(ctx context.Context) error {
	return bucketWriter{db: p.DB, log: p.Log, poll: p.Poll, what: "pairings", bucket: PairingsBucket,
		changed: ErrRoundChanged, wake: &p.wake, publish: p.Publish,
		advice: "someone other than the hub wrote the pairings: check the halls' credentials; the halls follow the bucket",
	}.run(ctx)
}

// Publish publishes every round of every tournament of the store.
func (p *Pairer) Publish(ctx context.Context) error {
	ts, err := p.DB.Tournaments()
	if err != nil {
		return fmt.Errorf("federation pairings: %w", err)
	}
	var errs []error
	for _, t := range ts {
		rounds, err := p.DB.Rounds(t.ID)
		if err != nil {
			return fmt.Errorf("federation pairings: %w", err)
		}
		for _, r := range rounds {
			if _, err := PublishRound(ctx, p.KV, t.Name, r); err != nil {
				errs = append(errs, err)
				break // the next rounds wait for this one
			}
		}
	}
	return errors.Join(errs...)
}

// Follower is a hall's reader of the pairings: each round the hub
// published is given, in order, to Apply, which stores it and starts the
// games of the hall's boards. A round Apply refuses is retried every
// second (it may wait for an earlier one).
type Follower struct {
	// KV is the hall's mirror of the hub's bucket.
	KV jetstream.KeyValue
	// Hub, if set, reaches the hub's own bucket through the leaf link
	// (JetStream domain HubDomain). While the mirror is stalled (a link
	// came back, but the NATS server sets the mirror up again only after
	// its back-off, which reaches minutes) the rounds are read from the
	// hub directly, every second, as soon as it answers.
	Hub jetstream.JetStream
	// Apply stores a round; it reports whether the round was new.
	Apply func(context.Context, store.Round) (bool, error)
	Log   *slog.Logger
}

// Run follows the bucket until ctx ends.
func (f *Follower) Run(ctx context.Context) error {
	if f.Log == nil {
		f.Log = slog.Default()
	}
	w, err := f.KV.WatchAll(ctx)
	if err != nil {
		return fmt.Errorf("federation pairings: watch: %w", err)
	}
	defer func() { _ = w.Stop() }()
	var pending []jetstream.KeyValueEntry
	// taken is the revision of each round taken, from the mirror or the
	// hub (a mirror keeps the hub's revisions): a round comes once. last
	// is the newest.
	taken := map[string]uint64{}
	var last uint64
	take := func(e jetstream.KeyValueEntry) {
		if e == nil || e.Operation() != jetstream.KeyValuePut || taken[e.Key()] == e.Revision() {
			return
		}
		pending = append(pending, e)
		taken[e.Key()] = e.Revision()
		last = max(last, e.Revision())
	}
	retry := time.NewTicker(time.Second)
	defer retry.Stop()
	for {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case e := <-w.Updates():
			take(e)
		case <-retry.C:
			if f.Hub != nil && f.mirrorStalled(ctx) {
				for _, e := range f.fromHub(ctx, last) {
					take(e)
				}
			}
		}
		pending = f.apply(ctx, pending)
	}
}

// mirrorStalled reports whether the hall's mirror has heard nothing from
// the hub for StalledAfter (a live mirror hears a heartbeat every second).
func (f *Follower) mirrorStalled(ctx context.Context) bool {
	ctx, cancel := context.WithTimeout(ctx, time.Second)
	defer cancel()
	st, err := f.KV.Status(ctx)
	if err != nil {
		f.Log.Debug("federation pairings: mirror status", "err", err)
		return false
	}
	bs, ok := st.(*jetstream.KeyValueBucketStatus)
	if !ok || bs.StreamInfo() == nil || bs.StreamInfo().Mirror == nil {
		return false
	}
	m := bs.StreamInfo().Mirror
	return m.Active < 0 || m.Active > StalledAfter
}

// hubReadWait bounds one read of the hub's bucket.
const hubReadWait = 2 * time.Second

// fromHub reads the rounds of the hub's own bucket if it holds a revision
// newer than after and answers within hubReadWait; nil if it does not
// (the next tick tries again) or has nothing newer.
func (f *Follower) fromHub(ctx context.Context, after uint64) []jetstream.KeyValueEntry {
	ctx, cancel := context.WithTimeout(ctx, hubReadWait)
	defer cancel()
	kv, err := f.Hub.KeyValue(ctx, PairingsBucket)
	if err != nil {
		f.Log.Debug("federation pairings: the hub's bucket", "err", err)
		return nil
	}
	st, err := kv.Status(ctx)
	if bs, ok := st.(*jetstream.KeyValueBucketStatus); err != nil || !ok || bs.StreamInfo().State.LastSeq <= after {
		return nil
	}
	out, err := readAll(ctx, kv)
	if err != nil {
		f.Log.Debug("federation pairings: read the hub's bucket", "err", err)
	}
	if len(out) > 0 {
		f.Log.Info("federation pairings: rounds read from the hub while the mirror waits to resume", "entries", len(out))
	}
	return out
}

// readAll reads the present value of every key of kv; on an error (ctx
// ended first) it returns what it read.
func readAll(ctx context.Context, kv jetstream.KeyValue) ([]jetstream.KeyValueEntry, error) {
	w, err := kv.WatchAll(ctx)
	if err != nil {
		return nil, fmt.Errorf("watch %s: %w", kv.Bucket(), err)
	}
	defer func() { _ = w.Stop() }()
	var out []jetstream.KeyValueEntry
	for {
		select {
		case <-ctx.Done():
			return out, fmt.Errorf("read %s: %w", kv.Bucket(), ctx.Err())
		case e, ok := <-w.Updates():
			if !ok || e == nil { // all there is, read
				return out, nil
			}
			out = append(out, e)
		}
	}
}

// apply applies the pending rounds in order, as far as it can, and returns
// those still pending.
func (f *Follower) apply(ctx context.Context, pending []jetstream.KeyValueEntry) []jetstream.KeyValueEntry {
	for len(pending) > 0 {
		e := pending[0]
		pr, err := DecodeRound(e.Key(), e.Value())
		if err != nil {
			f.Log.Error("federation pairings: round refused", "key", e.Key(), "revision", e.Revision(), "err", err)
			pending = pending[1:]
			continue
		}
		applied, err := f.Apply(ctx, pr.Round)
		if err != nil {
			log := f.Log.Warn
			if errors.Is(err, ErrWaiting) {
				log = f.Log.Debug
			}
			log("federation pairings: round not applied yet", "key", e.Key(), "tournament", pr.Tournament, "err", err)
			return pending
		}
		if applied {
			f.Log.Info("federation pairings: round applied", "tournament", pr.Tournament, "round", pr.Round.Number, "revision", e.Revision())
		}
		pending = pending[1:]
	}
	return pending
}
