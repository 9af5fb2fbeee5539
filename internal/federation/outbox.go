package federation

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
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

	notify chan struct{}
	warned map[uint64]bool
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

func (o *Outbox) init() {
	if o.notify == nil {
		o.notify = make(chan struct{}, 1)
	}
	if o.warned == nil {
		o.warned = map[uint64]bool{}
	}
	if o.Log == nil {
		o.Log = slog.Default()
	}
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
	return n, nil
}
