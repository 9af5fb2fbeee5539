package director

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"time"

	"arbiter/arbiter"
	"arbiter/clock"
	"arbiter/rules"
	"arbiter/store"
)

// Every arbiter action is stored with who did it and why before it is
// carried out on the table; the table then stores its consequences (the
// result, the new position) as usual.

// ErrNoTable is returned for a game that is not on a table now.
var ErrNoTable = errors.New("the game is not being played on a table")

// tableOfGame returns the table where a game is being played.
func (d *Director) tableOfGame(gameID uint64) (*Table, error) {
	d.mu.RLock()
	defer d.mu.RUnlock()
	for _, t := range d.tables {
		if t.Live().GameID == gameID {
			return t, nil
		}
	}
	return nil, fmt.Errorf("game %d: %w", gameID, ErrNoTable)
}

func (d *Director) action(gameID uint64, who, what, why, data string) error {
	if who == "" {
		return errors.New("an arbiter action needs the arbiter's name")
	}
	return d.db.AddAction(&store.Action{GameID: gameID, Who: who, What: what, Why: why, Data: data, At: d.wall()})
}

// Resign records that side resigned the game on table t.
func (d *Director) Resign(ctx context.Context, t *Table, side rules.Color, who string) error {
	return t.Do(ctx, func() error {
		if t.session == nil {
			return errNoGame
		}
		return d.resign(t, side, who, t.rgame.SideName(side)+" resigned")
	})
}

// SetResult sets a game's result by the arbiter's decision: on the table if
// the game is being played, or directly in the database for a game played
// without a sensor board.
func (d *Director) SetResult(ctx context.Context, gameID uint64, o rules.Outcome, who, why string) error {
	if !o.Over() {
		return errors.New("set result: not a result")
	}
	t, err := d.tableOfGame(gameID)
	if errors.Is(err, ErrNoTable) {
		g, err := d.db.Game(gameID)
		if err != nil {
			return err
		}
		if g.Result != "" {
			return fmt.Errorf("game %d already has the result %s", gameID, g.Result)
		}
		a := &store.Action{Who: who, What: "set-result", Why: why, Data: o.String(), At: d.wall()}
		if err := d.db.SetResult(gameID, o.Result.String(), o.Reason.String(), d.wall(), a); err != nil {
			return err
		}
		d.hub.Publish(Update{Kind: "result", Game: gameID, At: d.wall(), Data: o.String()})
		g.Result = o.Result.String()
		d.forfeited(g, o, who)
		d.gameEnded(nil, g)
		return nil
	}
	if err != nil {
		return err
	}
	return t.Do(ctx, func() error {
		if t.session == nil || t.game.ID != gameID {
			return errNoGame
		}
		outs, err := t.session.SetResult(o, t.now(), why)
		if err != nil {
			return err
		}
		if err := d.action(gameID, who, "set-result", why, o.String()); err != nil {
			return err
		}
		d.forfeited(*t.game, o, who)
		t.apply(outs)
		return nil
	})
}

// forfeited marks absent the player who lost a game by forfeit before any
// move: FIDE's no-show is not paired in the next round unless the arbiter
// re-admits them. It is called before the result is applied, so that the
// next round's pairing sees it; it takes no lock of the director's. The
// absence is stored with its action in one transaction.
func (d *Director) forfeited(g store.Game, o rules.Outcome, who string) {
	if o.Reason != rules.Forfeit || g.TournamentID == 0 {
		return
	}
	if moves, err := d.db.Moves(g.ID); err != nil || len(moves) > 0 {
		return
	}
	loser := g.FirstID
	if o.Result == rules.FirstWins {
		loser = g.SecondID
	}
	if loser == 0 {
		return
	}
	err := d.db.EditTournament(g.TournamentID, func(st *store.TournamentState) (*store.TournamentEdit, error) {
		i := slices.IndexFunc(st.Players, func(p store.Player) bool { return p.ID == loser })
		if i < 0 {
			return nil, fmt.Errorf("player %d of tournament %d: %w", loser, g.TournamentID, store.ErrNotFound)
		}
		p := st.Players[i]
		if p.Withdrawn || p.Absent {
			return nil, errAlready
		}
		p.Absent = true
		return &store.TournamentEdit{Players: []*store.Player{&p}, Action: &store.Action{Who: who, What: "absent",
			Why:  "lost game " + strconv.FormatUint(g.ID, 10) + " by forfeit",
			Data: fmt.Sprintf("player %d is not paired until re-admitted", loser), At: d.wall()}}, nil
	})
	if errors.Is(err, errAlready) {
		return
	}
	if err != nil {
		d.log.Error("mark absent", "game", g.ID, "player", loser, "err", err)
	}
}

var errAlready = errors.New("already so")

