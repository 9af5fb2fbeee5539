package main

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"os"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"arbiter/director"
	"arbiter/internal/config"
	"arbiter/store"
)

func newServeCmd() *cobra.Command {
	var opts serveOptions
	cmd := &cobra.Command{
		Use:   "serve",
		Short: "Run the event: boards, games, clocks, pairings and the web pages",
		Long: `serve runs a whole event. With no configuration it runs the built-in demo:
simulated sensor boards on pseudo-terminals play a Tavreli and a shogi Swiss
tournament, paired automatically as the games finish. With --config it runs
the event the file describes, on real boards.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			cfg, err := config.Load(opts.cfgPath, cmd.Flags())
			if err != nil {
				if config.IsInvalid(err) {
					return withCode(exitConfig, err)
				}
				return err
			}
			opts.flags, opts.out = cmd.Flags(), cmd.OutOrStdout()
			return serve(cmd.Context(), cfg, opts)
		},
	}
	f := cmd.Flags()
	f.StringVar(&opts.cfgPath, "config", "", "configuration file (default: the built-in demo)")
	f.String("listen", "", "address of the web pages, e.g. 127.0.0.1:8080 (overrides http.listen)")
	f.String("database", "", "event database file (overrides event.database)")
	f.String("log-level", "", "debug, info, warn or error (overrides log.level)")
	f.BoolVar(&opts.exitWhenDone, "exit-when-done", false, "stop once every round of every tournament has a result")
	f.BoolVar(&opts.rebuild, "rebuild", false, "a multi-hall event's hub whose database (or NATS store) was lost: rebuild it from the federation's streams, and say what was rebuilt")
	return cmd
}

// serveOptions are what serve takes besides the configuration.
type serveOptions struct {
	// cfgPath and flags are where the configuration came from, read again
	// on SIGHUP.
	cfgPath string
	flags   *pflag.FlagSet
	// exitWhenDone stops the daemon once every round has a result.
	exitWhenDone bool
	// rehearsal runs the configuration on simulated boards standing in
	// for its ports (arbiter rehearse), and reports on it at the end.
	rehearsal *rehearsal
	// recheck is how often a check at start that found an error is run
	// again (0: every 30 s).
	recheck time.Duration
	// rebuild (a federation's hub) rebuilds the database from the
	// federation's streams.
	rebuild bool
	// out receives what the user is told: the address, the end.
	out io.Writer
	// opened, if set, is given the database once it is open; started, if
	// set, the director once it is set up, before the event runs. Tests
	// use them to reach into a running daemon.
	opened  func(*store.DB)
	started func(*director.Director)
}

func newLogger(cfg *config.Config, level *slog.LevelVar) *slog.Logger {
	_ = level.UnmarshalText([]byte(cfg.Log.Level))
	opts := &slog.HandlerOptions{Level: level}
	if cfg.Log.Format == "json" {
		return slog.New(slog.NewJSONHandler(os.Stderr, opts))
	}
	return slog.New(slog.NewTextHandler(os.Stderr, opts))
}

// serve runs the event of cfg until ctx ends (or, with exitWhenDone, the
// event is complete): it starts the daemon's components in order, runs
// the director, and stops the components in the reverse order.
func serve(ctx context.Context, cfg *config.Config, opts serveOptions) error {
	var level slog.LevelVar
	log := newLogger(cfg, &level)
	log.Info("starting", "config", cfg.Source, "database", cfg.Event.Database)
	if err := checkWeb(cfg, log); err != nil {
		return withCode(exitConfig, err)
	}
	if cfg.Demo.Enabled && len(cfg.Boards.Ports) > 0 && opts.rehearsal == nil {
		return withCode(exitConfig, &config.Error{Source: cfg.Source, Problems: []config.Problem{{Key: "demo.enabled", Value: "true",
			Why: "simulated boards would stand in for the boards of boards.ports and play random games under the players' names: " +
				"for the event set demo.enabled: false; to try its configuration on simulated boards run arbiter rehearse"}}})
	}
	// A rehearsal that sends nothing needs no push token.
	if ps := cfg.PushTokenProblems(); len(ps) > 0 && (opts.rehearsal == nil || opts.rehearsal.pushes.sends()) {
		return withCode(exitConfig, &config.Error{Source: cfg.Source, Problems: ps})
	}
	for _, w := range cfg.Warnings() {
		log.Warn("configuration warning", "problem", w.String())
	}
	s := &daemon{cfg: cfg, opts: opts, log: log, level: &level, rh: opts.rehearsal}
	if cfg.Demo.Enabled && s.rh == nil && cfg.Federation.Role != "hub" { // a hub has no boards
		// The built-in demo is the rehearsal of configs/arbiter.yaml on
		// its own database.
		s.rh = &rehearsal{title: "demo"}
	}
	s.ctx, s.cancel = context.WithCancel(ctx)
	defer s.cancel()
	s.dctx, s.dcancel = context.WithCancel(context.WithoutCancel(ctx))
	defer s.dcancel()
	var stops []func() error
	stopAll := func() error {
		var errs []error
		for i := len(stops) - 1; i >= 0; i-- {
			errs = append(errs, stops[i]())
		}
		return errors.Join(errs...)
	}
	for _, c := range components {
		stop, err := c.start(s)
		if stop != nil {
			stops = append(stops, stop)
		}
		if err != nil {
			s.cancel()
			s.dcancel()
			s.wg.Wait()
			_ = stopAll()
			return err
		}
		log.Debug("started", "component", c.name)
	}
	// The director stops once the boards' drivers have: it takes every
	// event they read before the stop, whose frames are in the raw log.
	go func() {
		<-s.ctx.Done()
		s.boards.Wait()
		s.dcancel()
	}()
	runErr := s.d.Run(s.dctx) // returns when the boards have stopped, clocks paused and stored
	err := stopAll()
	log.Info("stopped")
	return errors.Join(runErr, err)
}
