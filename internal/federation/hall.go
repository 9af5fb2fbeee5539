package federation

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"fmt"
	"os"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

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

// hallReady reports whether every game's facts (the game, its moves, its
// result) were acknowledged by the hall stream, from where the hub
// sources them.
func hallReady(_ context.Context, n *Node) (bool, error) { return n.OutboxEmpty() }

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
