package main

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"arbiter/board"
	"arbiter/demo"
	"arbiter/director"
	"arbiter/export"
	"arbiter/internal/broadcast"
	"arbiter/internal/config"
	"arbiter/store"
	"arbiter/web"
)

// The configuration file's layout stops here: the packages below take
// config types of their own, holding only what each uses, and this file
// is the one place that maps *config.Config onto them.

// directorConfig is what the director takes from the configuration: the
// event's name and its tournaments.
func directorConfig(cfg *config.Config) director.Config {
	out := director.Config{Name: cfg.Event.Name, Tournaments: make([]director.Tournament, len(cfg.Tournaments))}
	for i, t := range cfg.Tournaments {
		var players []store.Player
		for _, p := range t.Players {
			players = append(players, p.Record())
		}
		out.Tournaments[i] = director.Tournament{
			Name: t.Name, Game: t.Game, Options: t.Options, System: t.System, Rounds: t.Rounds,
			TimeControl: t.TimeControl, RoundTimeControls: t.RoundTimeControls, TieBreaks: t.TieBreaks,
			TouchMove: t.TouchMove, IllegalMove: t.IllegalMove, AutoPair: t.AutoPair,
			Accelerated: t.Accelerated, HalfPointByes: t.HalfPointByes,
			Players: players, PlayersTRF: t.PlayersTRF,
		}
	}
	return out
}

// webConfig is what the site takes from the configuration: the records'
// event keys, the console logins and the network around it (http).
func webConfig(cfg *config.Config) web.Config {
	return web.Config{
		Event:          exportEvent(cfg),
		Users:          webUsers(cfg),
		TrustedProxies: cfg.HTTP.TrustedProxies,
		MetricsAllow:   cfg.HTTP.MetricsAllow,
		SecureCookies:  cfg.HTTP.SecureCookies,
	}
}

// exportEvent is what the records take from the configuration: the
// event's record keys (a validated configuration's: an unreadable date
// stays unknown).
func exportEvent(cfg *config.Config) export.Event {
	e := cfg.Event
	ev := export.Event{Name: e.Name, City: e.City, Federation: e.Federation, ChiefArbiter: e.ChiefArbiter, Deputies: e.DeputyArbiters}
	ev.Start, _ = config.ParseDate(e.StartDate)
	ev.End, _ = config.ParseDate(e.EndDate)
	for _, t := range cfg.Tournaments {
		for _, s := range t.RoundDates {
			d, _ := config.ParseDate(s)
			if ev.RoundDates == nil {
				ev.RoundDates = map[string][]time.Time{}
			}
			ev.RoundDates[t.Name] = append(ev.RoundDates[t.Name], d)
		}
	}
	return ev
}

// webUsers are the console logins of the configuration (console.users).
func webUsers(cfg *config.Config) []web.User {
	var out []web.User
	for _, u := range cfg.Console.Users {
		out = append(out, web.User{Name: u.Name, Password: u.Password})
	}
	return out
}

// demoConfig is what the demo takes from the configuration: the demo
// section, the protocols' settings its simulated boards are read with
// (where White sits at a DGT clock), and the configured ports and
// assignments the simulated boards stand in for.
func demoConfig(cfg *config.Config) demo.Config {
	d := cfg.Demo
	settings := map[string]board.Settings{}
	for _, p := range board.Protocols() {
		settings[p.Name] = cfg.Boards.SettingsOf(p.Name)
	}
	out := demo.Config{Boards: d.Boards, Speed: d.Speed, Faults: d.Faults, Seed: d.Seed, Plies: d.Plies,
		DGT: d.DGT, BoardsOf: d.BoardsOf, Settings: settings}
	for _, p := range cfg.Boards.Ports {
		out.Ports = append(out.Ports, p.Board())
		out.Protocols = append(out.Protocols, p.Protocol)
	}
	for _, a := range cfg.Boards.Assign {
		if out.Assigned == nil {
			out.Assigned = map[string][]string{}
		}
		out.Assigned[a.Tournament] = append(out.Assigned[a.Tournament], a.Board)
	}
	return out
}

