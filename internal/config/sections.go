package config

import (
	"fmt"
	"net/url"
	"strings"

	"arbiter/internal/federation"
)

// federationProblems are the federation section's problems, as package
// federation finds them, under the section's key.
func federationProblems(f federation.Config) []Problem {
	var ps []Problem
	for _, p := range f.Check() {
		ps = append(ps, Problem{Key: "federation." + p.Key, Value: p.Value, Why: p.Why})
	}
	return ps
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
