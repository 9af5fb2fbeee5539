package main

import (
	"cmp"
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"arbiter/director"
	"arbiter/internal/config"
	"arbiter/internal/federation"
	"arbiter/internal/preflight"
	"arbiter/web"
)

// preflightChecks are the checks of "arbiter preflight", in the order of
// its lines; serve runs them too at start. Another check is one function
// of a preflight.Input and one line here.
var preflightChecks = []preflight.Check{
	{Name: "ports", Run: preflight.Ports},
	{Name: "database", Run: preflight.Database},
	{Name: "console", Run: checkConsole},
	{Name: "broadcast", Run: preflight.Broadcast},
	{Name: "federation", Run: checkFederation},
}

func newPreflightCmd() *cobra.Command {
	var (
		cfgPath string
		timeout time.Duration
	)
	cmd := &cobra.Command{
		Use:   "preflight --config FILE",
		Short: "Check the venue: the configuration, the boards on its ports, the database, the logins, the broadcast",
		Long: `preflight checks an event's configuration and what it names at the venue,
before the event (as nginx -t checks a web server's): the configuration is
validated as serve does, then one line per item says ok, warning or error:

  ports      each configured port exists, this user may open it (the dialout
             group and the udev rule configs/70-arbiter-boards.rules), no
             other program holds it (its pid named), a board answers the
             handshake of its protocol (its id, firmware and what it senses),
             and where boards.assign (or the first tournament whose game it
             fits) sends it;
  database   the database's folder is writable and its disk has room for the
             event; an existing file is an event's and no daemon holds it; the
             backup folder likewise;
  console    every login's password is stored as a hash, none is the demo's;
  broadcast  each push endpoint answers and accepts its token, nothing being
             published (a lichess round: its list of the token's rounds);
  federation a hall links to the hub with its name and password, the hub
             knows it and has its tournaments and players; a hub's leaf
             port is free and its certificate read.

Do not run it while the daemon runs the event: it opens the boards' ports.
The exit code is 0 when no line is an error, 3 otherwise. serve runs the
same checks at start (the ports are then watched while the event runs),
and shows each error as an open alert in the console and a reason on
/healthz.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			cfg, err := config.Load(cfgPath, cmd.Flags())
			if err != nil {
				if config.IsInvalid(err) {
					return withCode(exitConfig, err)
				}
				return err
			}
			out := cmd.OutOrStdout()
			fmt.Fprintf(out, "configuration %s: valid\n", cfg.Source)
			fs := preflight.Run(cmd.Context(), preflight.Input{Config: cfg, Timeout: timeout}, preflightChecks)
			if err := preflight.Write(out, fs); err != nil {
				return err
			}
			errs, warns := 0, 0
			for _, f := range fs {
				switch f.Level {
				case preflight.Error:
					errs++
				case preflight.Warning:
					warns++
				}
			}
			if errs > 0 {
				return withCode(exitConfig, fmt.Errorf("preflight: %s, %s: the event cannot run as configured", plural(errs, "error"), plural(warns, "warning")))
			}
			fmt.Fprintf(out, "preflight: ready (%s)\n", plural(warns, "warning"))
			return nil
		},
	}
	f := cmd.Flags()
	f.StringVar(&cfgPath, "config", "", "configuration file (default: the built-in demo)")
	f.String("database", "", "event database file (overrides event.database)")
	f.String("listen", "", "address of the web pages (overrides http.listen)")
	f.DurationVar(&timeout, "timeout", 3*time.Second, "how long each board and endpoint has to answer")
	return cmd
}

// checkConsole checks the console's logins as serve does, strictly where
// strangers reach the console (real boards, the venue's network): every
// password stored as a hash, none the demo's; and no simulated board on
// the venue's network.
func checkConsole(_ context.Context, in preflight.Input) []preflight.Finding {
	cfg := in.Config
	exposed := exposure(cfg)
	level := preflight.Error
	if exposed == "" {
		level = preflight.Warning // a demo on this machine may start so
	}
	// As for an event, whatever this configuration is: the demo's login
	// and plain passwords may start on this machine (a warning), not on
	// the venue's.
	problems, warnings := web.CheckConfig(webConfig(cfg), cmp.Or(exposed, "an event"))
	var out []preflight.Finding
	for _, p := range configProblems(append(problems, warnings...)) {
		out = append(out, preflight.Finding{Item: p.Key, Level: level, Text: p.Why})
	}
	if p, ok := demoExposed(cfg); ok {
		out = append(out, preflight.Finding{Item: p.Key, Level: preflight.Error, Text: p.Why})
	}
	if len(out) == 0 {
		names := make([]string, len(cfg.Console.Users))
		for i, u := range cfg.Console.Users {
			names[i] = u.Name
		}
		out = append(out, preflight.Finding{Item: "console.users", Level: preflight.OK,
			Text: fmt.Sprintf("%s, every password stored as a hash, none the demo's", plural(len(names), "login")+" ("+strings.Join(names, ", ")+")")})
	}
	return out
}

// checkFederation checks a multi-hall event's link (federation.Preflight):
// a hall links to the hub as it will and compares the hub's roster with
// its configuration's tournaments, numbered from 1 in the file's order; a
// hub's leaf port must be free. While the daemon serves the event its
// node tells the link's mistakes itself (alerts on both sides), and a
// hub holds its leaf port: nothing is checked then.
func checkFederation(ctx context.Context, in preflight.Input) []preflight.Finding {
	f := in.Config.Federation
	if f.Role == "" || in.Serving {
		return nil
	}
	var own []federation.Tournament
	for i, t := range directorConfig(in.Config).Tournaments {
		players, err := t.ConfiguredPlayers()
		if err != nil {
			return []preflight.Finding{{Item: fmt.Sprintf("tournaments[%d]", i), Level: preflight.Error, Text: err.Error(),
				Advice: "give the tournament's players_trf file"}}
		}
		ft := federation.Tournament{ID: uint64(i + 1), Name: t.Name, Game: t.Game, System: t.System}
		for _, p := range players {
			ft.Players = append(ft.Players, p.Name)
		}
		own = append(own, ft)
	}
	// Linking to the hub starts a NATS server of the check's own and a
	// leaf connection: more than a board's handshake.
	fs := federation.Preflight(ctx, f, own, max(in.Timeout, 10*time.Second))
	out := make([]preflight.Finding, len(fs))
	for i, x := range fs {
		level := preflight.OK
		switch x.Level {
		case federation.LevelWarning:
			level = preflight.Warning
		case federation.LevelError:
			level = preflight.Error
		}
		out[i] = preflight.Finding{Item: x.Item, Level: level, Text: x.Text, Advice: x.Advice}
	}
	return out
}

// startChecks runs the preflight checks once the daemon serves the
// event (its ports are the watch's): each error is an open alert in the
// console and a reason on /healthz until the check finds the item right
// again, which it looks at every recheck.
func (s *daemon) startChecks() (func() error, error) {
	recheck := cmp.Or(s.opts.recheck, 30*time.Second)
	in := preflight.Input{Config: s.cfg, Serving: true}
	s.wg.Go(func() {
		failing := map[string]map[string]bool{} // check -> items in error
		checks := preflightChecks
		for {
			for _, c := range checks {
				items := map[string]bool{}
				for _, f := range preflight.Run(s.ctx, in, []preflight.Check{c}) {
					if f.Level != preflight.Error {
						if f.Level == preflight.Warning {
							s.log.Warn("preflight", "check", f.Check, "item", f.Item, "finding", f.Text)
						}
						continue
					}
					items[f.Item] = true
					s.d.VenueTrouble(f.Item, f.Text, f.Advice)
				}
				for item := range failing[c.Name] {
					if !items[item] {
						s.d.VenueFine(item, "the check at start finds it right now")
					}
				}
				failing[c.Name] = items
			}
			checks = checks[:0:0]
			for _, c := range preflightChecks {
				if len(failing[c.Name]) > 0 {
					checks = append(checks, c)
				}
			}
			if len(checks) == 0 {
				return
			}
			select {
			case <-s.ctx.Done():
				return
			case <-time.After(recheck):
			}
		}
	})
	return nil, nil
}

// watchPorts looks at the configured ports while the event runs: a port
// that does not exist, cannot be opened or answers nothing is an open
// alert until a board answers on it (director.PortTrouble).
func (s *daemon) watchPorts(ports []config.Port) {
	if len(ports) == 0 {
		return
	}
	// A board answers within a second or two of its port's opening (a
	// DGT bus line's boards within a ping round).
	w := &preflight.Watch{Ports: ports, Every: s.cfg.Boards.Scan, Grace: max(5*time.Second, 5*s.cfg.Boards.Scan),
		Answered: s.d.PortAnswered,
		Report: func(port, problem, advice string) {
			s.d.PortTrouble(port, director.PortWatch, problem, advice)
		},
		Fine: s.d.PortFine,
	}
	s.wg.Go(func() { w.Run(s.ctx) })
}

// plural writes n things: "1 login", "3 logins", "2 pushes".
func plural(n int, thing string) string {
	switch {
	case n == 1:
		return "1 " + thing
	case strings.HasSuffix(thing, "sh") || strings.HasSuffix(thing, "s") || strings.HasSuffix(thing, "x"):
		return fmt.Sprintf("%d %ses", n, thing)
	}
	return fmt.Sprintf("%d %ss", n, thing)
}
