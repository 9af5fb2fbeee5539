package web

import (
	"fmt"
)

// DemoPassword is the console password of the built-in demo
// (configs/arbiter.yaml). It is refused wherever strangers can reach the
// console.
const DemoPassword = "arbiter"

// Problem is one thing wrong with a setting of Config.
type Problem struct {
	// Field names the setting as Config spells it, with the element's
	// index for a list: "Users", "Users[1].Password", "TrustedProxies[0]".
	Field string
	// Value is what the setting holds; "(hidden)" for a password.
	Value string
	// Why says what is wrong and how to put it right.
	Why string
}

// String writes the problem as Field = "Value": Why.
func (p Problem) String() string { return fmt.Sprintf("%s = %q: %s", p.Field, p.Value, p.Why) }

// CheckConfig checks the site's settings before anything is opened: it
// returns the problems that must stop the daemon, and the warnings it may
// start with.
//
// exposed says why strangers may reach the console (real boards, a listen
// address beyond this machine), in the words the operator knows, or is ""
// for a demo on this machine. An exposed event must have console logins,
// none with the demo password, and every password stored as a bcrypt or
// argon2id hash (arbiter hash-password). A demo on this machine may keep
// plain passwords, with a warning.
func CheckConfig(cfg Config, exposed string) (problems, warnings []Problem) {
	_, ps := parseNets("TrustedProxies", cfg.TrustedProxies)
	problems = append(problems, ps...)
	_, ps = parseNets("MetricsAllow", cfg.MetricsAllow)
	problems = append(problems, ps...)

	if exposed != "" && len(cfg.Users) == 0 {
		problems = append(problems, Problem{Field: "Users", Value: "(none)",
			Why: "an event with " + exposed + " needs at least one arbiter login (password hash from: arbiter hash-password)"})
	}
	for i, u := range cfg.Users {
		field := fmt.Sprintf("Users[%d].Password", i)
		kind, err := passwordFormat(u.Password)
		switch {
		case err != nil:
			problems = append(problems, Problem{Field: field, Value: "(hidden)", Why: err.Error()})
		case exposed != "" && checkPassword(u.Password, DemoPassword):
			problems = append(problems, Problem{Field: field, Value: "(hidden)",
				Why: fmt.Sprintf("user %q has the demo password %q, refused with %s: choose a password of your own and store its hash (arbiter hash-password)", u.Name, DemoPassword, exposed)})
		case kind == plainPassword || kind == sha256Password:
			how := "in plain text"
			if kind == sha256Password {
				how = "as an unsalted SHA-256"
			}
			if exposed != "" {
				problems = append(problems, Problem{Field: field, Value: "(hidden)",
					Why: fmt.Sprintf("user %q has a password stored %s, refused with %s: store its hash instead (arbiter hash-password)", u.Name, how, exposed)})
			} else {
				warnings = append(warnings, Problem{Field: field, Value: "(hidden)",
					Why: fmt.Sprintf("user %q has a password stored %s: fine for a demo on this machine, not for an event (arbiter hash-password)", u.Name, how)})
			}
		}
	}
	return problems, warnings
}
