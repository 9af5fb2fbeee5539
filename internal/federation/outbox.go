package federation

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"arbiter/store"
)

// Outbox publishes a hall's committed facts from its store to the hall
// stream. It reads the store after each game's outbox cursor and moves the
// cursor only after JetStream acknowledged, so a crash between a commit and
// its publication loses nothing: the next Flush publishes again, and the
// stream drops what it already has by Nats-Msg-Id.
type Outbox struct {
	DB   *store.DB
	JS   jetstream.JetStream
	Hall string
	Log  *slog.Logger
	// Poll is how often Run looks at the store without a Notify (0: 1s).
	Poll time.Duration
	// Batch bounds the moves sent by one Flush (0: 1000).
	Batch int
	// Boards, if set, returns the state of the hall's boards, published
	// when it changes.
	Boards func() []BoardStatus
	// AuditEvery is how often Flush looks for new alerts, actions and
	// board states (0: 500ms): reading them all is not done per move.
	AuditEvery time.Duration

	once   sync.Once
	notify chan struct{}
	warned map[uint64]bool

	// What was acknowledged of the hall's audit (a restarted outbox
	// publishes it all again; the stream and the hub drop the repeats).
	lastAudit  time.Time
	alertSent  map[uint64]string // alert ID -> its last fact's Nats-Msg-Id
	actionSent uint64            // actions up to this ID
	statusSent string
}

// Notify tells a running outbox that the store committed something. It
// never blocks.
func (o *Outbox) Notify() {
	o.init()
	select {
	case o.notify <- struct{}{}:
	default:
	}
}

// init sets the outbox up once, whoever comes first: Notify, Run or
// Flush.
func (o *Outbox) init() {
	o.once.Do(func() {
		o.notify = make(chan struct{}, 1)
		o.warned = map[uint64]bool{}
		if o.Log == nil {
			o.Log = slog.Default()
		}
	})
}

// Run flushes the outbox after each Notify and every Poll until ctx ends.
// A failed flush is logged and retried at the next poll.
func (o *Outbox) Run(ctx context.Context) error {
	o.init()
	poll := o.Poll
	if poll <= 0 {
		poll = time.Second
	}
	t := time.NewTicker(poll)
	defer t.Stop()
	for {
		for {
			n, err := o.Flush(ctx)
			if err != nil {
				if ctx.Err() != nil {
					return ctx.Err()
				}
				o.Log.Warn("federation outbox: publish failed, retrying", "hall", o.Hall, "err", err)
				break
			}
			if n == 0 {
				break
			}
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-o.notify:
		case <-t.C:
		}
	}
}

type published struct {
	gameID uint64
	cursor store.OutboxCursor
	ack    jetstream.PubAckFuture
}

// Flush publishes the facts after the cursors, waits for JetStream's
// acknowledgements and stores the cursors they allow; it returns how many
// facts were acknowledged.
func (o *Outbox) Flush(ctx context.Context) (int, error) {
	o.init()
	batch := o.Batch
	if batch <= 0 {
		batch = 1000
	}
	items, err := o.DB.OutboxPending(batch)
	if err != nil {
		return 0, fmt.Errorf("federation outbox: read store: %w", err)
	}
	games := gameBatch{o: o}
	for _, it := range items {
		if !games.publishItem(it) {
			break
		}
	}
	cursors, n := games.acknowledge(ctx)
	if err := o.DB.SetOutboxCursors(cursors); err != nil {
		return n, fmt.Errorf("federation outbox: store cursors: %w", err)
	}
	if games.err != nil {
		return n, fmt.Errorf("federation outbox: %w", games.err)
	}
	if !o.auditDue() {
		return n, nil
	}
	na, err := o.flushAudit(ctx)
	return n + na, err
}

// auditDue reports whether AuditEvery passed since the last audit, and if
// so starts the next.
func (o *Outbox) auditDue() bool {
	every := o.AuditEvery
	if every <= 0 {
		every = 500 * time.Millisecond
	}
	if time.Since(o.lastAudit) < every {
		return false
	}
	o.lastAudit = time.Now()
	return true
}

// gameBatch is what one Flush published of the games' facts, and the
// first error that stopped it.
type gameBatch struct {
	o    *Outbox
	sent []published
	err  error
}

