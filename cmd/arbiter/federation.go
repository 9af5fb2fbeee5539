package main

import (
	"context"
	"fmt"
	"log/slog"
	"slices"
	"sync"
	"time"

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
		StoreDir: f.StoreDir, LeafListen: f.LeafListen, HubURL: f.HubURL, Halls: f.Halls, HallPasswords: f.HallPasswords,
		TLSCert: f.TLSCert, TLSKey: f.TLSKey, TLSCA: f.TLSCA, DB: db, Log: log}
	switch f.Role {
	case "hall":
		d.SetPairedElsewhere("the hub")
		o.ApplyRound = func(ctx context.Context, r store.Round) (bool, error) {
			return d.ApplyRound(ctx, r, f.FirstBoard, "hub")
		}
		o.Boards = func() []federation.BoardStatus {
			var out []federation.BoardStatus
			for _, t := range d.Tables() {
				out = append(out, federation.BoardStatus{Board: t.Table, Tournament: t.Tournament, Table: t.Number,
					Game: t.GameID, Health: t.Health, Since: t.HealthSince})
			}
			return out
		}
		o.Command = func(_ context.Context, c federation.Command) error {
			return hubCommand(d, c)
		}
		o.ApplyPlayers = func(_ context.Context, r federation.Roster) error {
			_, err := d.ApplyRoster(r.TournamentID, r.EndedAfter, r.Players, "hub")
			return err
		}
		o.ApplyResults = func(ctx context.Context, r federation.RoundResults) error {
			results := make([]director.HubResult, len(r.Boards))
			for i, b := range r.Boards {
				results[i] = director.HubResult{Board: b.Board, Result: b.Result, GameResult: b.GameResult, Reason: b.Reason}
			}
			return d.ApplyResults(ctx, r.TournamentID, r.Round, results, "hub")
		}
	case "hub":
		o.ResultStored, o.MoveStored, o.AlertStored = d.ImportedResult, d.ImportedMove, d.ImportedAlert
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
					switch u.Kind {
					case "round", "result", "players", "":
						node.RosterChanged()
					}
					if u.Kind == "alert" || !ok {
						node.AlertsChanged()
					}
					node.Notify()
				}
			}
			unsubscribe()
		}
	})
	return node, nil
}

// federationDone is closed once a federation's daemon has played its part
// of the event and the others have it. played is the director's Done:
// every tournament is finished here (in a hall: every round the hub
// paired, and every board's result, the hall's own and the other halls'
// from the hub). Then ready is asked every poll: in a hall, whether the
// outbox is empty (the hub has every fact of its games); on the hub,
// whether every hall's mirror has the last roster (its last results).
// With limit > 0, it is closed at most limit after played, with a
// warning. It is never closed if ctx ends first.
func federationDone(ctx context.Context, wg *sync.WaitGroup, played <-chan struct{}, ready func(context.Context) (bool, error), poll, limit time.Duration, what string, log *slog.Logger) <-chan struct{} {
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

// hubCommand does in a hall what the hub's arbiter did about one of its
// alerts, audited in the hall as the hub arbiter's action. An alert the
// hall resolved already is left as it is.
func hubCommand(d *director.Director, c federation.Command) error {
	switch c.What {
	case federation.CmdResolveAlert:
		alerts, err := d.DB().Alerts(false)
		if err != nil {
			return err
		}
		i := slices.IndexFunc(alerts, func(a store.Alert) bool { return a.ID == c.Alert })
		if i < 0 {
			return fmt.Errorf("the hub resolved alert %d, which this hall does not have", c.Alert)
		}
		if alerts[i].Resolved {
			return nil
		}
		return d.ResolveAlert(c.Alert, c.Who+" (hub)", c.Why)
	}
	return fmt.Errorf("unknown command %q from the hub", c.What)
}
