package federation

import (
	"context"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"encoding/hex"
	"fmt"
	"log/slog"
	neturl "net/url"
	"os"
	"sync"
	"time"

	"github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"arbiter/store"
)

// Options start a daemon's part of a federation (the config's federation
// section).
type Options struct {
	Role       string // "hall" or "hub"
	Hall       string
	URL        string // a NATS server; empty: embed one
	Listen     string // embedded server's client address
	StoreDir   string // embedded server's JetStream directory
	LeafListen string // embedded hub: the halls' leaf node address
	HubURL     string // embedded hall: the hub's leaf node address
	Halls      []string
	// HallPasswords (embedded hub): each hall's password or bcrypt hash;
	// given, each hall may use only its own subjects.
	HallPasswords map[string]string
	// TLSCert, TLSKey (embedded hub): the leaf node port's certificate;
	// TLSCA (hall, or a client of URL): the authority to trust.
	TLSCert, TLSKey, TLSCA string
	DB                     *store.DB
	Log                    *slog.Logger
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
	// AlertStored (hub), if set, is called with the hub's ID of a hall's
	// alert (and of its game, 0 if none) when the alert came or changed.
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
}

// Node is a running hall outbox or hub inbox with its NATS connection and,
// if embedded, its server.
type Node struct {
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
	cancel    context.CancelFunc
	wg        sync.WaitGroup
}

