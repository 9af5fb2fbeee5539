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
// (federation:): a hall's outbox, told of every commit by the director's
// live updates, or the hub's inbox.
func startFederation(ctx context.Context, wg *sync.WaitGroup, f config.Federation, db *store.DB, d *director.Director, log *slog.Logger) (*federation.Node, error) {
	node, err := federation.Start(ctx, federation.Options{Role: f.Role, Hall: f.Hall, URL: f.URL, Listen: f.Listen,
		StoreDir: f.StoreDir, LeafListen: f.LeafListen, HubURL: f.HubURL, Halls: f.Halls, DB: db, Log: log})
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
				case _, open = <-updates:
					node.Notify()
				}
			}
			unsubscribe()
		}
	})
	return node, nil
}
