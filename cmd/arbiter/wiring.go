package main

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/netip"
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
// section, and the protocols' settings its simulated boards are read with
// (where White sits at a DGT clock).
func demoConfig(cfg *config.Config) demo.Config {
	d := cfg.Demo
	settings := map[string]board.Settings{}
	for _, p := range board.Protocols() {
		settings[p.Name] = cfg.Boards.SettingsOf(p.Name)
	}
	return demo.Config{Boards: d.Boards, Speed: d.Speed, Faults: d.Faults, Seed: d.Seed, Plies: d.Plies,
		DGT: d.DGT, Settings: settings}
}

// checkWeb refuses what would open the console to strangers (the demo
// password or no login with boards or a listen address beyond loopback,
// passwords not stored as hashes there, unreadable networks) before
// anything is opened, and logs what a demo may start with.
func checkWeb(cfg *config.Config, log *slog.Logger) error {
	problems, warnings := web.CheckConfig(webConfig(cfg), exposure(cfg))
	if len(problems) > 0 {
		return &config.Error{Source: cfg.Source, Problems: configProblems(problems)}
	}
	for _, w := range configProblems(warnings) {
		log.Warn("configuration", "warning", w.Key+": "+w.Why) // a warning names no value
	}
	return nil
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
	if !loopbackListen(cfg.HTTP.Listen) {
		why = append(why, fmt.Sprintf("http.listen = %s (beyond this machine)", cfg.HTTP.Listen))
	}
	return strings.Join(why, " and ")
}

// loopbackListen reports whether a listen address reaches this machine
// only: a loopback address or localhost. An empty host listens everywhere.
func loopbackListen(listen string) bool {
	h, _, err := net.SplitHostPort(listen)
	if err != nil {
		return false
	}
	if strings.EqualFold(h, "localhost") {
		return true
	}
	a, err := netip.ParseAddr(h)
	return err == nil && a.Unmap().IsLoopback()
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
