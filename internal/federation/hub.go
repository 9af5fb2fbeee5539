package federation

import (
	"context"
	"crypto/rand"
	"crypto/tls"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

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

// hubReady writes what changed of the roster and reports whether the
// mirror of every hall linked to the hub holds all of it.
func hubReady(ctx context.Context, n *Node) (bool, error) { return n.RosterDelivered(ctx) }

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
