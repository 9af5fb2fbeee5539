package federation

import (
	"context"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"time"

	"github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"arbiter/store"
)

// Options start a daemon's part of a federation: its configuration, its
// store, and what each role does with the event (the hall's hooks into
// its director, the hub's).
type Options struct {
	Config
	DB  *store.DB
	Log *slog.Logger
	// Tournaments (hall) are the hall's tournaments as its own
	// configuration gives them, compared with the hub's roster.
	Tournaments []Tournament
	// ApplyRound (hall) stores a round the hub paired and starts the
	// hall's games of it; it reports whether the round was new.
	ApplyRound func(context.Context, store.Round) (bool, error)
	// ResultStored (hub), if set, is called with the hub's game after a
	// hall's result was stored.
	ResultStored func(store.Game)
	// MoveStored (hub), if set, is called with each hall's move once, as
	// the hub stored it, in order per game: the hub's live pages show the
	// halls' moves as they arrive.
	MoveStored func(store.Move)
	// AlertStored, if set, is called with the ID of an alert the
	// federation raised or changed in the daemon's store (on a hub, a
	// hall's alert too), of its game (0 if none).
	AlertStored func(id, game uint64, at time.Time)
	// Boards (hall), if set, returns the state of the hall's boards.
	Boards func() []BoardStatus
	// Command (hall), if set, does and audits what the hub's arbiter did
	// about one of the hall's alerts.
	Command func(context.Context, Command) error
	// ApplyPlayers and ApplyResults (hall), if both set, store what the
	// hub keeps of a tournament's players and of a round's results (the
	// roster bucket).
	ApplyPlayers func(context.Context, Roster) error
	ApplyResults func(context.Context, RoundResults) error

	// Rebuild (hub) rebuilds the hub's database, lost, from its NATS
	// store, or from the halls' when that was lost too: without it, a hub
	// whose database and store do not go together is refused
	// (ErrRebuild). RestoreRound, RestorePlayers and RestoreResults store
	// a round, a tournament's players and a round's results as the hub's
	// buckets kept them (RestoreResults returns the results set and the
	// boards waiting for a hall's); Rebuilt, if set, is told what the
	// rebuild did once the halls' facts are in.
	Rebuild        bool
	RestoreRound   func(context.Context, store.Round) (bool, error)
	RestorePlayers func(context.Context, Roster) (bool, error)
	RestoreResults func(context.Context, RoundResults) (set, waiting int, err error)
	Rebuilt        func(summary string)
}

// Node is a running hall outbox or hub inbox with its NATS connection and,
// if embedded, its server.
type Node struct {
	role      role
	o         Options
	srv       *server.Server
	nc        *nats.Conn
	outbox    *Outbox
	pairer    *Pairer
	roster    *RosterWriter
	js        jetstream.JetStream
	halls     []Hall
	commander *Commander
	inbox     *Inbox
	stop      func()
	link      linker
	ctx       context.Context
	cancel    context.CancelFunc
	wg        sync.WaitGroup
}

// Start connects to (or embeds) the NATS server and starts the role's
// parts (a hall's outbox and followers, a hub's inbox and writers) until
// ctx ends or Close.
func Start(ctx context.Context, o Options) (_ *Node, err error) {
	r, ok := roles[o.Role]
	if !ok {
		return nil, fmt.Errorf("federation: role %q: want %s", o.Role, strings.Join(roleNames(), " or "))
	}
	if o.Log == nil {
		o.Log = slog.Default()
	}
	ctx, cancel := context.WithCancel(ctx)
	n := &Node{role: r, o: o, ctx: ctx, cancel: cancel}
	n.link = r.link(n)
	defer func() {
		if err != nil {
			n.Close()
		}
	}()
	url := o.URL
	copts := []nats.Option{nats.Name("arbiter " + string(o.Role)), nats.MaxReconnects(-1)}
	if url == "" {
		sc := ServerConfig{Name: o.Hall, Domain: o.Hall, Listen: o.Listen, StoreDir: o.StoreDir,
			Log: o.Log, Watch: n.link.serverLine}
		more, err := r.server(&sc, o)
		if err != nil {
			return nil, fmt.Errorf("federation: %w", err)
		}
		copts = append(copts, more...)
		if n.srv, err = StartServer(sc); err != nil {
			return nil, fmt.Errorf("federation: %w", err)
		}
		url = n.srv.ClientURL()
	} else if o.TLSCA != "" {
		copts = append(copts, nats.RootCAs(o.TLSCA))
	}
	if n.nc, err = nats.Connect(url, copts...); err != nil {
		// Not the URL: it may hold a password.
		return nil, fmt.Errorf("federation: connect to the NATS server: %w", err)
	}
	if n.js, err = jetstream.New(n.nc); err != nil {
		return nil, fmt.Errorf("federation: %w", err)
	}
	if err := r.start(ctx, n, o); err != nil {
		return nil, fmt.Errorf("federation: %w", err)
	}
	n.wg.Go(func() { n.link.run(ctx) })
	o.Log.Info("federation started", "role", o.Role, "hall", o.Hall, "nats", redactURL(url), "embedded", n.srv != nil)
	return n, nil
}