// Start connects to (or embeds) the NATS server, makes sure of the streams
// and starts the hall's outbox or the hub's inbox until ctx ends.
func Start(ctx context.Context, o Options) (_ *Node, err error) {
	if o.Role != "hall" && o.Role != "hub" {
		return nil, fmt.Errorf("federation: role %q: want hall or hub", o.Role)
	}
	if o.Log == nil {
		o.Log = slog.Default()
	}
	ctx, cancel := context.WithCancel(ctx)
	n := &Node{cancel: cancel}
	defer func() {
		if err != nil {
			n.Close()
		}
	}()
	url := o.URL
	copts := []nats.Option{nats.Name("arbiter " + o.Role), nats.MaxReconnects(-1)}
	if url == "" {
		sc := ServerConfig{Name: o.Hall, Domain: o.Hall, Listen: o.Listen, StoreDir: o.StoreDir}
		if sc.LeafTLS, err = leafTLS(o); err != nil {
			return nil, fmt.Errorf("federation: %w", err)
		}
		switch o.Role {
		case "hub":
			sc.Name, sc.Domain, sc.LeafListen = "hub", HubDomain, o.LeafListen
			if len(o.HallPasswords) > 0 {
				sc.HallUsers = o.HallPasswords
				if sc.LocalPassword, err = randomPassword(); err != nil {
					return nil, fmt.Errorf("federation: %w", err)
				}
				copts = append(copts, nats.UserInfo(LocalUser, sc.LocalPassword))
			}
		case "hall":
			if o.HubURL != "" {
				sc.LeafRemotes = []string{o.HubURL}
			}
		}
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
	js, err := jetstream.New(n.nc)
	if err != nil {
		return nil, fmt.Errorf("federation: %w", err)
	}
	switch o.Role {
	case "hall":
		if err := EnsureHallStream(ctx, js, o.Hall); err != nil {
			return nil, fmt.Errorf("federation: %w", err)
		}
		n.outbox = &Outbox{DB: o.DB, JS: js, Hall: o.Hall, Log: o.Log, Boards: o.Boards}
		hubJS, err := jetstream.NewWithDomain(n.nc, HubDomain)
		if err != nil {
			return nil, fmt.Errorf("federation: %w", err)
		}
		if o.Command != nil {
			cf := &CommandFollower{JS: hubJS, Hall: o.Hall, Apply: o.Command, Log: o.Log}
			n.wg.Go(func() { _ = cf.Run(ctx) })
		}
		n.wg.Go(func() { _ = n.outbox.Run(ctx) })
		if o.ApplyPlayers != nil && o.ApplyResults != nil {
			kv, err := MirrorRoster(ctx, js, o.Hall, HubDomain)
			if err != nil {
				return nil, fmt.Errorf("federation: %w", err)
			}
			f := &RosterFollower{KV: kv, ApplyPlayers: o.ApplyPlayers, ApplyResults: o.ApplyResults, Log: o.Log}
			n.wg.Go(func() {
				if err := f.Run(ctx); err != nil && ctx.Err() == nil {
					o.Log.Error("federation roster stopped", "err", err)
				}
			})
		}
		if o.ApplyRound != nil {
			kv, err := MirrorPairings(ctx, js, o.Hall, HubDomain)
			if err != nil {
				return nil, fmt.Errorf("federation: %w", err)
			}
			f := &Follower{KV: kv, Hub: hubJS, Apply: o.ApplyRound, Log: o.Log}
			n.wg.Go(func() {
				if err := f.Run(ctx); err != nil && ctx.Err() == nil {
					o.Log.Error("federation pairings stopped", "err", err)
				}
			})
		}
	case "hub":
		halls := make([]Hall, len(o.Halls))
		for i, h := range o.Halls {
			halls[i] = Hall{Name: h, Domain: h}
		}
		if err := EnsureHubStream(ctx, js, halls); err != nil {
			return nil, fmt.Errorf("federation: %w", err)
		}
		kv, err := EnsurePairings(ctx, js)
		if err != nil {
			return nil, fmt.Errorf("federation: %w", err)
		}
		n.pairer = &Pairer{DB: o.DB, KV: kv, Log: o.Log}
		n.wg.Go(func() { _ = n.pairer.Run(ctx) })
		rkv, err := EnsureRoster(ctx, js)
		if err != nil {
			return nil, fmt.Errorf("federation: %w", err)
		}
		n.roster = &RosterWriter{DB: o.DB, KV: rkv, Log: o.Log}
		n.js, n.halls = js, halls
		n.wg.Go(func() { _ = n.roster.Run(ctx) })
		if err := EnsureCommands(ctx, js); err != nil {
			return nil, fmt.Errorf("federation: %w", err)
		}
		n.commander = &Commander{DB: o.DB, JS: js, Log: o.Log}
		n.wg.Go(func() { _ = n.commander.Run(ctx) })
		in := &Inbox{DB: o.DB, JS: js, Log: o.Log}
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
		if n.stop, err = in.Start(ctx); err != nil {
			return nil, fmt.Errorf("federation: %w", err)
		}
	default:
		return nil, fmt.Errorf("federation: role %q: want hall or hub", o.Role)
	}
	o.Log.Info("federation started", "role", o.Role, "hall", o.Hall, "nats", redacted(url), "embedded", n.srv != nil)
	return n, nil
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

// leafTLS is the TLS of an embedded server's leaf node link: the hub's
// certificate, or the authority a hall trusts for it; nil if none.
func leafTLS(o Options) (*tls.Config, error) {
	switch {
	case o.Role == "hub" && o.TLSCert != "":
		cert, err := tls.LoadX509KeyPair(o.TLSCert, o.TLSKey)
		if err != nil {
			return nil, fmt.Errorf("leaf node certificate: %w", err)
		}
		return &tls.Config{Certificates: []tls.Certificate{cert}, MinVersion: tls.VersionTLS12}, nil
	case o.Role == "hall" && o.TLSCA != "":
		pem, err := os.ReadFile(o.TLSCA)
		if err != nil {
			return nil, fmt.Errorf("hub's certificate authority: %w", err)
		}
		pool := x509.NewCertPool()
		if !pool.AppendCertsFromPEM(pem) {
			return nil, fmt.Errorf("hub's certificate authority %s: no PEM certificate in it", o.TLSCA)
		}
		return &tls.Config{RootCAs: pool, MinVersion: tls.VersionTLS12}, nil
	}
	return nil, nil
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

// redacted is a NATS URL without its password, for the logs.
func redacted(raw string) string {
	u, err := neturl.Parse(raw)
	if err != nil {
		return "(not a URL)"
	}
	return u.Redacted()
}
