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
	var sent []published
	var pubErr error
	publish := func(g store.Game, f Fact, cur store.OutboxCursor) bool {
		data, err := json.Marshal(f)
		if err != nil {
			pubErr = fmt.Errorf("encode %s fact of game %d: %w", f.Kind, g.ID, err)
			return false
		}
		msg := &nats.Msg{Subject: Subject(o.Hall, g), Data: data}
		ack, err := o.JS.PublishMsgAsync(msg, jetstream.WithMsgID(f.MsgID()), jetstream.WithExpectStream(HallStream(o.Hall)))
		if err != nil {
			pubErr = fmt.Errorf("publish %s: %w", f.MsgID(), err)
			return false
		}
		sent = append(sent, published{g.ID, cur, ack})
		return true
	}
items:
	for _, it := range items {
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
			if !publish(g, Fact{Kind: KindGame, Hall: o.Hall, GameID: g.ID, Game: &gg}, cur) {
				break
			}
		}
		for i := range it.Moves {
			m := it.Moves[i]
			cur.Ply = m.Ply
			if !publish(g, Fact{Kind: KindMove, Hall: o.Hall, GameID: g.ID, Move: &m}, cur) {
				break items
			}
		}
		if g.Result != "" && !cur.Result {
			cur.Result = true
			f := Fact{Kind: KindResult, Hall: o.Hall, GameID: g.ID, Result: g.Result, Reason: g.Reason, Ended: g.Ended, Plies: cur.Ply}
			if !publish(g, f, cur) {
				break
			}
		}
	}
	// Move each game's cursor up to its last fact acknowledged in order.
	cursors := map[uint64]store.OutboxCursor{}
	failed := map[uint64]bool{}
	n := 0
	for _, p := range sent {
		select {
		case <-p.ack.Ok():
			if !failed[p.gameID] {
				cursors[p.gameID] = p.cursor
				n++
			}
		case err := <-p.ack.Err():
			failed[p.gameID] = true
			pubErr = errors.Join(pubErr, fmt.Errorf("publish %s: %w", p.ack.Msg().Header.Get(jetstream.MsgIDHeader), err))
		case <-ctx.Done():
			pubErr = errors.Join(pubErr, ctx.Err())
			failed[p.gameID] = true
		}
	}
	if err := o.DB.SetOutboxCursors(cursors); err != nil {
		return n, fmt.Errorf("federation outbox: store cursors: %w", err)
	}
	if pubErr != nil {
		return n, fmt.Errorf("federation outbox: %w", pubErr)
	}
	every := o.AuditEvery
	if every <= 0 {
		every = 500 * time.Millisecond
	}
	if time.Since(o.lastAudit) < every {
		return n, nil
	}
	o.lastAudit = time.Now()
	na, err := o.flushAudit(ctx)
	return n + na, err
}

// flushAudit publishes the alerts whose state changed, the actions after
// the last one acknowledged and the boards' status if it changed.
func (o *Outbox) flushAudit(ctx context.Context) (int, error) {
	if o.alertSent == nil {
		o.alertSent = map[uint64]string{}
	}
	type sentFact struct {
		f   Fact
		ack jetstream.PubAckFuture
	}
	var sent []sentFact
	publish := func(subject string, f Fact) error {
		data, err := json.Marshal(f)
		if err != nil {
			return fmt.Errorf("encode %s fact: %w", f.Kind, err)
		}
		opts := []jetstream.PublishOpt{jetstream.WithExpectStream(HallStream(o.Hall))}
		if id := f.MsgID(); id != "" {
			opts = append(opts, jetstream.WithMsgID(id))
		}
		ack, err := o.JS.PublishMsgAsync(&nats.Msg{Subject: subject, Data: data}, opts...)
		if err != nil {
			return fmt.Errorf("publish %s fact: %w", f.Kind, err)
		}
		sent = append(sent, sentFact{f, ack})
		return nil
	}
	alerts, err := o.DB.Alerts(false)
	if err != nil {
		return 0, fmt.Errorf("federation outbox: read alerts: %w", err)
	}
	var pubErr error
	for i := range alerts {
		a := alerts[i]
		if a.Kind == KindLinkAlert || a.Kind == KindRosterAlert {
			continue // the hub raises its own (a hall's hello tells it)
		}
		f := Fact{Kind: KindAlert, Hall: o.Hall, GameID: a.GameID, Alert: &a}
		if o.alertSent[a.ID] == f.MsgID() {
			continue
		}
		if pubErr = publish(AuditSubject(o.Hall, KindAlert, a.ID), f); pubErr != nil {
			break
		}
	}
	if pubErr == nil {
		actions, err := o.DB.Actions(0)
		if err != nil {
			return 0, fmt.Errorf("federation outbox: read actions: %w", err)
		}
		for i := range actions {
			a := actions[i]
			if a.ID <= o.actionSent {
				continue
			}
			if pubErr = publish(AuditSubject(o.Hall, KindAction, a.ID), Fact{Kind: KindAction, Hall: o.Hall, GameID: a.GameID, Action: &a}); pubErr != nil {
				break
			}
		}
	}
	var status string
	if pubErr == nil && o.Boards != nil {
		boards := o.Boards()
		data, _ := json.Marshal(boards)
		if status = string(data); status != o.statusSent {
			pubErr = publish(StatusSubject(o.Hall), Fact{Kind: KindStatus, Hall: o.Hall, Boards: boards})
		}
	}
	n := 0
	actionsOK := true
	for _, s := range sent {
		select {
		case <-s.ack.Ok():
			n++
			switch s.f.Kind {
			case KindAlert:
				o.alertSent[s.f.Alert.ID] = s.f.MsgID()
			case KindAction:
				if actionsOK {
					o.actionSent = s.f.Action.ID
				}
			case KindStatus:
				o.statusSent = status
			}
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
