package federation

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"arbiter/store"
)

// ensureHubBucket creates (or opens) a key-value bucket the hub alone
// writes; what names it in errors ("pairings", "roster").
func ensureHubBucket(ctx context.Context, js jetstream.JetStream, bucket, what, description string) (jetstream.KeyValue, error) {
	kv, err := js.CreateOrUpdateKeyValue(ctx, jetstream.KeyValueConfig{Bucket: bucket, History: 5,
		Description: description, Storage: jetstream.FileStorage})
	if err != nil {
		return nil, fmt.Errorf("%s bucket: %w", what, err)
	}
	return kv, nil
}

// mirrorHubBucket creates (or opens) hall's read-only mirror of the hub's
// bucket, which lives in JetStream domain hubDomain; the mirror is
// delivered on the hall's own subjects (DeliverPrefix.hall.what).
func mirrorHubBucket(ctx context.Context, js jetstream.JetStream, hall, hubDomain, bucket, what, description string) (jetstream.KeyValue, error) {
	if err := ValidName(hall); err != nil {
		return nil, fmt.Errorf("%s mirror: %w", what, err)
	}
	kv, err := js.CreateOrUpdateKeyValue(ctx, jetstream.KeyValueConfig{Bucket: bucket, Storage: jetstream.FileStorage,
		Description: description,
		Mirror: &jetstream.StreamSource{Name: bucket, External: &jetstream.ExternalStream{
			APIPrefix: "$JS." + hubDomain + ".API", DeliverPrefix: DeliverPrefix + "." + hall + "." + what}}})
	if err != nil {
		return nil, fmt.Errorf("%s mirror of domain %s: %w", what, hubDomain, err)
	}
	return kv, nil
}

// wake is the doorbell of a hub's bucket writer: a Notify never blocks,
// and a burst of them wakes the writer once.
type wake struct {
	once sync.Once
	ch   chan struct{}
}

func (w *wake) c() chan struct{} {
	w.once.Do(func() { w.ch = make(chan struct{}, 1) })
	return w.ch
}

func (w *wake) notify() {
	select {
	case w.c() <- struct{}{}:
	default:
	}
}

// bucketWriter is what the hub's writers of a key-value bucket share: the
// loop that publishes at start, after each wake-up and every poll, and the
// alert raised once per key someone else wrote.
type bucketWriter struct {
	db      *store.DB
	log     *slog.Logger
	poll    time.Duration // 0: 5s
	what    string        // "pairings", "roster": for the log
	bucket  string
	changed error  // the error a foreign write is reported with
	advice  string // the alert's advice on a foreign write
	wake    *wake
	publish func(context.Context) error
}

// run publishes until ctx ends. A failed publish is logged and tried again
// at the next wake-up or poll; one caused by a foreign write raises an
// alert once per distinct error.
func (b bucketWriter) run(ctx context.Context) error {
	log := b.log
	if log == nil {
		log = slog.Default()
	}
	poll := b.poll
	if poll <= 0 {
		poll = 5 * time.Second
	}
	t := time.NewTicker(poll)
	defer t.Stop()
	alerted := map[string]bool{}
	for {
		if err := b.publish(ctx); err != nil && ctx.Err() == nil {
			log.Error("federation "+b.what+": publish", "err", err)
			if errors.Is(err, b.changed) && !alerted[err.Error()] {
				alerted[err.Error()] = true
				a := &store.Alert{Kind: "federation", Message: err.Error(), At: time.Now(), Where: b.bucket, Advice: b.advice}
				if aerr := b.db.AddAlert(a); aerr != nil {
					log.Error("federation "+b.what+": alert", "err", aerr)
				}
			}
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-b.wake.c():
		case <-t.C:
		}
	}
}
