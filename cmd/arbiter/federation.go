package main

import (
	"context"
	"log/slog"
	"sync"

	"arbiter/director"
	"arbiter/internal/config"
	"arbiter/internal/federation"
	"arbiter/store"
)

// startFederation starts the daemon's part of a multi-hall event
// (federation:). A hall's outbox is told of every commit by the director's
// live updates, and the hall plays the rounds the hub pairs (its director
// pairs none). The hub's inbox stores the halls' facts, its director pairs
// the next round when a hall's result completes one, and each round it
// pairs goes to the halls.
func startFederation(ctx context.Context, wg *sync.WaitGroup, f config.Federation, db *store.DB, d *director.Director, log *slog.Logger) (*federation.Node, error) {
	o := federation.Options{Role: f.Role, Hall: f.Hall, URL: f.URL, Listen: f.Listen,
		StoreDir: f.StoreDir, LeafListen: f.LeafListen, HubURL: f.HubURL, Halls: f.Halls, DB: db, Log: log}
	switch f.Role {
	case "hall":
		d.SetPairedElsewhere("the hub")
		o.ApplyRound = func(ctx context.Context, r store.Round) (bool, error) {
			return d.ApplyRound(ctx, r, f.FirstBoard, "hub")
		}
	case "hub":
		o.ResultStored = d.ImportedResult
	}
	node, err := federation.Start(ctx, o)
	if err != nil {
		return nil, err
	}
	wg.Go(func() {
		for ctx.Err() == nil {
			updates, unsubscribe := d.Hub().Subscribe()
			for open := true; open; {
				select {
				case <-ctx.Done():
					open = false
				case u, ok := <-updates:
					open = ok
					if u.Kind == "round" || !ok {
						// After a lost subscription too: a round may
						// have been missed.
						node.RoundPaired()
					}
					node.Notify()
				}
			}
			unsubscribe()
		}
	})
	return node, nil
}
