package web

import (
	"fmt"
	"net"
	"net/netip"
	"strings"

	"arbiter/internal/config"
)

// DemoPassword is the console password of the built-in demo
// (configs/arbiter.yaml). It is refused wherever strangers can reach the
// console.
const DemoPassword = "arbiter"

// CheckConfig checks the web settings of a configuration before anything
// is opened: it returns the problems that must stop the daemon, and the
// warnings it may start with.
//
// An exposed event (boards.ports configured, or http.listen beyond
// loopback) must have console logins, none with the demo password, and
// every password stored as a bcrypt or argon2id hash (arbiter
// hash-password). A demo on this machine may keep plain passwords, with a
// warning.
func CheckConfig(cfg *config.Config) (problems []config.Problem, warnings []string) {
	_, ps := parseNets("http.trusted_proxies", cfg.HTTP.TrustedProxies)
	problems = append(problems, ps...)
	_, ps = parseNets("http.metrics_allow", cfg.HTTP.MetricsAllow)
	problems = append(problems, ps...)

	exposed := exposure(cfg)
	if exposed != "" && len(cfg.Console.Users) == 0 {
		problems = append(problems, config.Problem{Key: "console.users", Value: "(none)",
			Why: "an event with " + exposed + " needs at least one arbiter login (password hash from: arbiter hash-password)"})
	}
	for i, u := range cfg.Console.Users {
		key := fmt.Sprintf("console.users[%d].password", i)
		kind, err := passwordFormat(u.Password)
		switch {
		case err != nil:
			problems = append(problems, config.Problem{Key: key, Value: "(hidden)", Why: err.Error()})
		case exposed != "" && checkPassword(u.Password, DemoPassword):
			problems = append(problems, config.Problem{Key: key, Value: "(hidden)",
				Why: fmt.Sprintf("user %q has the demo password %q, refused with %s: choose a password of your own and store its hash (arbiter hash-password)", u.Name, DemoPassword, exposed)})
		case kind == plainPassword || kind == sha256Password:
			how := "in plain text"
			if kind == sha256Password {
				how = "as an unsalted SHA-256"
			}
			if exposed != "" {
				problems = append(problems, config.Problem{Key: key, Value: "(hidden)",
					Why: fmt.Sprintf("user %q has a password stored %s, refused with %s: store its hash instead (arbiter hash-password)", u.Name, how, exposed)})
			} else {
				warnings = append(warnings, fmt.Sprintf("%s: user %q has a password stored %s: fine for a demo on this machine, not for an event (arbiter hash-password)", key, u.Name, how))
			}
		}
	}
	return problems, warnings
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
