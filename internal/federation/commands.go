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

// CommandStream is the hub's stream of what its arbiters do to the halls'
// alerts, subjects arbiter-cmd.<hall>.<what>. Each hall takes its own
// through a durable consumer, so that a command given while its link is
// down reaches it when the link returns.
const CommandStream = "ARBITER_COMMANDS"

// CommandSubject is the subject of a command to a hall.
func CommandSubject(hall, what string) string { return "arbiter-cmd." + hall + "." + what }

// CmdResolveAlert resolves one of the hall's alerts.
const CmdResolveAlert = "resolve-alert"

// Command is something the hub's arbiter did about a hall's alert, for
// the hall to do and audit.
type Command struct {
	What  string    `json:"what"`  // CmdResolveAlert
	Alert uint64    `json:"alert"` // the hall's ID of the alert
	Who   string    `json:"who"`
	Why   string    `json:"why"`
	At    time.Time `json:"at"`
}

// MsgID is the command's Nats-Msg-Id: one command per alert and what.
func (c Command) MsgID(hall string) string {
	return fmt.Sprintf("cmd/%s/%s/%d", hall, c.What, c.Alert)
}

// DecodeCommand reads a command and checks it.
func DecodeCommand(subject string, data []byte) (Command, error) {
	var c Command
	if err := json.Unmarshal(data, &c); err != nil {
		return c, fmt.Errorf("command on %s: %w", subject, err)
	}
	if c.What != CmdResolveAlert {
		return c, fmt.Errorf("command on %s: unknown command %q", subject, c.What)
	}
	if c.Alert == 0 || c.Who == "" {
		return c, fmt.Errorf("command on %s: %s without its alert or who", subject, c.What)
	}
	return c, nil
}

// EnsureCommands creates (or updates) the hub's command stream.
func EnsureCommands(ctx context.Context, js jetstream.JetStream) error {
	_, err := js.CreateOrUpdateStream(ctx, jetstream.StreamConfig{Name: CommandStream, Subjects: []string{"arbiter-cmd.>"},
		Storage: jetstream.FileStorage, Duplicates: DedupWindow})
	if err != nil {
		return fmt.Errorf("command stream: %w", err)
	}
	return nil
}

// Commander is the hub's sender of commands: each hall alert that the
// hub's arbiter resolved (with an action of the hub, not by the hall's
// own fact) is sent to its hall once.
type Commander struct {
	DB  *store.DB
	JS  jetstream.JetStream
	Log *slog.Logger
	// Poll is how often Run looks without a Notify (0: 2s).
	Poll time.Duration

	notify chan struct{}
	sent   map[uint64]bool // hub alert IDs
}

// Notify tells a running Commander that alerts changed. It never blocks.
func (c *Commander) Notify() {
	select {
	case c.notifyChan() <- struct{}{}:
	default:
	}
}

func (c *Commander) notifyChan() chan struct{} {
	if c.notify == nil {
		c.notify = make(chan struct{}, 1)
	}
	return c.notify
}

// Run sends commands until ctx ends.
func (c *Commander) Run(ctx context.Context) error {
	if c.Log == nil {
		c.Log = slog.Default()
	}
	notify := c.notifyChan()
	poll := c.Poll
	if poll <= 0 {
		poll = 2 * time.Second
	}
	t := time.NewTicker(poll)
	defer t.Stop()
	for {
		if _, err := c.Send(ctx); err != nil && ctx.Err() == nil {
			c.Log.Warn("federation commands: send failed, retrying", "err", err)
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-notify:
		case <-t.C:
		}
	}
}

// Send sends the commands not sent yet and returns how many were.
func (c *Commander) Send(ctx context.Context) (int, error) {
	if c.sent == nil {
		c.sent = map[uint64]bool{}
	}
	links, err := c.DB.HallAlerts()
	if err != nil {
		return 0, fmt.Errorf("federation commands: %w", err)
	}
	var alerts map[uint64]store.Alert
	var actions map[uint64]store.Action
	n := 0
	for _, l := range links {
		if c.sent[l.HubID] {
			continue
		}
		if alerts == nil {
			if alerts, actions, err = c.audit(); err != nil {
				return n, err
			}
		}
		a := alerts[l.HubID]
		if !a.Resolved || a.Resolution == 0 {
			continue // open, or resolved by the hall itself
		}
		act := actions[a.Resolution]
		cmd := Command{What: CmdResolveAlert, Alert: l.HallID, Who: act.Who, Why: act.Why, At: act.At}
		data, err := json.Marshal(cmd)
		if err != nil {
			return n, fmt.Errorf("federation commands: %w", err)
		}
		msg := &nats.Msg{Subject: CommandSubject(l.Hall, cmd.What), Data: data}
		if _, err := c.JS.PublishMsg(ctx, msg, jetstream.WithMsgID(cmd.MsgID(l.Hall)), jetstream.WithExpectStream(CommandStream)); err != nil {
			return n, fmt.Errorf("federation commands: %s to hall %s: %w", cmd.What, l.Hall, err)
		}
		c.sent[l.HubID] = true
		n++
		c.Log.Info("federation command sent", "hall", l.Hall, "what", cmd.What, "alert", l.HallID, "who", cmd.Who)
	}
	return n, nil
}