// checkWeb refuses what would open the console to strangers (the demo
// password or no login with boards or a listen address beyond loopback,
// passwords not stored as hashes there, unreadable networks, simulated
// boards) before anything is opened, and logs what a demo may start
// with.
func checkWeb(cfg *config.Config, log *slog.Logger) error {
	problems, warnings := web.CheckConfig(webConfig(cfg), exposure(cfg))
	ps := configProblems(problems)
	if p, ok := demoExposed(cfg); ok {
		ps = append(ps, p)
	}
	if len(ps) > 0 {
		return &config.Error{Source: cfg.Source, Problems: ps}
	}
	for _, w := range configProblems(warnings) {
		log.Warn("configuration", "warning", w.Key+": "+w.Why) // a warning names no value
	}
	return nil
}

// demoExposed refuses simulated boards (demo.enabled) where strangers
// reach the console: their random games would be played under the
// players' names, their results stored and the next round paired, in
// front of the event's arbiters and audience.
func demoExposed(cfg *config.Config) (config.Problem, bool) {
	if !cfg.Demo.Enabled || config.LoopbackListen(cfg.HTTP.Listen) {
		return config.Problem{}, false
	}
	return config.Problem{Key: "demo.enabled", Value: "true", Why: fmt.Sprintf(
		"simulated boards play random games under the players' names, refused with http.listen = %s (beyond this machine): "+
			"for an event set demo.enabled: false (its boards are boards.ports), for a demo listen on 127.0.0.1, "+
			"and to try the event's configuration on simulated boards run arbiter rehearse", cfg.HTTP.Listen)}, true
}

// webKeys spell the fields of web.Config as the configuration file's keys.
var webKeys = strings.NewReplacer(
	"Users", "console.users",
	".Password", ".password",
	"TrustedProxies", "http.trusted_proxies",
	"MetricsAllow", "http.metrics_allow",
)

// configProblems are the site's problems with the keys of the
// configuration file.
func configProblems(ps []web.Problem) []config.Problem {
	out := make([]config.Problem, len(ps))
	for i, p := range ps {
		out[i] = config.Problem{Key: webKeys.Replace(p.Field), Value: p.Value, Why: p.Why}
	}
	return out
}

// exposure says why strangers may reach the console ("boards.ports",
// "http.listen = 0.0.0.0:8080"), or "" for a demo on this machine.
func exposure(cfg *config.Config) string {
	var why []string
	if len(cfg.Boards.Ports) > 0 {
		why = append(why, "boards.ports")
	}
	if !config.LoopbackListen(cfg.HTTP.Listen) {
		why = append(why, fmt.Sprintf("http.listen = %s (beyond this machine)", cfg.HTTP.Listen))
	}
	return strings.Join(why, " and ")
}

// broadcastPushes are the pushes of broadcast.push, each with its token
// (token, or the variable token_env names).
func broadcastPushes(cfg *config.Config) []broadcast.Push {
	var out []broadcast.Push
	for _, p := range cfg.Broadcast.Push {
		out = append(out, broadcast.Push{URL: p.URL, Tournament: p.Tournament, Round: p.Round, Token: p.PushToken(), Format: p.Format})
	}
	return out
}

// flushBroadcast sends what the broadcast pushes have pending once the
// event has stopped, for at most broadcast.DefaultFlushWait (a second
// Ctrl-C or SIGTERM stops it at once), and says what it could not send.
func flushBroadcast(push *broadcast.Pusher, out io.Writer, log *slog.Logger) {
	ctx, cancel := context.WithTimeout(context.Background(), broadcast.DefaultFlushWait)
	defer cancel()
	ctx, stop := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
	defer stop()
	if n := len(push.Pending()); n > 0 {
		fmt.Fprintf(out, "arbiter: sending %d broadcast rounds not yet accepted (up to %v; Ctrl-C again to stop now)\n", n, broadcast.DefaultFlushWait)
	}
	if err := push.Flush(ctx); err != nil {
		log.Error("broadcast: rounds not sent before the stop", "err", err)
		fmt.Fprintln(out, "arbiter:", err)
	}
}
