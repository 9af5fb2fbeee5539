package director

import (
	"context"
	"fmt"
)

// RestartAt begins the game on table t again from the position text pos
// (a test's shortcut to positions no short game reaches: entered kings,
// a 50-move counter near its end).
func (d *Director) RestartAt(ctx context.Context, t *Table, pos string) error {
	return t.Do(ctx, func() error {
		if t.game == nil {
			return errNoGame
		}
		var tr *tour
		for _, x := range d.tours {
			if x.rec.ID == t.Tournament {
				tr = x
			}
		}
		if tr == nil {
			return fmt.Errorf("table %s: no tournament", t.ID)
		}
		g := *t.game
		g.StartPosition = pos
		if err := d.db.UpdateGame(&g); err != nil {
			return err
		}
		return t.start(&g, tr.game, d.arbiterConfig(tr))
	})
}

// StartOn starts game id on t as a round's pairing does.
func (d *Director) StartOn(ctx context.Context, t *Table, id uint64) error {
	g, err := d.db.Game(id)
	if err != nil {
		return err
	}
	return d.startOn(ctx, t, d.tour(t.Tournament), &g)
}
