package federation

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"maps"
	"sync"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"arbiter/store"
)

// Inbox is the hub's durable consumer of the hub stream: it writes each
// fact once, in order per game, into the hub's store.
type Inbox struct {
	DB *store.DB
	JS jetstream.JetStream
	// Durable names the consumer (empty: "arbiter-hub"). A hub whose
	// store was lost rebuilds it from the stream with a new name.
	Durable string
	Log     *slog.Logger
	// Applied, if set, is called after each fact is stored (or found
	// stored already).
	Applied func(Fact)

	mu     sync.Mutex
	boards map[string][]BoardStatus // by hall, the last status heard
}

// Boards returns the last status each hall published of its boards.
func (in *Inbox) Boards() map[string][]BoardStatus {
	in.mu.Lock()
	defer in.mu.Unlock()
	return maps.Clone(in.boards)
}

// retryDelay is how long a fact that arrived before the fact it follows
// waits before it is delivered again.
const retryDelay = 100 * time.Millisecond

// backoff is the wait before a fact is delivered again: retryDelay,
// doubled with each delivery, at most maxRetryDelay.
func backoff(msg jetstream.Msg) time.Duration {
	n := uint64(1)
	if md, err := msg.Metadata(); err == nil && md.NumDelivered > 0 {
		n = md.NumDelivered
	}
	return min(retryDelay<<min(n-1, 10), maxRetryDelay)
}

// maxRetryDelay bounds the wait of a fact delivered again.
const maxRetryDelay = 2 * time.Second

// Start creates or resumes the durable consumer and starts applying facts;
// stop ends it after the facts already delivered.
func (in *Inbox) Start(ctx context.Context) (stop func(), err error) {
	if in.Log == nil {
		in.Log = slog.Default()
	}
	durable := in.Durable
	if durable == "" {
		durable = "arbiter-hub"
	}
	cons, err := in.JS.CreateOrUpdateConsumer(ctx, HubStream, jetstream.ConsumerConfig{
		Durable:       durable,
		AckPolicy:     jetstream.AckExplicitPolicy,
		DeliverPolicy: jetstream.DeliverAllPolicy,
		// Facts a stopped consumer left unacknowledged come again after
		// AckWait; applying one takes a commit, so a short wait is safe.
		AckWait:    5 * time.Second,
		MaxDeliver: -1,
		// One fact at a time: JetStream keeps stream order only for
		// first deliveries, and a redelivered fact (after a hub restart)
		// must not let the facts after it overtake it.
		MaxAckPending: 1,
	})
	if err != nil {
		return nil, fmt.Errorf("federation inbox: consumer %s on %s: %w", durable, HubStream, err)
	}
	cc, err := cons.Consume(in.handle)
	if err != nil {
		return nil, fmt.Errorf("federation inbox: consume %s: %w", HubStream, err)
	}
	// Stopping drains: the facts already delivered are applied and
	// acknowledged, so that a restarted hub need not wait for them.
	return func() {
		cc.Drain()
		select {
		case <-cc.Closed():
		case <-time.After(5 * time.Second):
			cc.Stop()
		}
	}, nil
}

func (in *Inbox) handle(msg jetstream.Msg) {
	f, err := DecodeFact(msg.Subject(), msg.Data())
	if err != nil {
		in.refuse(msg, Fact{}, err)
		return
	}
	err = in.Apply(f)
	switch {
	case err == nil:
		if err := msg.Ack(); err != nil {
			in.Log.Warn("federation inbox: ack", "fact", f.MsgID(), "err", err)
		}
		if in.Applied != nil {
			in.Applied(f)
		}
	case errors.Is(err, store.ErrOutOfOrder), errors.Is(err, store.ErrNotFound) && f.Kind != KindGame:
		in.Log.Debug("federation inbox: out of order", "fact", f.MsgID(), "err", err)
		// The fact it follows is not stored yet: it comes again, later
		// each time (a fact whose game was refused waits for the arbiter).
		if err := msg.NakWithDelay(backoff(msg)); err != nil {
			in.Log.Warn("federation inbox: nak", "fact", f.MsgID(), "err", err)
		}
	default:
		in.refuse(msg, f, err)
	}
}

// refuse keeps a fact the hub cannot store out of the way (it stays in the
// stream) and raises an alert for the arbiter.
func (in *Inbox) refuse(msg jetstream.Msg, f Fact, err error) {
	in.Log.Error("federation inbox: fact refused", "subject", msg.Subject(), "err", err)
	at := time.Time{}
	if md, mdErr := msg.Metadata(); mdErr == nil {
		at = md.Timestamp
	}
	alert := &store.Alert{Kind: "federation", Message: err.Error(), At: at, Where: msg.Subject(),
		Advice: "the fact stays in the hub stream; correct the hall or the hub's pairing, then replay"}
	if aerr := in.DB.AddAlert(alert); aerr != nil {
		in.Log.Error("federation inbox: alert", "err", aerr)
	}
	if err := msg.Term(); err != nil {
		in.Log.Warn("federation inbox: term", "fact", f.MsgID(), "err", err)
	}
}

// Apply stores one fact in the hub's store; a fact stored already is
// skipped.
func (in *Inbox) Apply(f Fact) error {
	switch f.Kind {
	case KindGame:
		_, _, err := in.DB.ImportGame(f.Hall, f.GameID, *f.Game)
		return err
	case KindMove:
		_, err := in.DB.ImportMove(f.Hall, f.GameID, *f.Move)
		return err
	case KindResult:
		return in.DB.ImportResult(f.Hall, f.GameID, f.Result, f.Reason, f.Ended, f.Plies)
	case KindAlert:
		_, err := in.DB.ImportAlert(f.Hall, *f.Alert, in.hubGame(f))
		return err
	case KindAction:
		_, err := in.DB.ImportAction(f.Hall, *f.Action, in.hubGame(f))
		return err
	case KindStatus:
		in.mu.Lock()
		defer in.mu.Unlock()
		if in.boards == nil {
			in.boards = map[string][]BoardStatus{}
		}
		in.boards[f.Hall] = f.Boards
		return nil
	}
	return fmt.Errorf("unknown fact kind %q", f.Kind)
}

// hubGame is the hub's ID of the hall's game a fact is about, 0 if none
// (or one the hub does not hold).
func (in *Inbox) hubGame(f Fact) uint64 {
	if f.GameID == 0 {
		return 0
	}
	id, err := in.DB.ImportedGame(f.Hall, f.GameID)
	if err != nil {
		return 0
	}
	return id
}
