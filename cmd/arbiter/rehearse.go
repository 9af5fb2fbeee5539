package main

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/spf13/cobra"

	"arbiter/internal/config"
	"arbiter/internal/federation"
)

func newRehearseCmd() *cobra.Command {
	var (
		cfgPath, dir, listen string
		rounds, plies        int
		speed                float64
		push                 bool
	)
	cmd := &cobra.Command{
		Use:   "rehearse --config FILE [--rounds N] [--speed S]",
		Short: "Play an event's configuration through on simulated boards, and report what an arbiter would meet",
		Long: `rehearse is a dress rehearsal of an event: its configuration as it is
(tournaments, players, time controls, tie-breaks, console logins, broadcast
pushes, board assignments) is served and played through on simulated boards
standing in for the configured ports' boards (each port's protocol, through
its simulator: our boards, DGT boards and bus lines), played by simulated
people, until every round has a result (or --rounds rounds).

Nothing of the event is touched: the database is a scratch one in --dir (a
new temporary folder by default), the backups go there too, the web pages
listen on this machine only (--listen), and the broadcast pushes are
answered here and recorded, not sent, unless --push. A multi-hall event's
federation is left out: the hall plays on its own (preflight checks the
rest).

At the end it says what an arbiter would have met: each round paired or
blocked (and why), the alerts by kind, the time controls as the clocks
showed them, the standings with their tie-breaks, the exports written and
the broadcast endpoints' answers. The built-in demo (serve without
--config) is the same run of configs/arbiter.yaml, on its own database.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if cfgPath == "" {
				return fmt.Errorf("%w: --config is required: the configuration to rehearse (serve without --config is the demo's)", errUsage)
			}
			if rounds < 0 || plies < 0 || speed < 0 {
				return fmt.Errorf("%w: --rounds, --plies and --speed must not be negative", errUsage)
			}
			cfg, err := config.Load(cfgPath, cmd.Flags())
			if err != nil {
				if config.IsInvalid(err) {
					return withCode(exitConfig, err)
				}
				return err
			}
			if dir == "" {
				if dir, err = os.MkdirTemp("", "arbiter-rehearsal-"); err != nil {
					return err
				}
			} else if err := os.MkdirAll(dir, 0o755); err != nil {
				return err
			}
			r := &rehearsal{title: "rehearsal", rounds: rounds, dir: dir}
			eventDB := cfg.Event.Database
			if err := scratch(cfg, r, dir); err != nil {
				return err
			}
			if listen != "" {
				cfg.HTTP.Listen = listen
			}
			if speed > 0 {
				cfg.Demo.Speed = speed
			}
			if plies > 0 {
				cfg.Demo.Plies = plies
			}
			if !cmd.Flags().Changed("log-level") {
				cfg.Log.Level = "warn"
			}
			if len(cfg.Broadcast.Push) > 0 {
				var local []config.Push
				if r.pushes, local, err = newPushRecorder(cfg.Broadcast.Push, push); err != nil {
					return err
				}
				defer r.pushes.close()
				cfg.Broadcast.Push = local
			}
			out := cmd.OutOrStdout()
			fmt.Fprintf(out, "rehearsal of %s in %s (the event's database %s is not touched)\n", cfg.Source, dir, eventDB)
			err = serve(cmd.Context(), cfg, serveOptions{cfgPath: cfgPath, flags: cmd.Flags(), out: out, exitWhenDone: true, rehearsal: r})
			fmt.Fprintf(out, "rehearsal: the scratch database, its backups and the exports are in %s (delete it when done)\n", dir)
			return err
		},
	}
	f := cmd.Flags()
	f.StringVar(&cfgPath, "config", "", "the event's configuration file")
	f.IntVar(&rounds, "rounds", 0, "stop once every tournament has played this many rounds (0: all)")
	f.Float64Var(&speed, "speed", 0, "how much faster than people the simulated people play (default: demo.speed, 8)")
	f.IntVar(&plies, "plies", 0, "the most moves a game lasts before a side resigns (default: demo.plies, 80)")
	f.BoolVar(&push, "push", false, "send the broadcast pushes to their real endpoints (default: answered and recorded here)")
	f.StringVar(&dir, "dir", "", "the scratch folder for the database, backups and exports (default: a new temporary folder)")
	f.StringVar(&listen, "listen", "127.0.0.1:0", "address of the rehearsal's web pages")
	f.String("log-level", "", "debug, info, warn or error (default warn)")
	return cmd
}

// scratch makes cfg a rehearsal's: simulated boards, the database and
// backups in dir, no federation.
func scratch(cfg *config.Config, r *rehearsal, dir string) error {
	if len(cfg.Boards.Ports) == 0 && !cfg.Demo.Enabled {
		r.notes = append(r.notes, "no boards.ports: simulated boards of ours stand in for the boards the tables want (at the event the games wait for their results in the console)")
	}
	cfg.Demo.Enabled = true
	cfg.Event.Database = filepath.Join(dir, "rehearsal.db")
	if _, err := os.Stat(cfg.Event.Database); err == nil {
		return fmt.Errorf("%w: %s holds an earlier rehearsal: give another --dir, or delete it", errUsage, cfg.Event.Database)
	} else if !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	if cfg.Backup.Dir != "" {
		cfg.Backup.Dir = filepath.Join(dir, "backups")
	}
	if f := cfg.Federation; f.Role != "" {
		what := fmt.Sprintf("federation (role %s) left out: the daemon pairs and plays on its own here", f.Role)
		if f.Role == "hall" {
			what += fmt.Sprintf(", its tables from 1 (at the event, board %d on: the hub pairs)", f.FirstBoard)
		}
		r.notes = append(r.notes, what)
		cfg.Federation = federation.Config{}
	}
	return nil
}
