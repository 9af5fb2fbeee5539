package main

import (
	"context"
	"fmt"

	"github.com/spf13/cobra"

	"arbiter/replay"
	"arbiter/store"
)

func newReplayCmd() *cobra.Command {
	var (
		path  string
		games []uint
		all   bool
	)
	cmd := &cobra.Command{
		Use:   "replay --database DB (--game N... | --all)",
		Short: "Run stored games' raw sensor logs through the move reader again",
		Long: `replay reads a game's raw sensor log from the database, feeds it through a
fresh move reader with the event's rules, clock and policy, and reports
whether it gives the stored moves, ply by ply. It exits with code 5 when
any game differs. Run it on a stopped event or on a backup. Ctrl-C (SIGINT) or
SIGTERM stops it within a moment.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if !all && len(games) == 0 {
				return fmt.Errorf("%w: give --game N or --all", errUsage)
			}
			return withDB(path, true, func(db *store.DB) error {
				if all {
					gs, err := db.Games()
					if err != nil {
						return err
					}
					for _, g := range gs {
						if g.BoardID != "" {
							games = append(games, uint(g.ID))
						}
					}
				}
				w := cmd.OutOrStdout()
				ctx := cmd.Context()
				bad := 0
				for i, id := range games {
					if ctx.Err() != nil {
						// SIGINT or SIGTERM: stop where we are.
						return fmt.Errorf("replay interrupted after %d of %d games: %w", i, len(games), context.Cause(ctx))
					}
					rep, err := replay.Game(ctx, db, uint64(id), replay.Options{})
					if err != nil && ctx.Err() != nil {
						return fmt.Errorf("replay interrupted in game %d (%d of %d): %w", id, i+1, len(games), context.Cause(ctx))
					}
					if err != nil {
						fmt.Fprintf(w, "game %d: %v\n", id, err)
						bad++
						continue
					}
					if err := rep.WriteText(w); err != nil {
						return err
					}
					if !rep.OK() {
						bad++
					}
				}
				if bad > 0 {
					return withCode(exitMismatch, fmt.Errorf("%d of %d games did not replay to their stored moves", bad, len(games)))
				}
				return nil
			})
		},
	}
	cmd.Flags().StringVar(&path, "database", "arbiter-event.db", "the event database")
	cmd.Flags().UintSliceVar(&games, "game", nil, "the game to replay (repeatable)")
	cmd.Flags().BoolVar(&all, "all", false, "replay every game played on a board")
	return cmd
}