func (c *Commander) audit() (map[uint64]store.Alert, map[uint64]store.Action, error) {
	als, err := c.DB.Alerts(false)
	if err != nil {
		return nil, nil, fmt.Errorf("federation commands: %w", err)
	}
	acts, err := c.DB.Actions(0)
	if err != nil {
		return nil, nil, fmt.Errorf("federation commands: %w", err)
	}
	alerts := make(map[uint64]store.Alert, len(als))
	for _, a := range als {
		alerts[a.ID] = a
	}
	actions := make(map[uint64]store.Action, len(acts))
	for _, a := range acts {
		actions[a.ID] = a
	}
	return alerts, actions, nil
}

// CommandFollower is a hall's taker of its commands, from the hub's
// command stream through its own durable consumer there (reached across
// the leaf node link, in the hub's JetStream domain): each command is given
// to Apply once, which does it and audits it in the hall. While the link
// is down the commands wait in the hub's stream.
type CommandFollower struct {
	// JS reaches the hub's domain (jetstream.NewWithDomain).
	JS    jetstream.JetStream
	Hall  string
	Apply func(context.Context, Command) error
	Log   *slog.Logger
	// Retry is the wait between tries to reach the hub's stream (0: 2s).
	Retry time.Duration
}

// Durable is the name of the hall's consumer of the hub's command stream.
func (f *CommandFollower) Durable() string { return "hall-" + f.Hall }

// Run takes the hall's commands until ctx ends, reaching for the hub's
// stream until it answers.
func (f *CommandFollower) Run(ctx context.Context) error {
	if f.Log == nil {
		f.Log = slog.Default()
	}
	retry := f.Retry
	if retry <= 0 {
		retry = 2 * time.Second
	}
	for {
		cons, err := f.JS.CreateOrUpdateConsumer(ctx, CommandStream, jetstream.ConsumerConfig{
			Durable: f.Durable(), FilterSubject: CommandSubject(f.Hall, ">"), AckPolicy: jetstream.AckExplicitPolicy,
			AckWait: 5 * time.Second, MaxDeliver: -1, MaxAckPending: 1})
		if err == nil {
			// A consumer lost with the hub's NATS store (a hub rebuilt
			// from the halls) is made again.
			lost := make(chan error, 1)
			cc, err := cons.Consume(func(msg jetstream.Msg) { f.handle(ctx, msg) }, jetstream.PullExpiry(2*time.Second),
				jetstream.ConsumeErrHandler(func(_ jetstream.ConsumeContext, err error) {
					if errors.Is(err, jetstream.ErrConsumerDeleted) || errors.Is(err, jetstream.ErrConsumerNotFound) {
						select {
						case lost <- err:
						default:
						}
					}
				}))
			if err == nil {
				select {
				case <-ctx.Done():
					cc.Stop()
					return ctx.Err()
				case err := <-lost:
					cc.Stop()
					f.Log.Warn("federation commands: the hub lost this hall's consumer; making it again", "err", err)
				}
			} else {
				f.Log.Warn("federation commands: consume", "err", err)
			}
		} else if ctx.Err() == nil {
			f.Log.Debug("federation commands: the hub's command stream does not answer yet", "err", err)
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(retry):
		}
	}
}

func (f *CommandFollower) handle(ctx context.Context, msg jetstream.Msg) {
	cmd, err := DecodeCommand(msg.Subject(), msg.Data())
	if err != nil {
		f.Log.Error("federation command refused", "err", err)
		_ = msg.Term()
		return
	}
	if err := f.Apply(ctx, cmd); err != nil {
		f.Log.Warn("federation command not applied, retrying", "what", cmd.What, "alert", cmd.Alert, "err", err)
		_ = msg.NakWithDelay(backoff(msg))
		return
	}
	if err := msg.Ack(); err != nil {
		f.Log.Warn("federation commands: ack", "err", err)
	}
}
