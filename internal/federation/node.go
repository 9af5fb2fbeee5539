package federation

import (
	"context"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"os"
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

// hallServer makes the embedded server a hall's: linked to the hub's leaf
// port, trusting the hub's certificate authority if given.
func hallServer(sc *ServerConfig, o Options) ([]nats.Option, error) {
	if o.HubURL != "" {
		sc.LeafRemotes = []string{o.HubURL}
	}
	var err error
	sc.LeafTLS, err = hallTLS(o.TLSCA)
	return nil, err
}

// hubServer makes the embedded server the hub's: its leaf port, with its
// certificate, and the halls' users; the daemon's own client then has a
// password of its own, new at each start.
func hubServer(sc *ServerConfig, o Options) ([]nats.Option, error) {
	sc.Name, sc.Domain, sc.LeafListen = "hub", HubDomain, o.LeafListen
	var err error
	if sc.LeafTLS, err = hubTLS(o.TLSCert, o.TLSKey); err != nil {
		return nil, err
	}
	if len(o.HallPasswords) == 0 {
		return nil, nil
	}
	sc.HallUsers = o.HallPasswords
	pw, err := randomPassword()
	if err != nil {
		return nil, err
	}
	sc.LocalPassword = pw
	return []nats.Option{nats.UserInfo(LocalUser, pw)}, nil
}

// startHall starts a hall's parts: its stream and outbox, and its
// followers of the hub's commands, roster and pairings.
func startHall(ctx context.Context, n *Node, o Options) error {
	if err := EnsureHallStream(ctx, n.js, o.Hall); err != nil {
		return err
	}
	n.outbox = &Outbox{DB: o.DB, JS: n.js, Hall: o.Hall, Log: o.Log, Boards: o.Boards}
	hubJS, err := jetstream.NewWithDomain(n.nc, HubDomain)
	if err != nil {
		return err
	}
	if o.Command != nil {
		cf := &CommandFollower{JS: hubJS, Hall: o.Hall, Apply: o.Command, Log: o.Log}
		n.wg.Go(func() { _ = cf.Run(ctx) })
	}
	n.wg.Go(func() { _ = n.outbox.Run(ctx) })
	applyRound := o.ApplyRound
	if o.ApplyPlayers != nil && o.ApplyResults != nil {
		kv, err := MirrorRoster(ctx, n.js, o.Hall, HubDomain)
		if err != nil {
			return err
		}
		guard := newRosterGuard(o.Tournaments, n.link.(*hallLink))
		if err := guard.startCheck(ctx, hubJS, kv); err != nil {
			return err
		}
		f := &RosterFollower{KV: kv, ApplyPlayers: guard.players(o.ApplyPlayers), ApplyResults: o.ApplyResults, Log: o.Log}
		n.wg.Go(func() {
			if err := f.Run(ctx); err != nil && ctx.Err() == nil {
				o.Log.Error("federation roster stopped", "err", err)
			}
		})
		if applyRound != nil {
			applyRound = guard.round(applyRound)
		}
	}
	if applyRound != nil {
		kv, err := MirrorPairings(ctx, n.js, o.Hall, HubDomain)
		if err != nil {
			return err
		}
		f := &Follower{KV: kv, Hub: hubJS, Apply: applyRound, Log: o.Log}
		n.wg.Go(func() {
			if err := f.Run(ctx); err != nil && ctx.Err() == nil {
				o.Log.Error("federation pairings stopped", "err", err)
			}
		})
	}
	return nil
}

// startHub starts the hub's parts: its stream sourcing the halls', its
// writers of the pairings, the roster and the commands, and its inbox.
func startHub(ctx context.Context, n *Node, o Options) error {
	js := n.js
	n.halls = make([]Hall, len(o.Halls))
	for i, h := range o.Halls {
		n.halls[i] = Hall{Name: h, Domain: h}
	}
	state, err := readHubState(ctx, js, o.DB)
	if err != nil {
		return err
	}
	if err := checkHubState(state, o.Rebuild); err != nil {
		return err
	}
	var rb *rebuild
	if o.Rebuild {
		if o.RestoreRound == nil || o.RestorePlayers == nil || o.RestoreResults == nil {
			return errors.New("rebuild: the hub's director is not given")
		}
		rb = &rebuild{n: n, started: time.Now()}
		o.Log.Info("federation rebuild: the hub's database is rebuilt from the federation's streams", "store lost", !state.bucket)
		if !state.bucket {
			if err := rb.restoreBuckets(ctx); err != nil {
				return fmt.Errorf("rebuild: %w", err)
			}
		}
		if err := forgetInbox(ctx, js); err != nil {
			return fmt.Errorf("rebuild: %w", err)
		}
	}
	if err := EnsureHubStream(ctx, js, n.halls); err != nil {
		return err
	}
	kv, err := EnsurePairings(ctx, js)
	if err != nil {
		return err
	}
	rkv, err := EnsureRoster(ctx, js)
	if err != nil {
		return err
	}
	if rb != nil {
		if err := rb.restoreStore(ctx, kv, rkv); err != nil {
			return fmt.Errorf("rebuild: %w", err)
		}
	}
	n.pairer = &Pairer{DB: o.DB, KV: kv, Log: o.Log}
	n.wg.Go(func() { _ = n.pairer.Run(ctx) })
	n.roster = &RosterWriter{DB: o.DB, KV: rkv, Log: o.Log}
	n.wg.Go(func() {
		if rb != nil {
			// The roster as the hub's store has it once rebuilt, not
			// before: the halls keep the last one meanwhile.
			rb.finish(ctx, n.link.(*hubLinks))
		}
		_ = n.roster.Run(ctx)
	})
	if err := EnsureCommands(ctx, js); err != nil {
		return err
	}
	n.commander = &Commander{DB: o.DB, JS: js, Log: o.Log}
	n.wg.Go(func() { _ = n.commander.Run(ctx) })
	in := &Inbox{DB: o.DB, JS: js, Log: o.Log, Took: n.link.(*hubLinks).took}
	n.inbox = in
	n.wg.Go(func() { reviveSources(ctx, js, o.Log) })
	if o.ResultStored != nil {
		in.Applied = func(f Fact) {
			if f.Kind != KindResult {
				return
			}
			g, err := storedGame(o.DB, f)
			if err != nil {
				o.Log.Error("federation inbox: stored result", "fact", f.MsgID(), "err", err)
				return
			}
			o.ResultStored(g)
		}
	}
	in.Stored = func(news News) {
		switch {
		case news.Kind == KindMove && o.MoveStored != nil:
			o.MoveStored(*news.Move)
		case news.Kind == KindAlert && o.AlertStored != nil:
			o.AlertStored(news.Alert, news.Game, news.At)
		}
	}
	n.stop, err = in.Start(ctx)
	return err
}

// hallReady reports whether every game's facts (the game, its moves, its
// result) were acknowledged by the hall stream, from where the hub
// sources them.
func hallReady(_ context.Context, n *Node) (bool, error) { return n.OutboxEmpty() }

// hubReady writes what changed of the roster and reports whether the
// mirror of every hall linked to the hub holds all of it.
func hubReady(ctx context.Context, n *Node) (bool, error) { return n.RosterDelivered(ctx) }

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

// hubTLS is the TLS of a hub's leaf node port: its certificate; nil if
// none.
func hubTLS(certFile, keyFile string) (*tls.Config, error) {
	if certFile == "" {
		return nil, nil
	}
	cert, err := tls.LoadX509KeyPair(certFile, keyFile)
	if err != nil {
		return nil, fmt.Errorf("leaf node certificate: %w", err)
	}
	return &tls.Config{Certificates: []tls.Certificate{cert}, MinVersion: tls.VersionTLS12}, nil
}

// hallTLS is the TLS of a hall's leaf node link: the authority it trusts
// for the hub's certificate; nil if none.
func hallTLS(caFile string) (*tls.Config, error) {
	if caFile == "" {
		return nil, nil
	}
	pem, err := os.ReadFile(caFile)
	if err != nil {
		return nil, fmt.Errorf("hub's certificate authority: %w", err)
	}
	pool := x509.NewCertPool()
	if !pool.AppendCertsFromPEM(pem) {
		return nil, fmt.Errorf("hub's certificate authority %s: no PEM certificate in it", caFile)
	}
	return &tls.Config{RootCAs: pool, MinVersion: tls.VersionTLS12}, nil
}

// randomPassword is the hub daemon's own password on its embedded server,
// new at each start.
func randomPassword() (string, error) {
	b := make([]byte, 24)
	if _, err := rand.Read(b); err != nil {
		return "", err
	}
	return hex.EncodeToString(b), nil
}

// reviveSources restarts the hub stream's stalled sources of halls that
// answer, every ReviveEvery, until ctx ends.
func reviveSources(ctx context.Context, js jetstream.JetStream, log *slog.Logger) {
	t := time.NewTicker(ReviveEvery)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		halls, err := ReviveSources(ctx, js)
		switch {
		case err != nil && ctx.Err() == nil:
			log.Warn("federation: revive the halls' sources", "err", err)
		case len(halls) > 0:
			log.Info("federation: halls' sources restarted after a link came back", "halls", halls)
		}
	}
}

// ReviveEvery is how often a hub looks for stalled hall sources.
const ReviveEvery = 2 * time.Second