// publishItem publishes a game's facts after its cursor: the game if it
// was not, its moves, and its result if it has one. It reports false when
// a publication failed, which ends the batch.
func (b *gameBatch) publishItem(it store.OutboxItem) bool {
	o := b.o
	g, cur := it.Game, it.Cursor
	if it.Behind && !o.warned[g.ID] {
		o.warned[g.ID] = true
		o.Log.Warn("federation outbox: moves published to the hub were taken back in the hall; the hub keeps them",
			"hall", o.Hall, "game", g.ID, "published ply", cur.Ply)
	}
	if !cur.Game {
		cur.Game = true
		gg := g
		gg.Clock, gg.Result, gg.Reason, gg.Ended = nil, "", "", time.Time{}
		if !b.publish(g, Fact{Kind: KindGame, Hall: o.Hall, GameID: g.ID, Game: &gg}, cur) {
			return false
		}
	}
	for i := range it.Moves {
		m := it.Moves[i]
		cur.Ply = m.Ply
		if !b.publish(g, Fact{Kind: KindMove, Hall: o.Hall, GameID: g.ID, Move: &m}, cur) {
			return false
		}
	}
	if g.Result != "" && !cur.Result {
		cur.Result = true
		f := Fact{Kind: KindResult, Hall: o.Hall, GameID: g.ID, Result: g.Result, Reason: g.Reason, Ended: g.Ended, Plies: cur.Ply}
		return b.publish(g, f, cur)
	}
	return true
}

// publish sends one fact of game g without waiting for its
// acknowledgement; cur is the game's cursor once it is acknowledged. It
// reports false, with b.err set, when the fact could not be sent.
func (b *gameBatch) publish(g store.Game, f Fact, cur store.OutboxCursor) bool {
	o := b.o
	data, err := json.Marshal(f)
	if err != nil {
		b.err = fmt.Errorf("encode %s fact of game %d: %w", f.Kind, g.ID, err)
		return false
	}
	msg := &nats.Msg{Subject: Subject(o.Hall, g), Data: data}
	ack, err := o.JS.PublishMsgAsync(msg, jetstream.WithMsgID(f.MsgID()), jetstream.WithExpectStream(HallStream(o.Hall)))
	if err != nil {
		b.err = fmt.Errorf("publish %s: %w", f.MsgID(), err)
		return false
	}
	b.sent = append(b.sent, published{g.ID, cur, ack})
	return true
}

// acknowledge waits for the acknowledgement of every fact sent and returns
// each game's cursor up to its last fact acknowledged in order, and how
// many facts were; the failures are joined to b.err.
func (b *gameBatch) acknowledge(ctx context.Context) (map[uint64]store.OutboxCursor, int) {
	cursors := map[uint64]store.OutboxCursor{}
	failed := map[uint64]bool{}
	n := 0
	for _, p := range b.sent {
		select {
		case <-p.ack.Ok():
			if !failed[p.gameID] {
				cursors[p.gameID] = p.cursor
				n++
			}
		case err := <-p.ack.Err():
			failed[p.gameID] = true
			b.err = errors.Join(b.err, fmt.Errorf("publish %s: %w", p.ack.Msg().Header.Get(jetstream.MsgIDHeader), err))
		case <-ctx.Done():
			b.err = errors.Join(b.err, ctx.Err())
			failed[p.gameID] = true
		}
	}
	return cursors, n
}

// flushAudit publishes the alerts whose state changed, the actions after
// the last one acknowledged and the boards' status if it changed.
func (o *Outbox) flushAudit(ctx context.Context) (int, error) {
	if o.alertSent == nil {
		o.alertSent = map[uint64]string{}
	}
	audit := auditBatch{o: o}
	alerts, err := o.DB.Alerts(false)
	if err != nil {
		return 0, fmt.Errorf("federation outbox: read alerts: %w", err)
	}
	pubErr := audit.publishAlerts(alerts)
	if pubErr == nil {
		actions, err := o.DB.Actions(0)
		if err != nil {
			return 0, fmt.Errorf("federation outbox: read actions: %w", err)
		}
		pubErr = audit.publishActions(actions)
	}
	if pubErr == nil && o.Boards != nil {
		pubErr = audit.publishStatus(o.Boards())
	}
	return audit.acknowledge(ctx, pubErr)
}

