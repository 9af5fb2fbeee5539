package main

import (
	"context"
	"fmt"
	"log/slog"
	"sync"

	"arbiter/director"
	"arbiter/internal/federation"
	"arbiter/store"
	"arbiter/web"
)

// startFederation starts the daemon's part of a multi-hall event
// (federation:), wired to its director. A hall's outbox is told of every
// commit by the director's live updates, and the hall plays the rounds
// the hub pairs (its director pairs none). The hub's inbox stores the
// halls' facts, its director pairs the next round when a hall's result
// completes one, and each round it pairs goes to the halls.
//
// rebuilt, if not nil, makes a hub rebuild its database from the
// federation's streams, and is told what was rebuilt.
func startFederation(ctx context.Context, wg *sync.WaitGroup, f federation.Config, db *store.DB, d *director.Director, rebuilt func(string), log *slog.Logger) (*federation.Node, error) {
	o := federation.Options{Config: f, DB: db, Log: log, AlertStored: d.ImportedAlert}
	switch f.Role {
	case federation.RoleHall:
		d.SetPairedElsewhere("the hub")
		own, err := d.Configured()
		if err != nil {
			return nil, err
		}
		for _, t := range own {
			ft := federation.Tournament{ID: t.ID, Name: t.Name, Game: t.Game, System: t.System}
			for _, p := range t.Players {
				ft.Players = append(ft.Players, p.Name)
			}
			o.Tournaments = append(o.Tournaments, ft)
		}
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
			return d.ApplyResults(ctx, r.TournamentID, r.Round, hubResults(r), "hub")
		}
	case federation.RoleHub:
		o.ResultStored, o.MoveStored = d.ImportedResult, d.ImportedMove
		if rebuilt != nil {
			const who = "rebuild"
			o.Rebuild, o.Rebuilt = true, rebuilt
			o.RestoreRound = func(_ context.Context, r store.Round) (bool, error) { return d.RestoreRound(r, who) }
			o.RestorePlayers = func(_ context.Context, r federation.Roster) (bool, error) {
				return d.RestoreRoster(r.TournamentID, r.EndedAfter, r.Players, who)
			}
			o.RestoreResults = func(ctx context.Context, r federation.RoundResults) (int, int, error) {
				return d.RestoreResults(ctx, r.TournamentID, r.Round, hubResults(r), who)
			}
		}
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

// hubResults are a round's results as the hub's roster gives them.
func hubResults(r federation.RoundResults) []director.HubResult {
	out := make([]director.HubResult, len(r.Boards))
	for i, b := range r.Boards {
		out[i] = director.HubResult{Board: b.Board, Result: b.Result, GameResult: b.GameResult, Reason: b.Reason, Hall: b.Hall}
	}
	return out
}

// hubCommand does in a hall what the hub's arbiter did about one of its
// alerts, audited in the hall as the hub arbiter's action.
func hubCommand(d *director.Director, c federation.Command) error {
	switch c.What {
	case federation.CmdResolveAlert:
		return d.ResolveFromHub(c.Alert, c.Who+" (hub)", c.Why)
	}
	return fmt.Errorf("unknown command %q from the hub", c.What)
}

// fedLinks gives the console the state of the federation's links.
func fedLinks(n *federation.Node) func() []web.Link {
	return func() []web.Link {
		ls := n.Links()
		out := make([]web.Link, len(ls))
		for i, l := range ls {
			out[i] = web.Link{Hall: l.Hall, Linked: l.Linked, Since: l.Since, Waiting: l.Waiting, Lag: l.Lag,
				Acknowledged: l.Acknowledged, AcknowledgedAt: l.AcknowledgedAt, Problems: l.Problems}
		}
		return out
	}
}
