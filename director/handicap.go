package director

import (
	"context"
	"errors"
	"fmt"

	"arbiter/rules"
	"arbiter/store"
)

// SetHandicap gives one pairing's game a handicap (shogi's 駒落ち): value
// is one of its game's handicaps (rules.Facts.Handicaps; the even game's
// "none" takes it away). The game must not have begun: its rule options
// change and, on a table waiting for its set-up, the game starts again
// from the handicap's position, which the board must then show. The
// change is stored with its audit, who and why, in one transaction. The giver is the pairing's second
// player (gote in shogi), who moves first.
func (d *Director) SetHandicap(ctx context.Context, gameID uint64, value, who, why string) error {
	set := func(g *store.Game, plies int) (rules.Game, string, error) {
		facts := rules.FactsOf(g.Game)
		if facts.HandicapOption == "" {
			return nil, "", badInput("%s has no handicaps", g.Game)
		}
		if g.Result != "" {
			return nil, "", badInput("game %d is over (%s)", g.ID, g.Result)
		}
		if plies > 0 {
			return nil, "", badInput("game %d has begun (%d moves): its handicap stays", g.ID, plies)
		}
		opts, err := rules.ParseOptions(g.Options)
		if err != nil {
			return nil, "", fmt.Errorf("game %d: stored options: %w", g.ID, err)
		}
		if opts == nil {
			opts = rules.Options{}
		}
		opts[facts.HandicapOption] = value
		rg, err := rules.New(g.Game, opts)
		if err != nil {
			return nil, "", badInput("%v", err)
		}
		title := value
		for _, h := range facts.Handicaps {
			if h.Value == rg.Options()[facts.HandicapOption] {
				title = h.Title
			}
		}
		g.Options = rg.Options().String()
		data := fmt.Sprintf("game %d: %s, given by %s", g.ID, title, g.Second)
		return rg, data, d.db.ChangeGame(g, &store.Action{GameID: g.ID, Who: who, What: "handicap", Why: why, Data: data, At: d.wall()})
	}
	t, err := d.tableOfGame(gameID)
	if errors.Is(err, ErrNoTable) {
		g, err := d.db.Game(gameID)
		if err != nil {
			return err
		}
		moves, err := d.db.Moves(gameID)
		if err != nil {
			return err
		}
		_, _, err = set(&g, len(moves))
		return err
	}
	if err != nil {
		return err
	}
	return t.Do(ctx, func() error {
		if t.session == nil || t.game == nil || t.game.ID != gameID {
			return errNoGame
		}
		g := *t.game
		rg, _, err := set(&g, t.session.Plies())
		if err != nil {
			return err
		}
		tr := d.tour(g.TournamentID)
		if tr == nil {
			return fmt.Errorf("game %d: no tournament %d", g.ID, g.TournamentID)
		}
		// The board must show the handicap's position before the game
		// starts again.
		return t.start(&g, rg, d.arbiterConfig(tr))
	})
}