// onTable runs f on the table of a running game. The action is stored
// once f has succeeded, so a refused action is not logged as done, and
// before the consequences f returns (a move, a result) are applied.
func (d *Director) onTable(ctx context.Context, gameID uint64, who, what, why, data string, f func(t *Table) ([]arbiter.Output, error)) error {
	t, err := d.tableOfGame(gameID)
	if err != nil {
		return err
	}
	return t.Do(ctx, func() error {
		if t.session == nil || t.game.ID != gameID {
			return errNoGame
		}
		outs, err := f(t)
		if err == nil {
			err = d.action(gameID, who, what, why, data)
		}
		if err == nil {
			t.apply(outs)
			t.keepState() // an arbiter's change of the clock, a penalty
		}
		t.refresh()
		return err
	})
}

// onClock runs f on the clock of a running game, stores the action if the
// clock took it, and shows the board its clock as it now reads (stopped by
// a pause, running again, with time added).
func (d *Director) onClock(ctx context.Context, gameID uint64, who, what, why, data string, f func(t *Table, c *clock.Clock) error) error {
	return d.onTable(ctx, gameID, who, what, why, data, func(t *Table) ([]arbiter.Output, error) {
		c := t.session.Clock()
		if c == nil {
			return nil, errors.New("the game has no clock")
		}
		if err := f(t, c); err != nil {
			return nil, err
		}
		if err := displayClock(d.sender, t.ID, c, t.now()); err != nil {
			t.log.Warn("send clock to board", "err", err)
		}
		return nil, nil
	})
}

// AddTime gives side extra time on its clock.
func (d *Director) AddTime(ctx context.Context, gameID uint64, side rules.Color, extra time.Duration, who, why string) error {
	return d.onClock(ctx, gameID, who, "add-time", why, fmt.Sprintf("%s +%s", side, extra), func(_ *Table, c *clock.Clock) error {
		return c.AddTime(clock.Side(side), extra)
	})
}

// Pause stops both clocks of a game; Resume restarts them.
func (d *Director) Pause(ctx context.Context, gameID uint64, who, why string) error {
	return d.onClock(ctx, gameID, who, "pause", why, "", func(t *Table, c *clock.Clock) error {
		return c.Pause(t.now())
	})
}

// Resume restarts the clocks of a paused game.
func (d *Director) Resume(ctx context.Context, gameID uint64, who, why string) error {
	return d.onClock(ctx, gameID, who, "resume", why, "", func(t *Table, c *clock.Clock) error {
		return c.Resume(t.now())
	})
}

// Resolve settles an open question on a table (an ambiguous move, a
// promotion the board cannot see) with one of the candidate moves.
func (d *Director) Resolve(ctx context.Context, gameID uint64, move, who, why string) error {
	return d.onTable(ctx, gameID, who, "resolve", why, move, func(t *Table) ([]arbiter.Output, error) {
		return t.session.Resolve(move, t.now())
	})
}

// TakeBack undoes the last move of a game (a correction): the stored move
// is deleted with the action that explains it, and the board must then be
// restored.
func (d *Director) TakeBack(ctx context.Context, gameID uint64, who, why string) error {
	t, err := d.tableOfGame(gameID)
	if err != nil {
		return err
	}
	return t.Do(ctx, func() error {
		if t.session == nil || t.game.ID != gameID {
			return errNoGame
		}
		ply := t.session.Plies()
		outs, err := t.session.TakeBack(t.now())
		if err != nil {
			return err
		}
		a := &store.Action{Who: who, What: "take-back", Why: why, Data: fmt.Sprintf("ply %d", ply), At: d.wall()}
		if err := d.db.TruncateMoves(gameID, ply, t.session.Position().String(), a); err != nil {
			return err
		}
		t.apply(outs)
		t.refresh()
		d.hub.Publish(Update{Kind: "move", Table: t.ID, Game: gameID, At: d.wall()})
		return nil
	})
}

// ResolveAlert marks an alert handled.
func (d *Director) ResolveAlert(alertID uint64, who, why string) error {
	err := d.db.ResolveAlert(alertID, &store.Action{Who: who, What: "resolve-alert", Why: why, At: d.wall()})
	if err == nil {
		d.hub.Publish(Update{Kind: "alert", At: d.wall()})
	}
	return err
}

// ResolveAlerts marks several alerts handled by one action.
func (d *Director) ResolveAlerts(ids []uint64, who, why string) error {
	err := d.db.ResolveAlerts(ids, &store.Action{Who: who, What: "resolve-alert", Why: why, Data: fmt.Sprintf("%d alerts", len(ids)), At: d.wall()})
	if err == nil {
		d.hub.Publish(Update{Kind: "alert", At: d.wall()})
	}
	return err
}
