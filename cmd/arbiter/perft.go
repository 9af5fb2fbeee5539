package main

import (
	"fmt"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"arbiter/rules"
)

func newPerftCmd() *cobra.Command {
	var (
		game, options, position string
		depth                   int
		divide                  bool
	)
	cmd := &cobra.Command{
		Use:   "perft",
		Short: "Count the leaves of a game's legal move tree",
		Long: `Perft counts the positions reachable in exactly N plies, to check a rules
engine against published numbers or another engine. With --divide it prints
the count below each legal move, in the game's machine notation, so that a
difference can be bisected.

Games: ` + strings.Join(rules.Games(), ", "),
		Example: `  arbiter perft --game tavreli --depth 4
  arbiter perft --game shogi --position "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1" --depth 3 --divide`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if depth < 0 {
				return fmt.Errorf("%w: --depth %d: must not be negative", errUsage, depth)
			}
			g, err := gameFromFlags(game, options)
			if err != nil {
				return err
			}
			pos := g.Start()
			if position != "" {
				if pos, err = g.ParsePosition(position); err != nil {
					return fmt.Errorf("%w: --position: %v", errUsage, err)
				}
			}
			out := cmd.OutOrStdout()
			start := time.Now()
			var total uint64
			if divide && depth > 0 {
				entries, err := rules.Divide(pos, depth)
				if err != nil {
					return err
				}
				for _, e := range entries {
					fmt.Fprintf(out, "%s: %d\n", e.Move, e.Nodes)
					total += e.Nodes
				}
				fmt.Fprintf(out, "\nmoves: %d\n", len(entries))
			} else {
				total = rules.Perft(pos, depth)
			}
			elapsed := time.Since(start)
			fmt.Fprintf(out, "nodes: %d\n", total)
			if s := elapsed.Seconds(); s > 0 {
				fmt.Fprintf(cmd.ErrOrStderr(), "time: %s (%.0f nodes/s)\n", elapsed.Round(time.Millisecond), float64(total)/s)
			}
			return nil
		},
	}
	f := cmd.Flags()
	f.StringVar(&game, "game", "tavreli", "game: "+strings.Join(rules.Games(), ", "))
	f.StringVar(&options, "options", "", "rule options as key=value,key=value")
	f.StringVar(&position, "position", "", "start position in the game's format (default: the initial position)")
	f.IntVar(&depth, "depth", 1, "depth in plies")
	f.BoolVar(&divide, "divide", false, "print the count below each legal move")
	return cmd
}

// gameFromFlags builds the game named by --game with the --options text;
// a bad name or option is a usage error.
func gameFromFlags(game, options string) (rules.Game, error) {
	g, err := rules.NewFromText(game, options)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", errUsage, err)
	}
	return g, nil
}
