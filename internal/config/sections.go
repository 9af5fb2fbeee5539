package config

import (
	"errors"
	"fmt"
	"maps"
	"net/url"
	"os"
	"slices"
	"strings"
)

// problems checks the federation section.
func (f Federation) problems() []Problem {
	var ps problems
	switch f.Role {
	case "":
		return nil
	case "hall":
		f.checkHall(&ps)
	case "hub":
		f.checkHub(&ps)
	default:
		ps.add("federation.role", f.Role, "want hall, hub, or nothing for a single-hall event")
		return ps
	}
	for _, kp := range [][2]string{{"federation.tls_cert", f.TLSCert}, {"federation.tls_key", f.TLSKey}, {"federation.tls_ca", f.TLSCA}} {
		if _, err := os.Stat(kp[1]); kp[1] != "" && err != nil {
			ps.add(kp[0], kp[1], "cannot read it: %v", err)
		}
	}
	if f.URL != "" {
		ps.natsURL("federation.url", f.URL, "nats", "tls")
		return ps
	}
	if why := listenProblem(f.Listen); why != "" {
		ps.add("federation.listen", f.Listen, "%s", why)
	}
	if f.StoreDir == "" {
		ps.add("federation.store_dir", f.StoreDir, "the embedded NATS server needs a directory for its streams (or give url)")
	}
	return ps
}

// natsURL refuses a NATS address that does not parse or is not of one of
// schemes; the problem never shows its password.
func (ps *problems) natsURL(key, raw string, schemes ...string) {
	u, err := url.Parse(raw)
	var ue *url.Error
	switch {
	case errors.As(err, &ue):
		ps.add(key, redactURL(raw), "%v", ue.Err)
	case err != nil:
		ps.add(key, redactURL(raw), "%v", err)
	case !slices.Contains(schemes, u.Scheme) || u.Host == "":
		ps.add(key, u.Redacted(), "must be a %s address with a host", strings.Join(schemes, ":// or ")+"://")
	}
}

// checkHall checks what a hall needs: its name, the hub's address, its
// first board.
func (f Federation) checkHall(ps *problems) {
	if err := ValidHallName(f.Hall); err != nil {
		ps.add("federation.hall", f.Hall, "a hall needs its name: %v", err)
	}
	if f.URL == "" && f.HubURL != "" {
		ps.natsURL("federation.hub_url", f.HubURL, "nats-leaf", "tls")
	}
	if f.FirstBoard < 1 {
		ps.add("federation.first_board", f.FirstBoard, "must be 1 or more (the board the hall's first table plays)")
	}
}

// checkHub checks what a hub needs: its halls, their passwords, its
// certificate and its leaf port.
func (f Federation) checkHub(ps *problems) {
	seen := map[string]int{}
	for i, h := range f.Halls {
		key := fmt.Sprintf("federation.halls[%d]", i)
		if err := ValidHallName(h); err != nil {
			ps.add(key, h, "%v", err)
		} else if j, ok := seen[h]; ok {
			ps.add(key, h, "this hall is listed twice (halls[%d] and [%d])", j, i)
		} else {
			seen[h] = i
		}
	}
	if len(f.Halls) == 0 {
		ps.add("federation.halls", "", "a hub needs the names of the halls it gathers")
	}
	if len(f.HallPasswords) > 0 {
		for _, h := range f.Halls {
			if f.HallPasswords[h] == "" {
				ps.add("federation.hall_passwords."+h, "", "every hall needs a password once one has")
			}
		}
		for _, h := range slices.Sorted(maps.Keys(f.HallPasswords)) {
			if !slices.Contains(f.Halls, h) {
				ps.add("federation.hall_passwords."+h, "", "%q is not one of federation.halls", h)
			}
		}
	}
	if (f.TLSCert == "") != (f.TLSKey == "") {
		ps.add("federation.tls_key", f.TLSKey, "give both tls_cert and tls_key, or neither")
	}
	if f.URL == "" && f.LeafListen != "" {
		if why := listenProblem(f.LeafListen); why != "" {
			ps.add("federation.leaf_listen", f.LeafListen, "%s", why)
		}
	}
}

// problems checks the broadcast pushes; names are the tournaments' names.
func (b Broadcast) problems(names map[string]bool) []Problem {
	var ps []Problem
	add := func(key string, value any, why string, args ...any) {
		ps = append(ps, Problem{Key: key, Value: fmt.Sprint(value), Why: fmt.Sprintf(why, args...)})
	}
	for i, p := range b.Push {
		key := fmt.Sprintf("broadcast.push[%d]", i)
		u, err := url.Parse(strings.ReplaceAll(p.URL, "{round}", "1"))
		switch {
		case err != nil:
			add(key+".url", p.URL, "%v", err)
		case u.Scheme != "http" && u.Scheme != "https" || u.Host == "":
			add(key+".url", p.URL, "must be an http:// or https:// address")
		case p.Round == 0 && !strings.Contains(p.URL, "{round}"):
			add(key+".url", p.URL, "give round, or put {round} in the address: every round goes to its own address")
		}
		if !names[p.Tournament] {
			add(key+".tournament", p.Tournament, "no tournament has this name")
		}
		if p.Round < 0 || p.Round > 99 {
			add(key+".round", p.Round, "must be between 1 and 99, or 0 for every round")
		}
		if p.Token != "" && p.TokenEnv != "" {
			add(key+".token", "(hidden)", "give token or token_env, not both")
		}
	}
	return ps
}