// Done is closed once the daemon has played its part of the event and the
// others have it. played is closed when every tournament is finished here
// (in a hall: every round the hub paired, and every board's result, the
// hall's own and the other halls' from the hub). Then the role's ready is
// asked every poll: in a hall, whether the hub has every fact of its
// games; on the hub, whether every linked hall's mirror has the last
// roster (its last results), for at most 30 s after played, with a
// warning. It is never closed if the node stops first.
func (n *Node) Done(played <-chan struct{}, poll time.Duration) <-chan struct{} {
	ready := func(ctx context.Context) (bool, error) { return n.role.ready(ctx, n) }
	return doneWhen(n.ctx, &n.wg, played, ready, poll, n.role.wait, n.role.waitingFor, n.o.Log)
}

// doneWhen returns a channel closed once played is closed and then ready
// reports true (asked every poll), or limit (if > 0) after played, with a
// warning naming what was waited for; never if ctx ends first. Its
// goroutine is in wg.
func doneWhen(ctx context.Context, wg *sync.WaitGroup, played <-chan struct{}, ready func(context.Context) (bool, error), poll, limit time.Duration, what string, log *slog.Logger) <-chan struct{} {
	done := make(chan struct{})
	wg.Go(func() {
		select {
		case <-ctx.Done():
			return
		case <-played:
		}
		var deadline <-chan time.Time
		if limit > 0 {
			deadline = time.After(limit)
		}
		t := time.NewTicker(poll)
		defer t.Stop()
		for {
			ok, err := ready(ctx)
			switch {
			case err != nil && ctx.Err() == nil:
				log.Error("federation: "+what, "err", err)
			case ok:
				close(done)
				return
			}
			select {
			case <-ctx.Done():
				return
			case <-deadline:
				log.Warn("federation: done without "+what, "waited", limit)
				close(done)
				return
			case <-t.C:
			}
		}
	})
	return done
}

// Notify tells a hall's outbox that the store committed something; a hub
// ignores it.
func (n *Node) Notify() {
	if n.outbox != nil {
		n.outbox.Notify()
	}
}

// RoundPaired tells a hub's pairings writer that a round was paired; a
// hall ignores it.
func (n *Node) RoundPaired() {
	if n.pairer != nil {
		n.pairer.Notify()
	}
}

// RosterChanged tells a hub's roster writer that players, results or a
// tournament's rounds changed; a hall ignores it.
func (n *Node) RosterChanged() {
	if n.roster != nil {
		n.roster.Notify()
	}
}

// RosterDelivered writes, on a hub, what changed of the roster, and
// reports whether the mirror of every hall linked to the hub holds all of
// it (the package's RosterDelivered); a hall's is always delivered.
func (n *Node) RosterDelivered(ctx context.Context) (bool, error) {
	if n.roster == nil {
		return true, nil
	}
	if err := n.roster.Publish(ctx); err != nil {
		return false, err
	}
	return RosterDelivered(ctx, n.js, n.halls)
}

// OutboxEmpty reports, on a hall, whether every game's facts (the game,
// its moves, its result) were acknowledged by the hall stream, from where
// the hub sources them; a hub's is always empty.
func (n *Node) OutboxEmpty() (bool, error) {
	if n.outbox == nil {
		return true, nil
	}
	items, err := n.outbox.DB.OutboxPending(1)
	if err != nil {
		return false, fmt.Errorf("federation outbox: %w", err)
	}
	return len(items) == 0, nil
}

// AlertsChanged tells a hub's command sender that alerts changed (one of
// the halls' may have been resolved by the hub's arbiter); a hall ignores
// it.
func (n *Node) AlertsChanged() {
	if n.commander != nil {
		n.commander.Notify()
	}
}

// Links returns the state of the hall's link to the hub (in a hall) or of
// each hall's (on the hub: the configured halls in order, then any other
// that tried to link).
func (n *Node) Links() []LinkStatus { return n.link.links() }

// Health is nil, or the mistakes in the way of the federation's links
// (/healthz): in a hall, a link the hub refuses, a name another hall
// uses, boards another hall plays, a roster it cannot take; on the hub,
// the same about each hall.
func (n *Node) Health() error { return n.link.health() }

// alert raises an alert in the daemon's store and tells the pages.
func (n *Node) alert(a store.Alert) {
	if err := n.o.DB.AddAlert(&a); err != nil {
		n.o.Log.Error("federation: alert", "alert", a.Message, "err", err)
		return
	}
	if n.o.AlertStored != nil {
		n.o.AlertStored(a.ID, a.GameID, a.At)
	}
}

// Boards returns, on a hub, the last status each hall gave of its boards.
func (n *Node) Boards() map[string][]BoardStatus {
	if n.inbox == nil {
		return nil
	}
	return n.inbox.Boards()
}

// storedGame is the hub's game of a hall's fact.
func storedGame(db *store.DB, f Fact) (store.Game, error) {
	id, err := db.ImportedGame(f.Hall, f.GameID)
	if err != nil {
		return store.Game{}, err
	}
	return db.Game(id)
}

// Close stops the outbox or inbox, the connection and the embedded
// server.
func (n *Node) Close() {
	n.cancel()
	if n.stop != nil {
		n.stop()
	}
	n.wg.Wait()
	if n.nc != nil {
		n.nc.Close()
	}
	if n.srv != nil {
		n.srv.Shutdown()
		n.srv.WaitForShutdown()
	}
}