// auditBatch is what one flushAudit published: each fact with its
// acknowledgement to come, and the boards' status sent, if it was.
type auditBatch struct {
	o    *Outbox
	sent []sentFact
	// status is the boards' status as published, to compare the next
	// with.
	status string
}

type sentFact struct {
	f   Fact
	ack jetstream.PubAckFuture
}

// publish sends an audit fact on subject without waiting for its
// acknowledgement.
func (b *auditBatch) publish(subject string, f Fact) error {
	data, err := json.Marshal(f)
	if err != nil {
		return fmt.Errorf("encode %s fact: %w", f.Kind, err)
	}
	opts := []jetstream.PublishOpt{jetstream.WithExpectStream(HallStream(b.o.Hall))}
	if id := f.MsgID(); id != "" {
		opts = append(opts, jetstream.WithMsgID(id))
	}
	ack, err := b.o.JS.PublishMsgAsync(&nats.Msg{Subject: subject, Data: data}, opts...)
	if err != nil {
		return fmt.Errorf("publish %s fact: %w", f.Kind, err)
	}
	b.sent = append(b.sent, sentFact{f, ack})
	return nil
}

// publishAlerts sends the alerts whose state is not the one last
// acknowledged, but for the link's and the roster's, which the hub raises
// itself (a hall's hello tells it).
func (b *auditBatch) publishAlerts(alerts []store.Alert) error {
	o := b.o
	for i := range alerts {
		a := alerts[i]
		if a.Kind == KindLinkAlert || a.Kind == KindRosterAlert {
			continue
		}
		f := Fact{Kind: KindAlert, Hall: o.Hall, GameID: a.GameID, Alert: &a}
		if o.alertSent[a.ID] == f.MsgID() {
			continue
		}
		if err := b.publish(AuditSubject(o.Hall, KindAlert, a.ID), f); err != nil {
			return err
		}
	}
	return nil
}

// publishActions sends the actions after the last one acknowledged.
func (b *auditBatch) publishActions(actions []store.Action) error {
	o := b.o
	for i := range actions {
		a := actions[i]
		if a.ID <= o.actionSent {
			continue
		}
		if err := b.publish(AuditSubject(o.Hall, KindAction, a.ID), Fact{Kind: KindAction, Hall: o.Hall, GameID: a.GameID, Action: &a}); err != nil {
			return err
		}
	}
	return nil
}

// publishStatus sends the boards' status if it is not the one last
// acknowledged.
func (b *auditBatch) publishStatus(boards []BoardStatus) error {
	data, _ := json.Marshal(boards)
	if b.status = string(data); b.status == b.o.statusSent {
		return nil
	}
	return b.publish(StatusSubject(b.o.Hall), Fact{Kind: KindStatus, Hall: b.o.Hall, Boards: boards})
}

// acknowledge waits for the acknowledgement of every fact sent, records
// what each acknowledges (an action only while all before it were), and
// returns how many were acknowledged, and pubErr joined with the failures.
// It returns ctx's error as soon as ctx ends.
func (b *auditBatch) acknowledge(ctx context.Context, pubErr error) (int, error) {
	n := 0
	actionsOK := true
	for _, s := range b.sent {
		select {
		case <-s.ack.Ok():
			n++
			b.acknowledged(s.f, actionsOK)
		case err := <-s.ack.Err():
			if s.f.Kind == KindAction {
				actionsOK = false
			}
			pubErr = errors.Join(pubErr, fmt.Errorf("publish %s fact: %w", s.f.Kind, err))
		case <-ctx.Done():
			return n, ctx.Err()
		}
	}
	if pubErr != nil {
		return n, fmt.Errorf("federation outbox: %w", pubErr)
	}
	return n, nil
}

// acknowledged records that JetStream has fact f: an alert in its state,
// an action if every one before it was acknowledged too (actionsOK), the
// boards' status.
func (b *auditBatch) acknowledged(f Fact, actionsOK bool) {
	o := b.o
	switch f.Kind {
	case KindAlert:
		o.alertSent[f.Alert.ID] = f.MsgID()
	case KindAction:
		if actionsOK {
			o.actionSent = f.Action.ID
		}
	case KindStatus:
		o.statusSent = b.status
	}
}
