package federation

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"maps"
	"strconv"
	"strings"
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
	// Durable names the consumer (empty: HubDurable). A hub whose store
	// was lost rebuilds it from the stream with a new consumer: the old
	// one deleted, or another name.
	Durable string
	Log     *slog.Logger
	// Applied, if set, is called after each fact is stored (or found
	// stored already).
	Applied func(Fact)
	// Stored, if set, is called after each commit with what its facts
	// added to the hub's store, in stream order: each move once, and each
	// alert the hall raised or changed. A fact found stored already
	// brings no news.
	Stored func(News)
	// Batch bounds the facts stored in one transaction (0: 500).
	Batch int
	// Took, if set, is told of each fact stored or refused for good: its
	// hall and its sequence in the hall's stream.
	Took func(hall string, seq uint64)

	mu     sync.Mutex
	boards map[string][]BoardStatus // by hall, the last status heard
}

// Boards returns the last status each hall published of its boards.
func (in *Inbox) Boards() map[string][]BoardStatus {
	in.mu.Lock()
	defer in.mu.Unlock()
	return maps.Clone(in.boards)
}

// News is what one of a hall's facts added to the hub's store, for the
// hub's live pages.
type News struct {
	Kind string // KindMove or KindAlert
	Hall string
	// Game is the hub's ID of the fact's game, 0 if none.
	Game uint64
	// Move (KindMove) is the move as the hub stored it.
	Move *store.Move
	// Alert (KindAlert) is the hub's ID of the alert.
	Alert uint64
	// At is when the hall made the move, or last saw the alert's cause.
	At time.Time
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
// stop ends it after the facts already fetched are applied.
func (in *Inbox) Start(ctx context.Context) (stop func(), err error) {
	if in.Log == nil {
		in.Log = slog.Default()
	}
	durable := in.Durable
	if durable == "" {
		durable = HubDurable
	}
	batch := in.Batch
	if batch <= 0 {
		batch = 500
	}
	cons, err := in.JS.CreateOrUpdateConsumer(ctx, HubStream, jetstream.ConsumerConfig{
		Durable:       durable,
		AckPolicy:     jetstream.AckExplicitPolicy,
		DeliverPolicy: jetstream.DeliverAllPolicy,
		// Facts a stopped hub left unacknowledged come again after
		// AckWait: a batch is applied and acknowledged well within it.
		AckWait:    30 * time.Second,
		MaxDeliver: -1,
		// The facts of one batch at a time: they are fetched in stream
		// order and acknowledged before the next are fetched, so none
		// overtakes another (after a crash, a redelivered fact that
		// comes late waits for the one it follows: ErrOutOfOrder).
		MaxAckPending: batch,
	})
	if err != nil {
		return nil, fmt.Errorf("federation inbox: consumer %s on %s: %w", durable, HubStream, err)
	}
	ctx, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() {
		defer close(done)
		in.run(ctx, cons, batch)
	}()
	return func() {
		cancel()
		<-done
	}, nil
}

// run fetches what is there, up to batch facts, and applies it in one
// transaction; when nothing is there it waits for the next fact.
func (in *Inbox) run(ctx context.Context, cons jetstream.Consumer, batch int) {
	collect := func(mb jetstream.MessageBatch, err error) []jetstream.Msg {
		if err != nil {
			if ctx.Err() == nil {
				in.Log.Debug("federation inbox: fetch", "err", err)
			}
			return nil
		}
		var msgs []jetstream.Msg
		for m := range mb.Messages() {
			msgs = append(msgs, m)
		}
		if err := mb.Error(); err != nil && ctx.Err() == nil && !errors.Is(err, jetstream.ErrNoMessages) {
			in.Log.Debug("federation inbox: fetch", "err", err)
		}
		return msgs
	}
	for ctx.Err() == nil {
		msgs := collect(cons.FetchNoWait(batch))
		if len(msgs) == 0 {
			msgs = collect(cons.Fetch(1, jetstream.FetchMaxWait(time.Second)))
		}
		if len(msgs) == 0 {
			select {
			case <-ctx.Done():
			case <-time.After(10 * time.Millisecond): // not a busy loop while the server is away
			}
			continue
		}
		in.applyBatch(msgs)
	}
}

// applyBatch stores a batch of facts in one transaction and acknowledges
// them. If one of them cannot be stored, none is, and each is taken alone
// (out of order: it comes again later; refused: an alert).
func (in *Inbox) applyBatch(msgs []jetstream.Msg) {
	facts := make([]Fact, 0, len(msgs))
	for _, m := range msgs {
		f, err := DecodeFact(m.Subject(), m.Data())
		if err != nil {
			break
		}
		facts = append(facts, f)
	}
	if len(facts) == len(msgs) {
		var news []News
		err := in.DB.ImportBatch(func(t *store.ImportTx) error {
			news = news[:0]
			for _, f := range facts {
				n, err := in.applyTx(t, f)
				if err != nil {
					return err
				}
				if n.Kind != "" {
					news = append(news, n)
				}
			}
			return nil
		})
		if err == nil {
			in.tell(news...)
			for i, m := range msgs {
				if err := m.Ack(); err != nil {
					in.Log.Warn("federation inbox: ack", "fact", facts[i].MsgID(), "err", err)
				}
				in.took(m, facts[i].Hall)
				if in.Applied != nil {
					in.Applied(facts[i])
				}
			}
			return
		}
	}
	for _, m := range msgs {
		in.handle(m)
	}
}

func (in *Inbox) handle(msg jetstream.Msg) {
	f, err := DecodeFact(msg.Subject(), msg.Data())
	if err != nil {
		in.refuse(msg, Fact{}, err)
		return
	}
	n, err := in.apply(f)
	switch {
	case err == nil:
		if n.Kind != "" {
			in.tell(n)
		}
		if err := msg.Ack(); err != nil {
			in.Log.Warn("federation inbox: ack", "fact", f.MsgID(), "err", err)
		}
		in.took(msg, f.Hall)
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
	in.took(msg, f.Hall)
}

// took tells Took that the hub took msg, a fact of hall: its sequence in
// the hall's stream is in the header the hub stream's source gave it
// ("<source> <sequence> …").
func (in *Inbox) took(msg jetstream.Msg, hall string) {
	if in.Took == nil || hall == "" {
		return
	}
	fields := strings.Fields(msg.Headers().Get(SourceHeader))
	if len(fields) < 2 {
		return
	}
	if seq, err := strconv.ParseUint(fields[1], 10, 64); err == nil {
		in.Took(hall, seq)
	}
}

// SourceHeader is the header in which a stream's source names the stream
// and the sequence a message came from.
const SourceHeader = "Nats-Stream-Source"

// Apply stores one fact in the hub's store; a fact stored already is
// skipped. What it added goes to Stored.
func (in *Inbox) Apply(f Fact) error {
	n, err := in.apply(f)
	if err == nil && n.Kind != "" {
		in.tell(n)
	}
	return err
}

// apply stores one fact in its own transaction.
func (in *Inbox) apply(f Fact) (n News, err error) {
	err = in.DB.ImportBatch(func(t *store.ImportTx) error {
		n, err = in.applyTx(t, f)
		return err
	})
	return n, err
}

// tell gives Stored what committed facts added.
func (in *Inbox) tell(news ...News) {
	if in.Stored == nil {
		return
	}
	for _, n := range news {
		in.Stored(n)
	}
}

// applyTx stores one fact within a batch, and returns what it added for
// the live pages (Kind empty: nothing to tell).
func (in *Inbox) applyTx(t *store.ImportTx, f Fact) (News, error) {
	switch f.Kind {
	case KindGame:
		_, _, err := t.Game(f.Hall, f.GameID, *f.Game)
		return News{}, err
	case KindMove:
		applied, err := t.Move(f.Hall, f.GameID, *f.Move)
		if err != nil || !applied {
			return News{}, err
		}
		m := *f.Move
		m.GameID = hubGame(t, f)
		return News{Kind: KindMove, Hall: f.Hall, Game: m.GameID, Move: &m, At: m.Wall}, nil
	case KindResult:
		return News{}, t.Result(f.Hall, f.GameID, f.Result, f.Reason, f.Ended, f.Plies)
	case KindAlert:
		game := hubGame(t, f)
		id, err := t.Alert(f.Hall, *f.Alert, game)
		if err != nil {
			return News{}, err
		}
		at := f.Alert.At
		if !f.Alert.Last.IsZero() {
			at = f.Alert.Last
		}
		return News{Kind: KindAlert, Hall: f.Hall, Game: game, Alert: id, At: at}, nil
	case KindAction:
		_, err := t.Action(f.Hall, *f.Action, hubGame(t, f))
		return News{}, err
	case KindStatus:
		in.mu.Lock()
		defer in.mu.Unlock()
		if in.boards == nil {
			in.boards = map[string][]BoardStatus{}
		}
		in.boards[f.Hall] = f.Boards
		return News{}, nil
	}
	return News{}, fmt.Errorf("unknown fact kind %q", f.Kind)
}

// hubGame is the hub's ID of the hall's game a fact is about, 0 if none
// (or one the hub does not hold).
func hubGame(t *store.ImportTx, f Fact) uint64 {
	if f.GameID == 0 {
		return 0
	}
	id, err := t.ImportedGame(f.Hall, f.GameID)
	if err != nil {
		return 0
	}
	return id
}
